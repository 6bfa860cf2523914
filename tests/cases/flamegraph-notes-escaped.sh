# --notes go into a comment: "--" and a last '-' get a space, line breaks
# stay, what XML cannot hold (control characters, bytes that are not UTF-8)
# becomes U+FFFD, and < & are left as they are
flamekit flamegraph --notes "$(printf 'a\001b \377 c--d <e> & f\nsecond -')" "$DATA/small.folded" > out.svg; echo "exit $?"
sed -n '/NOTES/,/-->/p' out.svg
