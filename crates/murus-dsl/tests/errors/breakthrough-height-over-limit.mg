// A breakthrough by a stack of 3 where stacks hold at most 2.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 2
win { breakthrough immediate by sow height 3  stalemate loses }
