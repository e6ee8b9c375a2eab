// Step vectors count files and ranks, which a hex board lacks.
variant "hexbase"
board hex 5
player "Romans" { letter r  colour "#e8dcc0"  home edge s  forward ne }
player "Gauls"  { letter g  colour "#5b3a29"  home edge n  forward sw }
setup {
    r 2 on edge s
    g 2 on edge n
}
stack limit 2
sow { heights 2  directions forward, (1, 2)  onto empty, own 1 }
win { stalemate loses }
