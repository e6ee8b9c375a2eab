// Murus Gallicus on boards of 7 to 9 files and 6 to 9 ranks: the standard
// game (variants/standard.mg) with its board size as two parameters, for
// `murus sweep variants/sweeps/standard-sizes.mg`. The rules claim the game
// "works well on 7×7, 8×8 and probably 9×9"; the sweep checks it.
//
// Each side fills its home rank with towers, as on the standard board, so
// the setup scales with the board: `files` towers a side, `ranks - 2`
// empty ranks between them.

variant "standard-sizes"
title "Murus Gallicus, board sizes"

param files = 7..9 default 8
param ranks = 6..9 default 7

board rect $files x $ranks

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank $ranks
    forward s
}

setup {
    r 2 on rank 1
    g 2 on rank $ranks
}

stack limit 2

sow {
    heights 2
    directions all
    onto empty, own 1
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
}

win {
    breakthrough immediate by sow
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
