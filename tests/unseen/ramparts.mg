// Ramparts: a variant written for the `murus train` acceptance test (issue 12),
// never seen by the project's evaluation. Against the advanced game it changes
// the board (7 files by 8 ranks), the stack limit (4: towers sow onto stacks
// of up to three) and the catapult (throwing exactly 1 or 2 cells).

variant "ramparts"
title "Ramparts (unseen test variant)"

board rect 7 x 8

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
    r 2 on rank 1
    g 2 on rank 8
}

stack limit 4

// Only towers sow; sowing onto own stacks builds them up to four.
sow {
    heights 2
    directions all
    onto empty, own 1, own 2, own 3
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
    2 against 3: lose 1, remove 1
    2 against 4: lose 2, remove 2
}

catapult {
    height 3
    directions left, forward-left, forward, forward-right, right
    range 1, 2
    onto empty, enemy any
}

win {
    breakthrough immediate by sow, throw
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
