// Cavalry: Murus Gallicus on a hexagon of 61 cells, where a tower may sow
// along a line of neighbouring cells, as in the hex variant, or a knight's
// leap at a time: `(1, 2) mirrored`, the twelve cells two steps forward
// and one forward-right, turned and reflected, so that its two stones land
// a leap and two leaps away, over whatever is between.
//
// Knights cross the board fast: a single stone on the enemy's home does
// not win, two at once do (`count 2`). Greedy bots and shallow searches
// find the sides about even (an unscientific check of a few dozen games).
//
// An example of step vectors on a hex board (docs/rules-language.md,
// "Directions"), with the designer's introduction and captions.

variant "cavalry"
title "Cavalry (hex)"

introduction
    "Murus Gallicus on a hexagon, with horses: a tower may sow along a line of neighbouring cells, or leap like a knight, dropping its two stones a knight's leap and two knight's leaps away, over whatever stands between."
    "An enemy stack on a line of cells blocks a sowing along it; a knight's leap passes over whatever stands between its cells. Riders cross the board fast, so one stone on the enemy's edges is not enough: two at once win."

board hex 5

player "Romans" {
    letter r
    colour "#e8dcc0"
    home edge s + edge sw
    forward ne
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home edge n + edge ne
    forward sw
}

setup {
    r 2 on edge s + edge sw
    g 2 on edge n + edge ne
}

stack limit 2

sow {
    heights 2
    directions ne, e, se, sw, w, nw, (1, 2) mirrored
    onto empty, own 1
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
}

// Two stones on the enemy's edges at once: a single rider is not enough.
win {
    breakthrough immediate by sow count 2
    stalemate loses
}

draw {
    repetition 3
    plies 300
}

caption start "The horsemen wait on their two edges of the hexagon."
caption sow-empty "A tower sows: along a line, or a knight's leap at a time."
