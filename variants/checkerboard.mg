// Murus Gallicus on a checkerboard: 8×8, six towers a side.
// Corner files stay empty at the start (files b–g hold the towers).

variant "checkerboard"
title "Murus Gallicus 8×8"

board rect 8 x 8

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 8
    forward s
}

setup {
    r 2 on rank 1 - file a - file h
    g 2 on rank 8 - file a - file h
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
