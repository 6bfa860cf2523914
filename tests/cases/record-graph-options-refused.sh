# flamegraph's display options go where a graph is written (-o FILE.svg,
# --outdir; -o FILE.html those the page draws by), checked before
# sampling as the SVG writer would check them at the end
flamekit record -f --title T 1; echo "exit $?"
flamekit record -o x.txt --colors java 1; echo "exit $?"
flamekit record --timeline --title T 1; echo "exit $?"
flamekit record -o x.html --width 800 1; echo "exit $?"
flamekit record -o x.svg --colors nope 1; echo "exit $?"
flamekit record -o x.svg --bgcolors pink 1; echo "exit $?"
flamekit record -o x.svg --width ten 1; echo "exit $?"
flamekit record -o x.svg --minwidth 1px 1; echo "exit $?"
flamekit record --rate -e page-faults --title T 1; echo "exit $?"
ls
