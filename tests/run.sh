#!/usr/bin/env bash
# flamekit's test suite: `make check` runs it as tests/run.sh BUILD_DIR.
#
# 1. conformance: every case of ../shared/conformance that this build covers,
#    byte for byte against the Perl tools' outputs (skipped when ../shared is
#    absent, e.g. in a user's fresh clone);
# 2. golden cases: tests/cases/NAME.sh is a command run by bash in a scratch
#    directory, with build/ first on PATH and $DATA = tests/data; its stdout,
#    stderr and exit status must equal tests/golden/NAME.{out,err,exit};
# 3. browser: the SVG's script in headless Chromium (tests/browser/run.mjs;
#    skipped, with the reason, without node, playwright-core or chromium);
# 4. fuzz regressions: every input in tests/fuzz/regressions/TARGET/ replayed;
# 5. record: the BPF profiler against a workload with a known profile
#    (tests/record.sh; needs root, skipped with the reason elsewhere), and
#    its unwinding without frame pointers against perf's (tests/record_unwind.sh).
#
# Ends with "tests: N passed, N failed, N skipped"; exits 1 on any failure.
# TESTS_UPDATE=1 rewrites the golden files of the cases instead (review the
# diff before committing). TESTS_FILTER=REGEX runs the matching tests only.
set -u
shopt -s nullglob
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLAMEKIT_SHARED:-$TOP/../shared}
CONF=$SHARED/conformance
DATA=$TOP/tests/data
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/flamekit-tests.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
export LC_ALL=C

passed=0 failed=0 skipped=0
declare -A skip_reasons=()

wanted() { [[ -z "${TESTS_FILTER:-}" || "$1" =~ $TESTS_FILTER ]]; }
pass() { passed=$((passed + 1)); [[ -n "${TESTS_VERBOSE:-}" ]] && echo "ok   $1"; return 0; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }
skip() {
	skipped=$((skipped + 1))
	# one line per reason, not one per case
	if [[ -z "${skip_reasons[$2]:-}" ]]; then
		skip_reasons[$2]=1
		echo "skip $1 (and others like it): $2"
	fi
}

# Compares a produced file with an expected one; prints the first difference.
same() { # name produced expected
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "output differs from $(basename "$3"): $(diff "$3" "$2" | head -n 3 | tr '\n' '|')"
	fi
}

expected_bytes() { # file: its bytes, gunzipped if .gz
	case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac
}

# --- 1. conformance -------------------------------------------------------

conformance_flamegraph_pl() {
	local dir=$CONF/flamegraph-pl/test
	local opts="pid tid kernel jit all addrs"
	if [[ ! -d $dir ]]; then
		wanted conformance/flamegraph-pl && skip conformance/flamegraph-pl "no $dir (../shared absent)"
		return
	fi
	for input in "$dir"/*.txt; do
		local name; name=$(basename "$input" .txt)
		for opt in $opts; do
			local id="conformance/flamegraph-pl/$name/--$opt"
			wanted "$id" || continue
			"$BUILD/flamekit" collapse perf --"$opt" < "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"
			same "$id [collapse perf]" "$SCRATCH/out" "$dir/results/$name-collapsed-$opt.txt"
			"$BUILD/stackcollapse-perf" --"$opt" "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"
			same "$id [stackcollapse-perf]" "$SCRATCH/out" "$dir/results/$name-collapsed-$opt.txt"
		done
	done
}

# Runs the rows of a manifest.tsv whose tool is $2 through the personality
# link $3 (byte for byte) and through `flamekit WORDS...` (the words after
# the 4th argument). ORDER says how the flamekit side compares: "exact", or
# "sorted" where the Perl tool prints unsorted and `flamekit collapse` sorts.
# Where flamekit deliberately does better than the Perl tool on a case,
# tests/golden/conformance/FOLDER-NAME.out holds what it prints instead, and
# the case's comment in tests/golden/conformance/README says why.
conformance_manifest() { # folder tool link order flamekit-words...
	local folder=$1 tool=$2 link=$3 order=$4; shift 4
	local manifest=$CONF/$folder/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip "conformance/$folder" "no $manifest (../shared absent)"
		return
	fi
	local words=("$@") rows=0
	local name t input args out err code
	while IFS=$'\x1f' read -r name t input args out err code; do
		[[ $name == name || $t != "$tool" ]] && continue
		rows=$((rows + 1))
		local id="conformance/$folder/$name"
		wanted "$id" || continue
		eval "set -- $args" # the manifest quotes args for sh
		local argv=("$@")
		expected_bytes "$CONF/$input" > "$SCRATCH/in"
		expected_bytes "$CONF/$folder/$out" > "$SCRATCH/expected"
		local rc
		"$BUILD/$link" "${argv[@]}" < "$SCRATCH/in" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
		if [[ $rc != "$code" ]]; then fail "$id [$link]" "exit $rc, expected $code"; else same "$id [$link]" "$SCRATCH/out" "$SCRATCH/expected"; fi
		local override=$TOP/tests/golden/conformance/$folder-$name.out
		if [[ -f $override ]]; then
			cp "$override" "$SCRATCH/expected"
			code=$(cat "${override%.out}.exit" 2>/dev/null || echo 0)
		elif [[ $order == sorted ]]; then
			sort "$SCRATCH/expected" > "$SCRATCH/expected.sorted" && mv "$SCRATCH/expected.sorted" "$SCRATCH/expected"
		fi
		"$BUILD/flamekit" "${words[@]}" "${argv[@]}" < "$SCRATCH/in" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
		if [[ $rc != "$code" ]]; then fail "$id [flamekit ${words[*]}]" "exit $rc, expected $code"; else same "$id [flamekit ${words[*]}]" "$SCRATCH/out" "$SCRATCH/expected"; fi
	done < <(tr '\t' '\037' < "$manifest")
	[[ $rows -gt 0 ]] || fail "conformance/$folder" "no $tool rows read from $manifest"
}

# flamegraph.pl's reference SVGs: every case through the flamegraph
# personality (exit status, stderr byte for byte, the SVG compared by
# tests/svg_compare.py, and the rewritten palette.map for --cp) and through
# `flamekit flamegraph` (exit status and SVG).
conformance_flamegraph_svg() {
	local folder=$CONF/flamegraph-svg manifest=$CONF/flamegraph-svg/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip conformance/flamegraph-svg "no $manifest (../shared absent)"
		return
	fi
	if ! command -v python3 > /dev/null; then
		skip conformance/flamegraph-svg "no python3 to compare SVGs (run ./setup.sh)"
		return
	fi
	local name tool input args out err code rows=0
	while IFS=$'\x1f' read -r name tool input args out err code; do
		[[ $name == name ]] && continue
		rows=$((rows + 1))
		local id="conformance/flamegraph-svg/$name"
		wanted "$id" || continue
		eval "set -- $args"
		local argv=("$@") work="$SCRATCH/fg-$name" compare_options=() reference=$folder/$out
		mkdir -p "$work"
		expected_bytes "$CONF/$input" > "$work/input"
		if [[ $name == notes-with-lt ]]; then
			# flamegraph.pl dies on a < in --notes (exit 255, no SVG); a
			# comment can hold it, so flamekit draws the graph with the notes.
			reference=$folder/expected/numa-default.out compare_options=(--expect-notes "a<b")
			code=0 err=-
		fi
		for how in personality flamekit; do
			rm -f "$work/palette.map"
			cp "$folder/inputs/palette.map" "$work/palette.map"
			local rc
			if [[ $how == personality ]]; then
				(cd "$work" && "$BUILD/flamegraph" "${argv[@]}" input > out.svg 2> err.txt); rc=$?
			else
				(cd "$work" && "$BUILD/flamekit" flamegraph "${argv[@]}" input > out.svg 2> err.txt); rc=$?
			fi
			local problems=""
			[[ $rc == "$code" ]] || problems+="exit $rc, expected $code; "
			if [[ $how == personality ]]; then
				if [[ $err == - ]]; then
					[[ ! -s $work/err.txt ]] || problems+="stderr: $(head -c 200 "$work/err.txt"); "
				else
					cmp -s "$work/err.txt" "$folder/$err" || problems+="stderr differs: $(head -c 200 "$work/err.txt"); "
				fi
			elif [[ $code != 0 ]] && ! tail -n 1 "$work/err.txt" | grep -q '^flamekit: no stack counts'; then
				problems+="expected stderr to end with \"flamekit: no stack counts ...\", got: $(tail -c 200 "$work/err.txt"); "
			fi
			problems+=$(python3 "$TOP/tests/svg_compare.py" "${compare_options[@]}" "$reference" "$work/out.svg" | head -c 600)
			if [[ -f $folder/expected/$name.palette.map ]]; then
				cmp -s "$work/palette.map" "$folder/expected/$name.palette.map" ||
					problems+="palette.map differs from expected/$name.palette.map"
			fi
			if [[ -z $problems ]]; then pass "$id [$how]"; else fail "$id [$how]" "$problems"; fi
		done
	done < <(tr '\t' '\037' < "$manifest")
	[[ $rows -gt 0 ]] || fail conformance/flamegraph-svg "no rows read from $manifest"
}

# difffolded.pl's outputs: through the difffolded personality and `flamekit
# diff`. The input column holds BEFORE and AFTER; Perl prints in hash order,
# flamekit sorted, so the lines are compared sorted, byte for byte.
conformance_difffolded() {
	local manifest=$CONF/difffolded/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip conformance/difffolded "no $manifest (../shared absent)"
		return
	fi
	local name tool input args out err code rows=0
	while IFS=$'\x1f' read -r name tool input args out err code; do
		[[ $name == name ]] && continue
		rows=$((rows + 1))
		local id="conformance/difffolded/$name"
		wanted "$id" || continue
		local files=($input) argv=($args) rc
		sort "$CONF/difffolded/$out" > "$SCRATCH/expected"
		for how in difffolded "flamekit diff"; do
			# shellcheck disable=SC2086 # "flamekit diff" is two words
			"$BUILD"/$how "${argv[@]}" "$CONF/${files[0]}" "$CONF/${files[1]}" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
			sort "$SCRATCH/out" > "$SCRATCH/out.sorted"
			if [[ $rc != "$code" ]]; then fail "$id [$how]" "exit $rc, expected $code"
			else same "$id [$how]" "$SCRATCH/out.sorted" "$SCRATCH/expected"; fi
		done
	done < <(tr '\t' '\037' < "$manifest")
	[[ $rows -gt 0 ]] || fail conformance/difffolded "no rows read from $manifest"
}

# The README's example input read compressed must give what
# stackcollapse-perf.pl gives for the uncompressed file (tests/golden/).
conformance_example_gz() {
	local id=conformance/flamegraph-pl/example-perf-stacks.txt.gz
	wanted "$id" || return
	local input=$CONF/flamegraph-pl/example-perf-stacks.txt.gz
	if [[ ! -f $input ]]; then skip "$id" "no $input (../shared absent)"; return; fi
	"$BUILD/flamekit" collapse perf "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"
	same "$id [file]" "$SCRATCH/out" "$TOP/tests/golden/example-perf-stacks.folded"
	"$BUILD/stackcollapse-perf" < "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"
	same "$id [stdin, personality]" "$SCRATCH/out" "$TOP/tests/golden/example-perf-stacks.folded"
}

# --- 2. golden cases ------------------------------------------------------

golden_cases() {
	for case in "$TOP"/tests/cases/*.sh; do
		local name; name=$(basename "$case" .sh)
		local id="case/$name"
		wanted "$id" || continue
		local work="$SCRATCH/case-$name" res="$SCRATCH/result-$name"
		mkdir -p "$work" "$res"
		local rc
		(cd "$work" && PATH="$BUILD:$PATH" DATA="$DATA" SHARED="$SHARED" BUILD="$BUILD" \
			bash "$case" > "$res/raw.out" 2> "$res/raw.err" < /dev/null); rc=$?
		if [[ $rc == 77 ]]; then # the case's way to say "cannot run here"
			skip "$id" "$(tail -n 1 "$res/raw.err")"
			continue
		fi
		echo "$rc" > "$res/exit"
		# mask what depends on where the checkout and scratch directory are
		for part in out err; do
			sed -e "s|$DATA|\$DATA|g" -e "s|$work|\$WORK|g" "$res/raw.$part" > "$res/$part"
		done
		local g="$TOP/tests/golden/$name"
		if [[ -n "${TESTS_UPDATE:-}" ]]; then
			cp "$res/out" "$g.out"; cp "$res/err" "$g.err"; cp "$res/exit" "$g.exit"
		fi
		local bad=""
		for part in out err exit; do
			if [[ ! -f $g.$part ]]; then bad+="no golden $g.$part; "; continue; fi
			cmp -s "$res/$part" "$g.$part" ||
				bad+="$part differs: $(diff "$g.$part" "$res/$part" | head -n 4 | tr '\n' '|'); "
		done
		if [[ -z $bad ]]; then pass "$id"; else fail "$id" "$bad"; fi
	done
}

# --- 3. browser: the SVG's script in headless Chromium -----------------------

# tests/browser/run.mjs (playwright-core driving Debian's chromium; ./setup.sh
# installs both) prints "ok NAME", "FAIL NAME: why" or "skip NAME: why" per
# test, with ids browser/NAME, and "# ..." notes, shown as they are (the large
# graph's times). It applies TESTS_FILTER itself, so that a filter without
# browser tests starts no browser; the ids of results are checked here again
# (for a filter JavaScript reads differently), while a skip ("skip all: no
# Chromium ...") is counted as it comes.
browser_tests() {
	if ! command -v node > /dev/null; then
		wanted browser/all && skip browser/all "no node to drive Chromium (run ./setup.sh)"
		return
	fi
	local line id status="" last=""
	while IFS= read -r line; do
		case $line in
		"ok "*) id=browser/${line#ok }; wanted "$id" && pass "$id" ;;
		"FAIL "*) line=${line#FAIL }; id=browser/${line%%: *}; wanted "$id" && fail "$id" "${line#*: }" ;;
		"skip "*) line=${line#skip }; skip "browser/${line%%: *}" "${line#*: }" ;;
		"# "*) echo "${line#\# }" ;;
		"run.mjs exit "*) status=${line#run.mjs exit } ;;
		*) last=$line; [[ -n "${TESTS_VERBOSE:-}" ]] && echo "$line" ;;
		esac
	done < <(node "$TOP/tests/browser/run.mjs" "$BUILD" "$SCRATCH/browser" 2>&1; echo "run.mjs exit $?")
	[[ $status == 0 ]] || fail browser/run.mjs "exited with status $status: $last"
}

# --- 4. fuzz regressions ----------------------------------------------------

fuzz_regressions() {
	for dir in "$TOP"/tests/fuzz/regressions/*/; do
		local target; target=$(basename "$dir")
		for input in "$dir"*; do
			[[ -f $input ]] || continue
			local id="fuzz-regression/$target/$(basename "$input")"
			wanted "$id" || continue
			if "$BUILD/replay/$target" "$input" > /dev/null 2> "$SCRATCH/err"; then
				pass "$id"
			else
				fail "$id" "$(grep -m1 -E 'ERROR|runtime error' "$SCRATCH/err")"
			fi
		done
	done
}

conformance_flamegraph_pl
conformance_manifest perf-folded stackcollapse-perf.pl stackcollapse-perf exact collapse perf
conformance_manifest stap stackcollapse-stap.pl stackcollapse-stap exact collapse stap
conformance_manifest dtrace stackcollapse.pl stackcollapse exact collapse dtrace
conformance_manifest bpftrace stackcollapse-bpftrace.pl stackcollapse-bpftrace sorted collapse bpftrace
conformance_example_gz
conformance_flamegraph_svg
conformance_difffolded
golden_cases
browser_tests
fuzz_regressions
source "$TOP/tests/record.sh"
record_tests
source "$TOP/tests/record_unwind.sh"
record_unwind_tests

echo "tests: $passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
