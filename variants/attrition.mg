// Attrition — a capture race on the Murus Gallicus board.
// Nothing is won by reaching a home. A tower takes an enemy wall (giving up
// one stone) or an enemy tower (giving up one stone, taking both of its);
// a player who starts its turn with 8 stones or fewer, half of its
// sixteen, loses.

variant "attrition"
title "Attrition"

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
    2 against 2: lose 1, remove 2
}

win {
    reduced to 8 stones
    stalemate loses
}

draw {
    repetition 3
    plies 200
}
