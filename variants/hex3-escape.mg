// Three-player Escape on a hexagon of side 5.
// Five towers each on alternate edges. Reaching another edge wins nothing: a
// player who cannot act at the start of its turn is eliminated (its stones
// stay as obstacles) and the last player able to act wins.

variant "hex3-escape"
title "Murus Gallicus Escape (three players, hex)"

board hex 5

player "Romans" {
    letter r
    colour "#e8dcc0"
    home edge s
    forward ne
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home edge ne
    forward w
}

player "Britons" {
    letter b
    colour "#3a6ea5"
    home edge nw
    forward se
}

setup {
    r 2 on edge s
    g 2 on edge ne
    b 2 on edge nw
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
    stalemate loses
}

draw {
    repetition 3
    plies 600
}
