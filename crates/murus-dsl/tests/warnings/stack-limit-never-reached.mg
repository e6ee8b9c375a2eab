// A stack limit of 3 that nothing reaches: towers sow onto walls only, so
// no stack grows past 2; the catapult and the sacrifice against a stack of
// 3 are dead with it.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 3
sow { heights 2  directions all  onto empty, own 1 }
sacrifice {
    directions all
    2 against 1: lose 1, remove 1
    2 against 3: lose 1, remove 1
}
catapult { height 3  directions forward  range 2  onto enemy any }
win { breakthrough immediate  stalemate loses }
