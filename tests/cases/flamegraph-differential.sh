# two counts per line: widths from the second, red grew, blue shrank
printf 'main;a 10 20\nmain;b 20 10\nmain;c 5 5\n' > diff.folded
flamekit flamegraph diff.folded | grep -o '<title>[^<]*</title><rect[^>]*fill="[^"]*"' | sed 's/<rect.*fill=/ fill=/' | sort
flamekit flamegraph --colors diff-cb diff.folded | grep -o '<title>[ab] [^<]*</title><rect[^>]*fill="[^"]*"' | sed 's/<rect.*fill=/ fill=/' | sort
