// A hex board has no `s`: it lies between `se` and `sw`, and both are
// offered (not only the nearest spelling).
variant "hexsouth"
board hex 5
player "Romans" { letter r  colour "#e8dcc0"  home edge s  forward ne }
player "Gauls"  { letter g  colour "#5b3a29"  home edge n  forward s }
setup {
    r 2 on edge s
    g 2 on edge n
}
stack limit 2
sow { heights 2  directions ne, s  onto empty, own 1 }
win { stalemate loses }
