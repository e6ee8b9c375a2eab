// Ballista — Advanced Murus Gallicus with two kinds of throw.
// A catapult (3 stones) throws 2 or 3 cells forward, forward-left or
// forward-right, onto an empty cell or an enemy stack, as in Advanced; it
// throws only 1 cell to the left or right, and only to hit an enemy stack.
// The long throw breaks through; the short one guards the flanks.

variant "ballista"
title "Ballista"

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

stack limit 3

sow {
    heights 2
    directions all
    onto empty, own 1, own 2
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
    2 against 3: lose 1, remove 1
    2 against 3: lose 2, remove 2
}

// The long throw, forward.
catapult {
    height 3
    directions forward-left, forward, forward-right
    range 2, 3
    onto empty, enemy any
}

// The short throw, sideways: it only hits, and knocks off two stones.
catapult {
    height 3
    directions left, right
    range 1
    onto enemy any
    on enemy: remove 2
}

win {
    breakthrough immediate by sow, throw
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
