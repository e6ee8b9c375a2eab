// A variant needs two players.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
setup {
    r 2 on rank 1
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
win { stalemate loses }
