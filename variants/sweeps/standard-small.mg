// The standard game (variants/standard.mg) cut down to boards of 3 to 6
// files and 4 to 6 ranks, small enough to solve: `murus solve
// variants/sweeps/standard-small.mg --set files=5 --set ranks=4`. Each side
// fills its home rank with towers, as on the standard board.

variant "standard-small"
title "Murus Gallicus, small boards"

param files = 3..6 default 4
param ranks = 4..6 default 4

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
