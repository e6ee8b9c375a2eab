// Siege: the Romans storm a Gaulish oppidum. The sides are not alike: the
// Romans build siege engines (stacks of 3 that throw forward) and win by
// breaking through; the Gauls, behind a wall of their own, build nothing
// taller than a tower, throw nothing, and win by wearing the Romans down or
// leaving them no move. Bot self-play finds it even at the stronger levels
// (`murus balance siege`: the Romans win about half the games at medium
// and hard), while weak Gauls lose.
//
// Every rule a side has alone is written with `for` (docs/rules-language.md,
// "Rules of a player's own").

variant "siege"
title "Siege"

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
    g 1 on rank 6
}

// The Romans' stacks may grow to 3 (siege engines); the Gauls' to 2.
stack limit 2
stack limit 3 for r

// A sown stone may land on an own wall, or on an own tower where its
// owner's limit allows (the Romans' only).
sow {
    heights 2
    directions all
    onto empty, own 1, own 2
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
}

// Siege engines: a stack of 3 throws a stone 2 or 3 cells forward, onto an
// empty cell (where it stays as a wall) or at an enemy stack (which loses
// one stone).
catapult for r {
    height 3
    directions forward-left, forward, forward-right
    range 2, 3
    onto empty, enemy any
    on enemy: remove 1
}

// The Romans win by breaking through, and lose when worn down to 6 stones.
win for r {
    breakthrough immediate by sow, throw
    stalemate loses
    reduced to 6 stones
}

// The Gauls cannot break out: they win when the Romans are worn down or
// stalemated.
win for g {
    stalemate loses
}

draw {
    repetition 3
    plies 200
}
