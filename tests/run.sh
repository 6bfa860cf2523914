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
# 4. fuzz regressions: every fuzz target's inputs in tests/fuzz/regressions/
#    TARGET/ and tests/fuzz/seeds/TARGET/ replayed under ASan and UBSan (the
#    replay binaries always have them); a target with no input fails;
# 5. record: the BPF profiler against a workload with a known profile
#    (tests/record.sh; needs root, skipped with the reason elsewhere), and
#    its unwinding without frame pointers against perf's (tests/record_unwind.sh),
#    and the Python frames it names (tests/record_python.sh).
#
# What cannot run here (no ../shared, no node, not root, a case exiting 77)
# is skipped with the reason; when the suite runs as root with CI set, as CI
# does, where all of it must run, each such skip is a failure instead
# (skip_or_fail_in_ci).
#
# Refuses to run, and fails, when /dev/null, /dev/zero or /dev/full is not
# the device it should be (see devices_problem).
#
# As root, the suite runs in a private mount namespace of its own (unshare
# -m), and each record test and golden case starts with tracefs and debugfs
# unmounted there, as on a freshly booted machine (fresh_kernel_mounts): a
# test that passes only because something mounted them before fails here as
# it would on a new machine. What flamekit mounts stays in the namespace,
# and the suite fails if the machine's own mounts of the kernel's
# filesystems differ after it from before (the guard around the namespace).
#
# Ends with "tests: N passed, N failed, N skipped"; exits 1 on any failure.
# TESTS_UPDATE=1 rewrites the golden files of the cases instead (review the
# diff before committing). TESTS_FILTER=REGEX runs the matching tests only;
# one that matches none is a failure.
set -u
shopt -s nullglob
# Signals ignored by whatever started the suite (nohup, a background job of
# a script, Python, which ignores SIGPIPE) stay ignored in every child, and
# a shell cannot set them back; the cases expect their defaults (a SIGINT
# that ends flamekit, a SIGPIPE that ends a writer silently): the suite runs
# again with them at their defaults.
if [[ -z ${TESTS_SIGNALS_DEFAULT:-} ]]; then
	export TESTS_SIGNALS_DEFAULT=1
	exec env --default-signal=HUP,INT,QUIT,PIPE,TERM bash "$0" "$@"
fi
BUILD=$(cd "${1:-build}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)

# The mounts of the kernel's own filesystems, "TYPE MOUNTPOINT" a line.
kernel_mounts() {
	awk '$3 ~ /^(tracefs|debugfs|securityfs|bpf|configfs|pstore)$/ { print $3, $2 }' /proc/self/mounts | sort
}

# As root, outside the namespace: runs the suite again inside one, passing
# its lines on, and judges the machine's mounts after it by those before.
if [[ $(id -u) == 0 && -z ${FLAMEKIT_TESTS_NAMESPACE:-} ]]; then
	if ! unshare -m --propagation private true 2> /dev/null; then
		echo "FAIL namespace: cannot make a private mount namespace (unshare -m --propagation private true failed): the record tests could change this machine's mounts"
		echo "tests: 0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	mounts_before=$(kernel_mounts)
	summary="" status=""
	while IFS= read -r line; do
		case $line in
		"tests: "*" passed, "*" failed, "*" skipped") summary=$line ;;
		"run.sh exit "*) status=${line#run.sh exit } ;;
		*) printf '%s\n' "$line" ;;
		esac
	done < <(FLAMEKIT_TESTS_NAMESPACE=1 unshare -m --propagation private "$BASH" "$0" "$@"; echo "run.sh exit $?")
	if [[ -z $summary ]]; then
		echo "FAIL suite: the suite in its mount namespace ended (status $status) without its summary line"
		echo "tests: 0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	mounts_after=$(kernel_mounts)
	if [[ $mounts_after != "$mounts_before" ]]; then
		echo "FAIL mounts: the suite changed the machine's mounts of the kernel's filesystems (restore them as root): mounted now: $(comm -13 <(echo "$mounts_before") <(echo "$mounts_after") | sed '/^$/d' | paste -sd, -); gone: $(comm -23 <(echo "$mounts_before") <(echo "$mounts_after") | sed '/^$/d' | paste -sd, -)"
		read -r _ passed _ failed _ skipped _ <<< "${summary//,/}"
		summary="tests: $passed passed, $((failed + 1)) failed, $skipped skipped"
		status=1
	fi
	echo "$summary"
	exit "$status"
fi

# Unmounts tracefs and debugfs in the suite's namespace (see above), as a
# freshly booted machine has them: before each record test and golden case.
fresh_kernel_mounts() {
	[[ -n ${FLAMEKIT_TESTS_NAMESPACE:-} ]] || return 0
	local point
	# deepest first: tracefs under debugfs/tracing before debugfs
	for point in $(awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/self/mounts | sort -r); do
		umount -l "$point" 2> /dev/null
	done
	return 0
}
fresh_kernel_mounts
SHARED=${FLAMEKIT_SHARED:-$TOP/../shared}
CONF=$SHARED/conformance
DATA=$TOP/tests/data
GOLDEN_CONF=$TOP/tests/golden/conformance
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/flamekit-tests.XXXXXX")
trap '[[ -n ${TESTS_KEEP:-} ]] || rm -rf "$SCRATCH"' EXIT
# traversable by all: as root, some tests run commands as nobody in it
chmod 755 "$SCRATCH"
EMPTY=$SCRATCH/empty # for "nothing on stderr"
: > "$EMPTY"
export LC_ALL=C
# flamekit's caches (kernel symbols, unwind tables) are the suite's, not the
# machine's /var/cache/flamekit (a suite may set its own)
export FLAMEKIT_CACHE_DIR=$SCRATCH/cache
# symbols come from this machine's files only, never a debuginfod server
unset DEBUGINFOD_URLS

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

# For a test that CI must run (browser, record): when the suite runs as root
# with CI set, as CI always does, not running it is a failure, for there
# it can only mean a broken set-up; elsewhere it is a skip with the reason.
skip_or_fail_in_ci() { # id reason
	if [[ -n ${CI:-} && $(id -u) == 0 ]]; then
		fail "$1" "not run under CI (as root, CI=$CI): $2"
	else
		skip "$1" "$2"
	fi
}

# Judges one run by all it did: stdout and stderr (files) and exit status
# against the expected ones. One pass, or one fail naming each difference.
judge() { # id out err status expected-out expected-err expected-status
	local problems=""
	[[ $4 == "$7" ]] || problems+="exit $4, expected $7; "
	cmp -s "$2" "$5" || problems+="stdout differs from $(basename "$5"): $(diff "$5" "$2" | head -n 3 | tr '\n' '|'); "
	cmp -s "$3" "$6" || problems+="stderr differs from $(basename "$6"): $(diff "$6" "$3" | head -n 3 | tr '\n' '|'); "
	if [[ -z $problems ]]; then pass "$1"; else fail "$1" "$problems"; fi
}

expected_bytes() { # file: its bytes, gunzipped if .gz
	case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac
}

# The device nodes that tests read and write. A test that replaces one (a
# file renamed over /dev/full, say) breaks the machine for everyone, and
# every result after it means nothing: the run refuses to start with one
# broken, and fails when one breaks, naming the golden case after which it
# was found broken.
devices="null:1:3 zero:1:5 full:1:7"
devices_problem() { # prints what is wrong with them; nothing when all is well
	local d name major minor
	for d in $devices; do
		IFS=: read -r name major minor <<< "$d"
		local node=/dev/$name
		[[ -c $node && $(stat -c %t:%T "$node") == "$(printf %x:%x "$major" "$minor")" ]] && continue
		local what; what=$(stat -c %F "$node" 2> /dev/null) && what="a $what" || what=missing
		printf '%s is %s, not the character device %s,%s (restore it as root: rm -f %s && mknod -m 666 %s c %s %s); ' \
			"$node" "$what" "$major" "$minor" "$node" "$node" "$major" "$minor"
	done
}

# --- 1. conformance -------------------------------------------------------

# The corpus of the Perl toolkit holds stdout only: stackcollapse-perf.pl
# exits 0 on every file, and says nothing on stderr but for the files with
# a tests/golden/conformance/flamegraph-pl-NAME.err (README there).
conformance_flamegraph_pl() {
	local dir=$CONF/flamegraph-pl/test
	local opts="pid tid kernel jit all addrs"
	if [[ ! -d $dir ]]; then
		wanted conformance/flamegraph-pl && skip_or_fail_in_ci conformance/flamegraph-pl "no $dir (../shared absent)"
		return
	fi
	for input in "$dir"/*.txt; do
		local name; name=$(basename "$input" .txt)
		local err=$GOLDEN_CONF/flamegraph-pl-$name.err
		[[ -f $err ]] || err=$EMPTY
		for opt in $opts; do
			local id="conformance/flamegraph-pl/$name/--$opt" expected=$dir/results/$name-collapsed-$opt.txt rc
			wanted "$id" || continue
			"$BUILD/flamekit" collapse perf --"$opt" < "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
			judge "$id [collapse perf]" "$SCRATCH/out" "$SCRATCH/err" $rc "$expected" "$err" 0
			"$BUILD/stackcollapse-perf" --"$opt" "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
			judge "$id [stackcollapse-perf]" "$SCRATCH/out" "$SCRATCH/err" $rc "$expected" "$err" 0
		done
	done
}

# Where `flamekit COMMAND` (not the personality) deliberately differs from
# the Perl tool on a conformance case, tests/golden/conformance/FOLDER-NAME.out,
# .err and .exit hold what it does instead, each on its own (the README there
# says why). flamekit_expected FOLDER-NAME OUT ERR STATUS: copies the
# expected stdout and stderr to $SCRATCH/expected.{out,err} and sets
# $expected_status, from those files where they exist, else from the given.
flamekit_expected() {
	local g=$GOLDEN_CONF/$1
	if [[ -f $g.out ]]; then cp "$g.out" "$SCRATCH/expected.out"; else cp "$2" "$SCRATCH/expected.out"; fi
	if [[ -f $g.err ]]; then cp "$g.err" "$SCRATCH/expected.err"; else cp "$3" "$SCRATCH/expected.err"; fi
	if [[ -f $g.exit ]]; then expected_status=$(< "$g.exit"); else expected_status=$4; fi
}

# Runs the rows of a manifest.tsv whose tool is $2 through the personality
# link $3 (stdout, stderr and exit status as the Perl tool's, byte for
# byte) and through `flamekit WORDS...` (the words after the 4th argument;
# the same, but for the cases of flamekit_expected). ORDER says how the
# flamekit side's stdout compares: "exact", or "sorted" where the Perl tool
# prints unsorted and `flamekit collapse` sorts.
conformance_manifest() { # folder tool link order flamekit-words...
	local folder=$1 tool=$2 link=$3 order=$4; shift 4
	local manifest=$CONF/$folder/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip_or_fail_in_ci "conformance/$folder" "no $manifest (../shared absent)"
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
		expected_bytes "$CONF/$folder/$out" > "$SCRATCH/perl.out"
		[[ $err == - ]] && err=$EMPTY || err=$CONF/$folder/$err
		local rc
		"$BUILD/$link" "${argv[@]}" < "$SCRATCH/in" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
		judge "$id [$link]" "$SCRATCH/out" "$SCRATCH/err" $rc "$SCRATCH/perl.out" "$err" "$code"
		if [[ $order == sorted ]]; then
			sort "$SCRATCH/perl.out" > "$SCRATCH/perl.sorted" && mv "$SCRATCH/perl.sorted" "$SCRATCH/perl.out"
		fi
		flamekit_expected "$folder-$name" "$SCRATCH/perl.out" "$err" "$code"
		"$BUILD/flamekit" "${words[@]}" "${argv[@]}" < "$SCRATCH/in" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
		judge "$id [flamekit ${words[*]}]" "$SCRATCH/out" "$SCRATCH/err" $rc \
			"$SCRATCH/expected.out" "$SCRATCH/expected.err" "$expected_status"
	done < <(tr '\t' '\037' < "$manifest")
	[[ $rows -gt 0 ]] || fail "conformance/$folder" "no $tool rows read from $manifest"
}

# tests/svg_compare.py [OPTIONS] EXPECTED ACTUAL: prints nothing when the
# SVGs match, else what differs (and how it failed, should the script itself
# break: a Python error must not read as "no difference").
svg_compare() {
	local said rc
	said=$(python3 "$TOP/tests/svg_compare.py" "$@" 2>&1); rc=$?
	if [[ $rc != 0 || -n $said ]]; then
		echo "svg_compare.py exited $rc: $(head -c 600 <<< "$said")"
	fi
}

# flamegraph.pl's reference SVGs: every case through the flamegraph
# personality (exit status, stderr byte for byte, the SVG compared by
# tests/svg_compare.py, and the rewritten palette.map for --cp) and through
# `flamekit flamegraph` (exit status, SVG, and stderr: empty, for it prints
# none of flamegraph.pl's warnings, or its own messages where
# tests/golden/conformance/flamegraph-svg-NAME.err holds them).
conformance_flamegraph_svg() {
	local folder=$CONF/flamegraph-svg manifest=$CONF/flamegraph-svg/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip_or_fail_in_ci conformance/flamegraph-svg "no $manifest (../shared absent)"
		return
	fi
	if ! command -v python3 > /dev/null; then
		skip_or_fail_in_ci conformance/flamegraph-svg "no python3 to compare SVGs (run ./setup.sh)"
		return
	fi
	# the comparison itself: two references that differ (fills, background)
	if wanted conformance/flamegraph-svg/svg_compare; then
		local said; said=$(svg_compare "$folder/expected/numa-default.out" "$folder/expected/numa-colors-red.out")
		if [[ $said == "svg_compare.py exited 1: "*" differs: "* ]]; then
			pass conformance/flamegraph-svg/svg_compare
		else
			fail conformance/flamegraph-svg/svg_compare "numa-default and numa-colors-red compared as: ${said:-the same}"
		fi
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
		local perl_code=$code perl_err=$err
		if [[ $name == notes-with-lt ]]; then
			# flamegraph.pl dies on a < in --notes (exit 255, no SVG), and
			# so does the personality; a comment can hold it, so `flamekit
			# flamegraph` draws the graph with the notes.
			reference=$folder/expected/numa-default.out compare_options=(--expect-notes "a<b")
			code=0 err=-
		fi
		# Every line of invalid.txt is unparsable: flamegraph.pl draws its
		# "no valid input" SVG; `flamekit flamegraph` refuses a file of
		# which most lines do not parse (exit 2, no SVG, one line).
		local refused=""
		[[ $name == invalid ]] && refused="flamekit: input: expected folded stacks (frame;frame;... COUNT), got 3 of 3 lines that do not parse"
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
			if [[ $how == personality && $perl_code == 255 ]]; then
				# the Perl tool died: its exit status and message, no SVG
				[[ $rc == 255 ]] || problems+="exit $rc, expected 255; "
				cmp -s "$work/err.txt" "$folder/$perl_err" || problems+="stderr differs: $(head -c 200 "$work/err.txt"); "
				[[ ! -s $work/out.svg ]] || problems+="an SVG on stdout; "
				if [[ -z $problems ]]; then pass "$id [$how]"; else fail "$id [$how]" "$problems"; fi
				continue
			fi
			[[ $rc == "$code" ]] || problems+="exit $rc, expected $code; "
			if [[ $how == personality ]]; then
				if [[ $err == - ]]; then
					[[ ! -s $work/err.txt ]] || problems+="stderr: $(head -c 200 "$work/err.txt"); "
				else
					cmp -s "$work/err.txt" "$folder/$err" || problems+="stderr differs: $(head -c 200 "$work/err.txt"); "
				fi
			elif [[ -n $refused ]]; then
				[[ ! -s $work/out.svg ]] || problems+="an SVG on stdout; "
				[[ $(wc -l < "$work/err.txt") == 1 && $(cat "$work/err.txt") == "$refused"* ]] ||
					problems+="expected one line \"$refused...\" on stderr, got: $(head -c 300 "$work/err.txt"); "
				if [[ -z $problems ]]; then pass "$id [$how]"; else fail "$id [$how]" "$problems"; fi
				continue
			else
				# flamekit's own messages, not flamegraph.pl's warnings
				local want=$GOLDEN_CONF/flamegraph-svg-$name.err
				[[ -f $want ]] || want=$EMPTY
				cmp -s "$work/err.txt" "$want" ||
					problems+="stderr differs from $(basename "$want"): $(diff "$want" "$work/err.txt" | head -n 3 | tr '\n' '|'); "
			fi
			problems+=$(svg_compare "${compare_options[@]}" "$reference" "$work/out.svg")
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
# flamekit sorted, so the lines are compared sorted, byte for byte; stderr
# and exit status as the manifest says (flamekit diff: flamekit_expected).
conformance_difffolded() {
	local manifest=$CONF/difffolded/manifest.tsv
	if [[ ! -f $manifest ]]; then
		skip_or_fail_in_ci conformance/difffolded "no $manifest (../shared absent)"
		return
	fi
	local name tool input args out err code rows=0
	while IFS=$'\x1f' read -r name tool input args out err code; do
		[[ $name == name ]] && continue
		rows=$((rows + 1))
		local id="conformance/difffolded/$name"
		wanted "$id" || continue
		local files=($input) argv=($args) rc
		sort "$CONF/difffolded/$out" > "$SCRATCH/perl.out"
		[[ $err == - ]] && err=$EMPTY || err=$CONF/difffolded/$err
		for how in difffolded "flamekit diff"; do
			if [[ $how == difffolded ]]; then
				cp "$SCRATCH/perl.out" "$SCRATCH/expected.out"; cp "$err" "$SCRATCH/expected.err"
				expected_status=$code
			else
				flamekit_expected "difffolded-$name" "$SCRATCH/perl.out" "$err" "$code"
			fi
			# shellcheck disable=SC2086 # "flamekit diff" is two words
			"$BUILD"/$how "${argv[@]}" "$CONF/${files[0]}" "$CONF/${files[1]}" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
			sort "$SCRATCH/out" > "$SCRATCH/out.sorted"
			judge "$id [$how]" "$SCRATCH/out.sorted" "$SCRATCH/err" $rc \
				"$SCRATCH/expected.out" "$SCRATCH/expected.err" "$expected_status"
		done
	done < <(tr '\t' '\037' < "$manifest")
	[[ $rows -gt 0 ]] || fail conformance/difffolded "no rows read from $manifest"
}

# The README's example input read compressed must give what
# stackcollapse-perf.pl gives for the uncompressed file (tests/golden/):
# that stdout, nothing on stderr, exit 0.
conformance_example_gz() {
	local id=conformance/flamegraph-pl/example-perf-stacks.txt.gz
	wanted "$id" || return
	local input=$CONF/flamegraph-pl/example-perf-stacks.txt.gz
	if [[ ! -f $input ]]; then skip_or_fail_in_ci "$id" "no $input (../shared absent)"; return; fi
	local expected=$TOP/tests/golden/example-perf-stacks.folded rc
	"$BUILD/flamekit" collapse perf "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
	judge "$id [file]" "$SCRATCH/out" "$SCRATCH/err" $rc "$expected" "$EMPTY" 0
	"$BUILD/stackcollapse-perf" < "$input" > "$SCRATCH/out" 2> "$SCRATCH/err"; rc=$?
	judge "$id [stdin, personality]" "$SCRATCH/out" "$SCRATCH/err" $rc "$expected" "$EMPTY" 0
}

# --- 2. golden cases ------------------------------------------------------

golden_cases() {
	for case in "$TOP"/tests/cases/*.sh; do
		local name; name=$(basename "$case" .sh)
		local id="case/$name"
		wanted "$id" || continue
		local work="$SCRATCH/case-$name" res="$SCRATCH/result-$name"
		mkdir -p "$work" "$res" && chmod 755 "$work"
		local rc
		fresh_kernel_mounts
		(cd "$work" && PATH="$BUILD:$PATH" DATA="$DATA" SHARED="$SHARED" BUILD="$BUILD" \
			bash "$case" > "$res/raw.out" 2> "$res/raw.err" < /dev/null); rc=$?
		if [[ $rc == 77 ]]; then # the case's way to say "cannot run here"
			skip_or_fail_in_ci "$id" "$(tail -n 1 "$res/raw.err")"
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
		if [[ -z $devices_broken ]]; then
			devices_broken=$(devices_problem)
			[[ -z $devices_broken ]] || bad+="broke a device node: $devices_broken"
		fi
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
# Chromium ...") is counted as it comes, and is a failure under CI
# (skip_or_fail_in_ci).
browser_tests() {
	if ! command -v node > /dev/null; then
		local name # the tests' names as run.mjs's test("NAME", ...) calls give them
		for name in all $(sed -n 's/^[[:space:]]*test("\([^"]*\)".*/\1/p' "$TOP/tests/browser/run.mjs" "$TOP/tests/browser/view.mjs"); do
			if wanted "browser/$name"; then
				skip_or_fail_in_ci browser/all "no node to drive Chromium (run ./setup.sh)"
				break
			fi
		done
		return
	fi
	local line id status="" last=""
	while IFS= read -r line; do
		case $line in
		"ok "*) id=browser/${line#ok }; wanted "$id" && pass "$id" ;;
		"FAIL "*) line=${line#FAIL }; id=browser/${line%%: *}; wanted "$id" && fail "$id" "${line#*: }" ;;
		"skip "*) line=${line#skip }; skip_or_fail_in_ci "browser/${line%%: *}" "${line#*: }" ;;
		"# "*) echo "${line#\# }" ;;
		"run.mjs exit "*) status=${line#run.mjs exit } ;;
		*) last=$line; [[ -n "${TESTS_VERBOSE:-}" ]] && echo "$line" ;;
		esac
	done < <(node "$TOP/tests/browser/run.mjs" "$BUILD" "$SCRATCH/browser" 2>&1; echo "run.mjs exit $?")
	[[ $status == 0 ]] || fail browser/run.mjs "exited with status $status: $last"
}

# --- 4. fuzz regressions ----------------------------------------------------

# Every fuzz target (tests/fuzz/NAME.c but replay.c) replays its inputs,
# tests/fuzz/regressions/NAME/ (what once crashed it) and tests/fuzz/seeds/NAME/
# (a few valid inputs, so that each target runs its whole path), through
# BUILD/replay-asan/NAME: built with ASan and UBSan whatever SANITIZE says
# (see the Makefile). A target without a single input fails.
fuzz_regressions() {
	local source target input kind id
	for source in "$TOP"/tests/fuzz/*.c; do
		target=$(basename "$source" .c)
		[[ $target == replay ]] && continue
		local inputs=("$TOP/tests/fuzz/regressions/$target"/* "$TOP/tests/fuzz/seeds/$target"/*)
		if [[ ${#inputs[@]} == 0 ]]; then
			wanted "fuzz/$target" &&
				fail "fuzz/$target" "no input in tests/fuzz/regressions/$target/ or tests/fuzz/seeds/$target/"
			continue
		fi
		for input in "${inputs[@]}"; do
			kind=fuzz-regression
			[[ $input == "$TOP/tests/fuzz/seeds/"* ]] && kind=fuzz-seed
			id="$kind/$target/$(basename "$input")"
			wanted "$id" || continue
			if [[ ! -x $BUILD/replay-asan/$target ]]; then
				fail "$id" "no $BUILD/replay-asan/$target (make check builds it)"
			elif "$BUILD/replay-asan/$target" "$input" > /dev/null 2> "$SCRATCH/err"; then
				pass "$id"
			else
				fail "$id" "$(grep -m1 -E 'ERROR|runtime error|fuzz:' "$SCRATCH/err" || tail -n 1 "$SCRATCH/err")"
			fi
		done
	done
}

devices_broken=$(devices_problem)
if [[ -n $devices_broken ]]; then
	fail devices "not running the tests, their results would mean nothing: $devices_broken"
	echo "tests: $passed passed, $failed failed, $skipped skipped"
	exit 1
fi

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
# a test file that does not parse would leave its tests unrun: a failure
for part in record record_unwind record_python record_fleet; do
	if source "$TOP/tests/$part.sh" && declare -F "${part}_tests" > /dev/null; then
		"${part}_tests"
	else
		fail "$part" "tests/$part.sh does not load (bash -n tests/$part.sh); its tests did not run"
	fi
done

problem=$(devices_problem)
[[ -z $problem ]] || fail devices "after the tests: $problem"
# a filter that matches no test (a typo, a renamed test) must not look green
if (( passed + failed + skipped == 0 )); then
	fail tests "no test ran${TESTS_FILTER:+: TESTS_FILTER=$TESTS_FILTER matches none}"
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 ]]
