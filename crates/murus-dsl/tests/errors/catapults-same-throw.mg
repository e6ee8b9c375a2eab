// Two catapults that both throw forward 2: `d3*d5` would not say which.
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
catapult {
    height 3
    directions forward-left, forward, forward-right
    range 2, 3
    onto empty, enemy any
}
catapult {
    height 3
    directions forward, left, right
    range 1, 2
    onto empty
    on empty: lost
}
win { breakthrough immediate  stalemate loses }
