// A home of two edges is no one rank: the note shows the form of a pie line.
variant "base"
board hex 5
player "Romans" { letter r  colour "#e8dcc0"  home edge s + edge sw  forward ne }
player "Gauls"  { letter g  colour "#5b3a29"  home edge n + edge ne  forward sw }
setup {
    r 2 on edge s + edge sw
    g 2 on edge n + edge ne
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
opening pie {
    r from edge s to edge s + edge sw
}
win { stalemate loses }
