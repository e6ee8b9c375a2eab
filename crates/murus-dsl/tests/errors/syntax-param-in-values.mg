// A parameter's values are plain numbers.
variant "base"
param ranks = 7
param files = $ranks, 9
