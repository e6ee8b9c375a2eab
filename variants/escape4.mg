// Four-player Escape on 8×8.
// Each player has six towers on its own edge; the corners start empty.
// Reaching another edge wins nothing: a player who cannot act at the start of
// its turn is eliminated (its stones stay as obstacles), turns skip it, and the
// last player able to act wins.

variant "escape4"
title "Murus Gallicus Escape (four players)"

board rect 8 x 8

player "Romans" {
    letter r
    colour "#e8dcc0"
    home edge s
    forward n
}

player "Belgae" {
    letter b
    colour "#3a6ea5"
    home edge w
    forward e
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home edge n
    forward s
}

player "Helvetii" {
    letter h
    colour "#8a3b5c"
    home edge e
    forward w
}

setup {
    r 2 on edge s - cells a1 h1
    b 2 on edge w - cells a1 a8
    g 2 on edge n - cells a8 h8
    h 2 on edge e - cells h1 h8
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
    plies 800
}
