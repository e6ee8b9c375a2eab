// A second introduction, and an empty paragraph in the first.
variant "base"
introduction "Two armies meet." "  "
board rect 8 x 7
player "Romans" { letter r  colour "#e8dcc0"  home rank 1  forward n }
player "Gauls"  { letter g  colour "#5b3a29"  home rank 7  forward s }
setup {
    r 2 on rank 1
    g 2 on rank 7
}
stack limit 2
sow { heights 2  directions all  onto empty, own 1 }
win { stalemate loses }
introduction "Another."
