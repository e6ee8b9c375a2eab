// A step vector longer than a hex board: (2, 3) is five king steps, and a
// board of side 3 is four across.
variant "hexbase"
board hex 3
player "Romans" { letter r  colour "#e8dcc0"  home edge s  forward ne }
player "Gauls"  { letter g  colour "#5b3a29"  home edge n  forward sw }
setup {
    r 2 on edge s
    g 2 on edge n
}
stack limit 2
sow { heights 2  directions forward, (2, 3)  onto empty, own 1 }
win { stalemate loses }
