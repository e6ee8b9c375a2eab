// The stones sow only forward, on files a and b: nobody can ever hold h4.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on cells a1 b1
    g 2 on cells a7 b7
}
stack limit 2
sow { heights 2  directions forward  onto empty, own 1 }
win { breakthrough immediate  occupy cells h4  stalemate loses }
