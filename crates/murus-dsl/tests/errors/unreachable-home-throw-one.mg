// Sowing and throwing only backwards, throws of one cell: no stone can ever
// reach the other side's home (and "1 cell" is singular).
variant "backwards"
board rect 8 x 7
player "Romans" { letter r colour "#e8dcc0" home rank 1 forward n }
player "Gauls" { letter g colour "#5b3a29" home rank 7 forward s }
setup { r 2 on rank 1 g 2 on rank 7 }
stack limit 3
sow { heights 2 directions back onto empty, own 1, own 2 }
catapult { height 3 directions back range 1 onto empty }
win { breakthrough immediate stalemate loses }
