// A parameter declared but never written as `$NAME`.
variant "base"
param files = 7..9 default 8
param ranks = 7, 9, 7
board rect 8 x $ranks
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank $ranks  forward s }
setup {
    r 2 on rank 1
    g 2 on rank $ranks
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
win { stalemate loses }
