// Alesia: Caesar's siege of Vercingetorix's hill fort (52 BC), on a 7×7
// board with its corners cut. The sides are not alike. The Romans build
// engines (stacks of 3) with two kinds of throw: a long one over the
// rampart, which also breaks through, and a short one sideways that only
// knocks stones off. They must break in before they are worn down to 4
// stones. The Gauls build nothing taller than a tower and throw nothing;
// they win by breaking out (a tower of theirs that still stands on the
// Romans' home at the start of their next turn), by wearing the Romans
// down, or by holding out until the ply limit (`adjudicate for g`). With
// the Gauls' breakthrough immediate, greedy and shallow bots found the
// Gauls winning most games; delayed and by a tower, the sides came out
// about even (an unscientific check of a few dozen games).
//
// An example of the richer rules language: cells removed, rules of a
// player's own (`for`), two catapults, a reduction for one side, and the
// designer's introduction and captions (docs/rules-language.md).

variant "alesia"
title "Alesia"

introduction
    "In 52 BC Caesar walled Vercingetorix and his Gauls into the hill fort of Alesia. The Romans must break in before they are worn down; the Gauls must hold out, or break out."
    "The Romans build engines, stacks of three stones, which throw: far over the rampart, or a short blow sideways. The Gauls never build so high."

board rect 7 x 7 without cells a1 g1 a7 g7

player "Romans" {
    letter r
    colour "#b3262e"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#efe6cf"
    home rank 7
    forward s
}

setup {
    r 2 on rank 1
    g 2 on rank 7
    g 1 on rank 6
}

// The Romans' stacks grow to 3 (their engines); the Gauls' to 2.
stack limit 2
stack limit 3 for r

sow {
    heights 2
    directions all
    onto empty, own 1, own 2
}

// A tower takes a stone off an enemy wall, or off an enemy engine.
sacrifice {
    directions all
    2 against 1: lose 1, remove 1
    2 against 3: lose 1, remove 1
}

// The long throw, 2 or 3 cells forward, over the rampart.
catapult for r {
    height 3
    directions forward-left, forward, forward-right
    range 2, 3
    onto empty, enemy any
}

// The short throw, 1 cell sideways: it only hits, and knocks off two stones.
catapult for r {
    height 3
    directions left, right
    range 1
    onto enemy any
    on enemy: remove 2
}

win for r {
    breakthrough immediate by sow, throw
    reduced to 4 stones
    stalemate loses
}

win for g {
    breakthrough delayed height 2
    stalemate loses
}

// The besieged win by holding out.
draw {
    repetition 3
    plies 160
    adjudicate for g
}

caption start "The legions before the walls of Alesia: the Gaulish rampart of walls on rank 6."
caption throw "A Roman engine hurls a stone over the rampart."
caption reduction "The legions worn down: the siege is lifted."
