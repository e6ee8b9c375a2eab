// King of the Hill — Murus Gallicus with a hill in the middle.
// A player who has stacks on two of the four middle cells (c4, d4, e4, f4)
// at the start of its turn wins, so a stack on the hill must survive the
// opponent's reply; breaking through still wins at once.

variant "hill"
title "King of the Hill"

board rect 8 x 7

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 7
    forward s
}

setup {
    r 2 on rank 1
    g 2 on rank 7
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
    occupy cells c4 d4 e4 f4 count 2
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
