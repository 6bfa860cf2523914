# The unit reaches the SVG. perf script text drawn directly: "periods" where
# the counts are periods (the default, when perf printed them, and --weight
# period), "samples" where they are samples (--weight samples, and the
# default on text without periods). Folded stacks carry no unit: they read
# "samples" unless --countname names what they are. --weight on folded input
# is refused; the flamegraph personality does not take it (flamegraph.pl has
# no such option), and -w is still flamegraph.pl's --width.
all() { grep -o '<title>all ([^<]*</title>'; }
sed -E 's/: +[0-9]+ cycles:/: cycles:/' "$DATA/periods.perf" > no-period.perf
echo "default: $(flamekit flamegraph "$DATA/periods.perf" | all)"
echo "--weight period: $(flamekit flamegraph --weight period "$DATA/periods.perf" | all)"
echo "--weight samples: $(flamekit flamegraph --weight samples "$DATA/periods.perf" | all)"
echo "default, no periods: $(flamekit flamegraph no-period.perf | all)"
flamekit flamegraph "$DATA/periods.perf" > periods.svg
echo "lines of the periods SVG (but its script) that say \"samples\": $(sed '/<script/,/<\/script>/d' periods.svg | grep -c samples)"
grep -o '"countname":"[^"]*"' periods.svg
grep -o '<title>cold ([^<]*</title>' periods.svg
flamekit collapse perf "$DATA/periods.perf" > periods.folded
echo "folded: $(flamekit flamegraph periods.folded | all)"
echo "folded, --countname periods: $(flamekit flamegraph --countname periods periods.folded | all)"
flamekit flamegraph --weight period periods.folded; echo "exit $?"
flamegraph --weight period periods.folded > personality.svg 2> personality.err
echo "flamegraph --weight: exit $?, $(wc -c < personality.svg) bytes, $(head -n 1 personality.err)"
echo "-w 300:$(flamekit flamegraph -w 300 periods.folded | grep -o '<svg [^>]*>' | grep -o ' width="[0-9]*"')"
