// Murus Gallicus on 9×9 with nine towers a side.
// A larger board named by the texts; expect more draws.

variant "large"
title "Murus Gallicus 9×9"

board rect 9 x 9

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 9
    forward s
}

setup {
    r 2 on rank 1
    g 2 on rank 9
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
