// The Gauls' own sowing lands on own towers, but their stacks stop at 2.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 3
stack limit 2 for g
sow { heights 2  directions all  onto empty, own 1, own 2 }
sow for g { heights 2  directions all  onto empty, own 1, own 2 }
win { breakthrough immediate  stalemate loses }
