// Only the Romans throw, but the Gauls' win counts throws.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 3
sow { heights 2  directions all  onto empty, own 1, own 2 }
catapult for r { height 3  directions forward  range 2  onto empty }
win { breakthrough immediate by sow, throw  stalemate loses }
win for g { breakthrough immediate by throw  stalemate loses }
