# a surrogate (ED A0 80) is no UTF-8 and no XML character: in a frame name
# or the title each of its bytes becomes U+FFFD, as any byte that is not UTF-8
printf 'main;a\355\240\200b 7\n' > in.folded
flamekit flamegraph --title "$(printf 'T\355\277\277')" in.folded > out.svg; echo "exit $?"
grep -o '<text id="title"[^>]*>[^<]*</text>' out.svg
grep -o '<title>a[^<]*b ([^<]*</title>' out.svg
