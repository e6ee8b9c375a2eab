// At most four players.
variant "base"
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
player "Belgae" { letter b  colour "#3a6ea5"  home file a  forward e }
player "Helvetii" { letter h  colour "#3a6ea5"  home file h  forward w }
player "Britons" { letter t  colour "#3a6ea5"  home rank 4  forward n }
setup {
    r 2 on rank 1
    g 2 on rank 7
    b 1 on cells a4
    h 1 on cells h4
    t 1 on cells d4
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
win { stalemate loses }
