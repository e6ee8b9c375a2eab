// Murus Gallicus on a hexagon of side 5 (61 cells, six directions).
// Each side starts with nine towers on two adjacent edges and must reach the
// two edges facing them. Cell names: see docs/rules-language.md ("Hex boards").

variant "hex"
title "Murus Gallicus (hex)"

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
    directions all
    onto empty, own 1
}

sacrifice {
    directions all
    2 against 1: lose 1, remove 1
}

win {
    breakthrough immediate by sow
    stalemate loses
}

draw {
    repetition 3
    plies 400
}
