# flamekit record -o and --outdir follow the same output rules: a symlink's
# target is written and the link stays, an existing file keeps its mode, a
# FIFO and a device are written as they are, a write error fails the run
. "$DATA/../cases/lib/output.sh"
[ "$(id -u)" = 0 ] || { echo "record needs root" >&2; exit 77; }
export FLAMEKIT_CACHE_DIR=$PWD/cache
# a busy process of the case's own, so that every run has samples
(while :; do :; done) & busy=$!
trap 'kill $busy' EXIT
record() { flamekit record -F 199 -p $busy "$@" 0.3 2> err || { echo "exit $?: $(grep -v -e samples -e ^Sampling err)"; return 1; }; }
record -f > /dev/null || { echo "BPF sampling does not work here: $(cat err)" >&2; exit 77; }
echo old > real.folded; chmod 640 real.folded; chown nobody:nogroup real.folded
ln -s real.folded link.folded
record -o link.folded && describe link.folded real.folded && grep -c ' [0-9]*$' real.folded > /dev/null && echo "stacks in real.folded"
mkfifo fifo.folded
timeout 10 cat fifo.folded > got & reader=$!
record -o fifo.folded; wait $reader
describe fifo.folded; [ -s got ] && echo "stacks through the FIFO"
mknod -m 666 full.folded c 1 7
record -o full.folded
describe full.folded
record --outdir made/here && ls made/here | sed 's/_[0-9]\{8\}_[0-9]\{6\}_UTC//; s/^[^.]*/HOST/; s/pid_[0-9]*/pid_PID/'
ls -A
