// Players who go east and west: the example pie line runs from a home file
// to the next file forward.
variant "base"
board rect 7 x 8
player "Romans" { letter r  colour "#e8dcc0"  home file a  forward e }
player "Gauls"  { letter g  colour "#5b3a29"  home file g  forward w }
setup {
    r 2 on file a
    g 2 on file g
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
opening pie {
    g from file g to file f
}
win { stalemate loses }
