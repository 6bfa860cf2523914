# one 10 MB line: reported (shortened), no crash
head -c 10485760 /dev/zero | tr '\0' 'x' > long.txt
flamekit collapse perf long.txt
