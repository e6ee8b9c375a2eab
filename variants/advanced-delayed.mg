// Advanced Murus Gallicus with a delayed breakthrough.
// A breakthrough wins only if the stone still stands on the opponent's home rank
// at the start of its owner's next turn: the opponent gets one turn to remove it.
// This is the timing of two other implementations; advanced.mg follows the designer.

variant "advanced-delayed"
title "Advanced Murus Gallicus (delayed breakthrough)"

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

// Catapults never sow: only towers (height 2) do.
sow {
    heights 2
    directions all
    onto empty, own 1, own 2
}

// Catapults never sacrifice; nothing sacrifices against a tower.
sacrifice {
    directions all
    2 against 1: lose 1, remove 1
    2 against 3: lose 1, remove 1
    2 against 3: lose 2, remove 2
}

catapult {
    height 3
    directions left, forward-left, forward, forward-right, right
    range 2, 3
    onto empty, enemy 1, enemy 2, enemy 3
}

win {
    breakthrough delayed by sow, throw
    stalemate loses
}

draw {
    repetition 3
    plies 300
}
