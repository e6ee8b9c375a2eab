// Murus Gallicus with the pie rule (Phil Leduc).
// The Romans open by splitting one home tower into two walls on their second
// rank (d1:b2,g2); the Gauls may then swap sides, or open the same way.

variant "pie"
title "Murus Gallicus (pie rule)"

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

opening pie {
    r from rank 1 to rank 2
    g from rank 7 to rank 6
}

win {
    breakthrough immediate by sow
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
