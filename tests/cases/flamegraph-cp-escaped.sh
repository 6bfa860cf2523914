# --cp: a colour read from palette.map goes into the frame's fill escaped,
# so that the map's text can neither end the element nor add one
printf 'compute->"/><script>alert(1)</script><rect x="\n' > palette.map
flamekit flamegraph --cp "$DATA/small.folded" > out.svg; echo "exit $?"
grep -c '<script' out.svg
grep -o '<title>compute .*</title><rect [^>]*>' out.svg
