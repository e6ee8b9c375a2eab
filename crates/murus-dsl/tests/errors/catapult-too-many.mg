// More catapults than a variant may have.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 4
sow { heights 2  directions all  onto empty, own 1 }
catapult { height 3  directions forward  range 1  onto empty }
catapult { height 3  directions forward  range 2  onto empty }
catapult { height 3  directions forward  range 3  onto empty }
catapult { height 3  directions forward  range 4  onto empty }
catapult { height 4  directions forward  range 1  onto empty }
catapult { height 4  directions forward  range 2  onto empty }
catapult { height 4  directions forward  range 3  onto empty }
catapult { height 4  directions forward  range 4  onto empty }
catapult { height 3  directions back  range 1  onto empty }
win { stalemate loses }
