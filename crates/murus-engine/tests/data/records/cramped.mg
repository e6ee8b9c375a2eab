// Murus Gallicus on 6×5 with six towers a side.
// A home-made variant for the record tests: not shipped.

variant "cramped"
title "Cramped Murus, 6×5"

board rect 6 x 5

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 5
    forward s
}

setup {
    r 2 on rank 1
    g 2 on rank 5
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
