// Hex boards have no north.
variant "hexbase"
board hex 5
player "Romans" { letter r  colour "#e8dcc0"  home edge s  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home edge n  forward sw }
setup {
    r 2 on edge s
    g 2 on edge n
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
win { stalemate loses }
