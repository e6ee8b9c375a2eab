// On 7 ranks a throw of 7 forward always leaves the board; the second
// catapult throws nowhere at all.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 4
sow { heights 2  directions all  onto empty, own 1, own 2, own 3 }
catapult { height 3  directions forward  range 2, 7  onto empty, enemy any }
catapult { height 4  directions forward  range 7, 8  onto enemy any }
win { breakthrough immediate  stalemate loses }
