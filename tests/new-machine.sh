#!/usr/bin/env bash
# Runs the README's two commands as a new machine runs them: in a fresh
# clone of this repository's HEAD (committed work only), each inside a
# private mount namespace where tracefs and debugfs are unmounted (a freshly
# booted Debian 12 has neither) and flamekit's caches are empty. The
# commands are taken from the README's quick start as written, so what is
# checked is what a user types.
#
#   tests/new-machine.sh [--runs N] [--keep]
#
# Command 1 must write flame.svg with seventy() at 70% (± 5 points) of
# fk-7030's samples; command 2 must end with "tests: N passed, 0 failed, ..."
# and exit 0, N times in a row (--runs, default 2). Not part of `make check`
# (it runs make check); run it as root before closing an issue that touches
# set-up or record. It changes nothing outside its scratch directory but
# what setup.sh installs. Exits 0 when all passed.
set -u
runs=2 keep=""
while (( $# )); do
	case $1 in
	--runs) runs=${2:?--runs needs a number}; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "new-machine.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "new-machine.sh: --runs $runs: give a count of 1 or more" >&2; exit 2; }
if [[ $(id -u) != 0 ]]; then
	echo "new-machine.sh: run it as root (sudo): it makes mount namespaces, and README command 1 records" >&2
	exit 2
fi
TOP=$(cd "$(dirname "$0")/.." && pwd)
[[ -z $(git -C "$TOP" status --porcelain --untracked-files=no) ]] ||
	echo "new-machine.sh: note: uncommitted changes in $TOP are not in the clone"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/flamekit-new-machine.XXXXXX")
[[ -n $keep ]] || trap 'rm -rf "$scratch"' EXIT
clone=$scratch/flamekit
git clone -q "$TOP" "$clone" || exit 1
# ../shared sits beside a checkout, in CI too
[[ -d $TOP/../shared ]] && ln -s "$(cd "$TOP/../shared" && pwd)" "$scratch/shared"
echo "new-machine.sh: clone of $(git -C "$clone" log -1 --format='%h %s' | cut -c1-72) in $clone"

# The quick start's first two ```sh blocks: command 1, command 2.
mapfile -t commands < <(awk '
	/^```sh$/ { inside = 1; text = ""; next }
	/^```$/ && inside { inside = 0; print text; if (++n == 2) exit; next }
	inside { text = text (text == "" ? "" : " ") $0 }' "$clone/README.md")
if (( ${#commands[@]} != 2 )); then
	echo "new-machine.sh: FAIL: could not find the README's two commands (two \`\`\`sh blocks)" >&2
	exit 1
fi

# Runs a command in the clone, in a new private mount namespace whose
# tracefs and debugfs are unmounted, with empty caches, as a new machine has
# them; its output to LOG.
as_new_machine() { # log command
	unshare -m --propagation private bash -c '
		for point in $(awk '\''$3 == "tracefs" || $3 == "debugfs" { print $2 }'\'' /proc/self/mounts | sort -r); do
			umount -l "$point" || exit 1
		done
		# flamekit'\''s caches as a new machine has them: none
		[[ -d /var/cache/flamekit ]] && { mount -t tmpfs tmpfs /var/cache/flamekit || exit 1; }
		cd "$1" && eval "$2"' sh "$clone" "$2" > "$1" 2>&1
}

failed=0
echo "new-machine.sh: command 1: ${commands[0]}"
start=$SECONDS
as_new_machine "$scratch/command1.log" "${commands[0]}"
rc=$?
title=$(grep -o '<title>seventy ([^<]*</title>' "$clone/flame.svg" 2> /dev/null | head -n 1)
share=$(sed -n 's/.*, \([0-9.]*\)%).*/\1/p' <<< "$title")
if [[ $rc == 0 ]] && awk -v s="${share:-0}" 'BEGIN { exit !(s >= 65 && s <= 75) }'; then
	echo "new-machine.sh: command 1 passed in $((SECONDS - start)) s: flame.svg has ${title#<title>}" | sed 's|</title>||'
else
	echo "new-machine.sh: command 1 FAILED (exit $rc, flame.svg: ${title:-no seventy() in it}); its last lines:"
	tail -n 5 "$scratch/command1.log" | sed 's/^/  /'
	failed=$((failed + 1))
fi

for ((run = 1; run <= runs; run++)); do
	echo "new-machine.sh: command 2, run $run of $runs: ${commands[1]}"
	start=$SECONDS
	as_new_machine "$scratch/command2-$run.log" "${commands[1]}"
	rc=$?
	summary=$(grep '^tests: ' "$scratch/command2-$run.log" | tail -n 1)
	if [[ $rc == 0 && $summary =~ ^tests:\ [0-9]+\ passed,\ 0\ failed ]]; then
		echo "new-machine.sh: command 2, run $run passed in $((SECONDS - start)) s: $summary"
	else
		echo "new-machine.sh: command 2, run $run FAILED (exit $rc): ${summary:-no summary line}"
		grep -E '^(FAIL|skip) ' "$scratch/command2-$run.log" | cut -c1-300 | sed 's/^/  /'
		failed=$((failed + 1))
	fi
	grep '^skip ' "$scratch/command2-$run.log" | cut -c1-300 | sed 's/^/  /'
done
[[ -n $keep ]] && echo "new-machine.sh: logs kept in $scratch"
if (( failed )); then
	echo "new-machine.sh: $failed of $((runs + 1)) runs failed"
	exit 1
fi
echo "new-machine.sh: all $((runs + 1)) runs passed"
