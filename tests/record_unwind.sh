# The tests of `flamekit record`'s unwinding without frame pointers and of
# its mapping history: sourced by tests/run.sh (uses its pass/fail/skip/
# wanted, $BUILD, $TOP, $SCRATCH). Root only, like tests/record.sh; they
# also need perf (linux-perf), whose `perf record --call-graph dwarf` is
# the reference: each workload is recorded by both, with default options,
# and at least 90% of flamekit's samples must have a user stack that perf
# also saw, root to leaf, and flamekit must not see the workload's whole
# chain less often than perf does.
#
# Workloads (tests/workload/): fk-nofp (cc -O2 -fomit-frame-pointer, a
# known chain, and a recursion 250 deep), fk-dlopen (loads libfk-late.so,
# built without -g, a second after it starts), a loop of processes that
# live 50 ms, and Debian's own perl and python3.

unwind_dir=$SCRATCH/record-unwind
unwind_options=()   # flamekit record's options beside the defaults

# User stacks of a folded file, one "count chain" per line: kernel frames
# (marked _[k]) dropped, "[anything]" frames as "[?]" (perf names an
# unknown frame by its binary), symbol versions ("@@GLIBC_2.34") dropped.
unwind_user_stacks() { # comm folded
	awk -v c="$1" '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); if (f[1] != c) next
		s = f[1]; for (i = 2; i <= k; i++) if (f[i] !~ /_\[k\]$/) s = s ";" f[i]; print n, s }' "$2" |
		sed -e 's/@[^; ]*//g' -e 's/;\[[^;]*\]/;[?]/g'
}

# perf's stacks of a perf.data as folded, kernel frames marked (weighed
# by the samples' periods, as stackcollapse-perf.pl weighs them: at a fixed
# frequency, in proportion to the samples).
unwind_perf_folded() { # perf.data out
	perf script --no-inline -i "$1" 2> /dev/null | "$BUILD/flamekit" collapse perf --all \
		> "$2" 2> /dev/null
}

# Share (percent) of flamekit's COMM samples whose user stack perf also has.
unwind_share_in_perf() { # comm flamekit.folded perf.folded
	unwind_user_stacks "$1" "$3" | cut -d' ' -f2- | sort -u > "$unwind_dir/perf.stacks"
	unwind_user_stacks "$1" "$2" | awk 'NR == FNR { ok[$0] = 1; next }
		{ n = $1; $1 = ""; sub(/^ /, ""); t += n; if ($0 in ok) g += n }
		END { if (t) printf "%.1f\n", 100 * g / t; else print "none" }' "$unwind_dir/perf.stacks" -
}

# Share (percent) of COMM's samples whose user stack matches REGEX, among
# those that match WITHIN (default: all).
unwind_share_matching() { # comm regex folded [within]
	unwind_user_stacks "$1" "$3" | awk -v re="$2" -v within="${4:-.}" '{ n = $1; $1 = ""
		sub(/^ /, ""); if ($0 !~ within) next; t += n; if ($0 ~ re) g += n }
		END { if (t) printf "%.1f\n", 100 * g / t; else print "none" }'
}

# Records COMMAND with flamekit (default options, -a to mark kernel frames)
# into NAME.folded and with perf into NAME.perf.folded.
unwind_record_both() { # id name command...
	local id=$1 name=$2; shift 2
	if ! "$BUILD/flamekit" record -F 997 -a -f "${unwind_options[@]}" -- "$@" > "$unwind_dir/$name.folded" \
		2> "$unwind_dir/$name.err"; then
		fail "$id" "flamekit record exited $?: $(tail -n 2 "$unwind_dir/$name.err" | tr '\n' ' ')"
		return 1
	fi
	# perf again when its run was a bad one (on a loaded machine it can lose
	# most of its data): the reference must be perf at its best
	local try whole
	for try in 1 2; do
		if ! perf record -F 997 --call-graph dwarf -o "$unwind_dir/$name.data" -- "$@" \
			> /dev/null 2> "$unwind_dir/$name.perf.err"; then
			fail "$id" "perf record exited $?: $(tail -n 2 "$unwind_dir/$name.perf.err" | tr '\n' ' ')"
			return 1
		fi
		unwind_perf_folded "$unwind_dir/$name.data" "$unwind_dir/$name.perf.folded"
		whole=$(awk '{ n = $NF; t += n; if ($0 ~ /^[^;]*;_start;/) g += n }
			END { print (t && g * 2 >= t) ? "yes" : "no" }' "$unwind_dir/$name.perf.folded")
		[[ $whole == yes ]] && break
	done
	return 0
}

# Passes when >= 90% of flamekit's samples are stacks perf saw too and
# flamekit has the whole CHAIN (a regex) at least as often as perf (less 3),
# among the samples that match WITHIN (e.g. the chain's leaf; default all:
# the two runs split their time between phases a little differently).
unwind_check() { # id comm name chain [within]
	local in_perf ours theirs
	in_perf=$(unwind_share_in_perf "$2" "$unwind_dir/$3.folded" "$unwind_dir/$3.perf.folded")
	ours=$(unwind_share_matching "$2" "$4" "$unwind_dir/$3.folded" "${5:-}")
	theirs=$(unwind_share_matching "$2" "$4" "$unwind_dir/$3.perf.folded" "${5:-}")
	if [[ $in_perf == none || $ours == none ]]; then
		fail "$1" "no $2 samples ($(tail -n 1 "$unwind_dir/$3.err"))"
	elif awk -v a="$in_perf" -v o="$ours" -v t="${theirs/none/0}" 'BEGIN { exit !(a >= 90 && o >= t - 3) }'; then
		pass "$1"
	else
		fail "$1" "$in_perf% of flamekit's stacks are perf's; the whole chain in $ours% (perf: $theirs%): $(unwind_user_stacks "$2" "$unwind_dir/$3.folded" | sort -nr | head -n 2 | cut -c1-200 | tr '\n' '|')"
	fi
}

# The in-kernel walk's tables (symbolize/unwind_table.c) against readelf's
# reading of the same .eh_frame: at the address of every row readelf
# prints (fk-nofp's and libc's), the table's row in force must give the
# same rule (GNU ld's .plt rule too), or FALLBACK where the rule is not
# one the walk follows. Built through a cache directory (written to its
# file a block of rows at a time, then read back), and found there by a
# second run, the table must be the same, byte for byte.
unwind_table_test() {
	local d=$unwind_dir/table libc
	mkdir -p "$d"
	libc=$(ldd "$unwind_dir/fk-nofp" | awk '/libc\.so/ { print $3 }')
	if ! command -v readelf > /dev/null; then
		skip record/unwind-table "needs readelf (binutils)"
		return
	fi
	if ! cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$d/dump" "$TOP/tests/unwind_table_dump.c" \
		"$BUILD/obj/symbolize/unwind_table.o" "$BUILD/obj/lib/buf.o" "$BUILD/obj/lib/xalloc.o" "$BUILD/obj/lib/cache_dir.o" "$BUILD/obj/lib/pages.o" -ldw -lelf 2> "$d/cc.err"; then
		fail record/unwind-table "tests/unwind_table_dump.c does not build: $(head -n 3 "$d/cc.err" | tr '\n' ' ')"
		return
	fi
	local binary result all=
	for binary in "$unwind_dir/fk-nofp" "$libc"; do
		readelf --debug-dump=frames "$binary" > "$d/frames"
		readelf --debug-dump=frames-interp "$binary" |
			awk -f "$TOP/tests/unwind_table_readelf.awk" "$d/frames" - > "$d/want"
		if ! "$d/dump" "$binary" > "$d/got" 2> "$d/dump.err" ||
			! "$d/dump" "$binary" "$d/cache" > "$d/built" 2>> "$d/dump.err" ||
			! "$d/dump" "$binary" "$d/cache" > "$d/found" 2>> "$d/dump.err"; then
			fail record/unwind-table "$binary: $(cat "$d/dump.err")"
			return
		fi
		if ! cmp -s "$d/got" "$d/built" || ! cmp -s "$d/got" "$d/found"; then
			fail record/unwind-table "$binary: the table built into the cache's file, or found there, is not the one built in memory"
			return
		fi
		result=$(awk 'function hex(s,   n, i) { n = 0; s = tolower(s)
				for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return n }
			NR == FNR { pc[n + 0] = hex($1); row[n + 0] = $2 " " $3 " " $4; n++; next }
			{ a = hex($1); lo = 0; hi = n
			  while (lo < hi) { mid = int((lo + hi) / 2); if (pc[mid] <= a) lo = mid + 1; else hi = mid }
			  got = lo ? row[lo - 1] : "none"; want = $2 " " $3 " " $4; checked++
			  if (got != want && !bad++) first = "at " $1 ": readelf " want ", ours " got }
			END { if (checked < 10 || bad) print checked + 0 " rows, " bad + 0 " differ; " first }' "$d/got" "$d/want")
		[[ -n $result ]] && all+="$(basename "$binary"): $result "
	done
	if [[ -z $all ]]; then pass record/unwind-table; else fail record/unwind-table "$all"; fi
}

# Why fk-varied's stacks in a folded file are not whole (at least 90% of
# leaf_spin's samples from _start down): nothing when they are.
varied_not_whole() { # folded
	local chain whole
	chain=$(printf '(go_left|go_right);path;%.0s' {1..14})
	whole=$(unwind_share_matching fk-varied \
		"^fk-varied;_start;__libc_start_main;__libc_start_call_main;main;path;${chain}leaf_spin\$" \
		"$1" ';leaf_spin$')
	awk -v s="$whole" 'BEGIN { exit !(s >= 90) }' ||
		echo "leaf_spin's stacks whole in $whole%: $(unwind_user_stacks fk-varied "$1" | sort -nr | head -n 2 | cut -c1-200 | tr '\n' '|')"
}

# Records fk-varied for 2 s with record -v and options into
# $unwind_dir/NAME.folded and NAME.err; fails id (false) if record does.
varied_record() { # id name options...
	local id=$1 name=$2
	shift 2
	"$BUILD/flamekit" record -v -F 997 -f "$@" -o "$unwind_dir/$name.folded" \
		-- "$unwind_dir/fk-varied" 2 2> "$unwind_dir/$name.err" && return
	fail "$id" "$(grep -v '^libbpf' "$unwind_dir/$name.err" | tail -n 1)"
	return 1
}

unwind_copied_test() {
	local id=record/unwind-copied err=$unwind_dir/copied.err unwound tables problem=
	varied_record "$id" copied --stack-storage-size 64 || return
	read -r unwound tables < <(sed -n 's/^flamekit: \([0-9]*\) user stacks unwound, \([0-9]*\) with the kernel.s tables.*/\1 \2/p' "$err")
	if [[ -z $unwound ]] || ! awk -v u="$unwound" -v t="$tables" 'BEGIN { exit !(u >= 1000 && t >= 0.9 * u) }'; then
		problem="want 1000 or more copied stacks, 90% of them walked with the tables: $(grep -E 'unwound|by why' "$err" | tr '\n' ' ')"
	fi
	problem=${problem:-$(varied_not_whole "$unwind_dir/copied.folded")}
	if [[ -z $problem ]]; then pass "$id"; else fail "$id" "$problem"; fi
}

# The stored stacks read at the end in bulk, many a system call
# (sampler/stack_fetch.h), where one a call was most of that read's time:
# fk-varied's thousands of stacks, 34 frames deep (a value's 23, the rest
# in a second value), read in bulk and whole.
unwind_bulk_test() {
	local id=record/stacks-in-bulk err=$unwind_dir/bulk.err read bulk problem=
	varied_record "$id" bulk || return
	read -r read bulk < <(sed -n 's/^flamekit: \([0-9]*\) stored stacks read, \([0-9]*\) of them in bulk$/\1 \2/p' "$err")
	if [[ -z $bulk ]] || ! awk -v r="$read" -v b="$bulk" 'BEGIN { exit !(b >= 2000 && b >= 0.9 * r) }'; then
		problem="want 2000 or more stacks' values read in bulk, 90% of those read: $(grep -E 'stored stacks' "$err" | tr '\n' ' ')"
	fi
	problem=${problem:-$(varied_not_whole "$unwind_dir/bulk.folded")}
	if [[ -z $problem ]]; then pass "$id"; else fail "$id" "$problem"; fi
}

# Samples the kernel cannot walk wait in two queues for user space (128
# each): with flamekit held off the CPU for half a second (SIGSTOP, as a
# loaded machine can), they fill, and the samples after that are walked by
# frame pointers and counted, not dropped. fk-oddcfa's every stack goes
# down the copy path (a CFA in rbx).
unwind_no_room_test() {
	local id=record/unwind-no-room err=$unwind_dir/no-room.err out=$unwind_dir/no-room.folded
	local fk waited=0 samples lost walked counted
	"$BUILD/flamekit" record -v -F 997 -f -o "$out" -- "$unwind_dir/fk-oddcfa" 3 2> "$err" &
	fk=$!
	until pgrep -P "$fk" -x fk-oddcfa > /dev/null || (( waited++ > 200 )); do sleep 0.05; done
	sleep 0.5
	kill -STOP "$fk"
	sleep 0.5
	kill -CONT "$fk"
	if ! wait "$fk"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return
	fi
	read -r samples lost < <(sed -n 's/^flamekit: \([0-9]*\) samples, .*; \([0-9]*\) lost$/\1 \2/p' "$err")
	walked=$(sed -n 's/^flamekit: \([0-9]*\) sampled user stacks walked by frame pointers.*/\1/p' "$err")
	counted=$(awk '{ n += $NF } END { print n + 0 }' "$out")
	if [[ -z $samples ]] || (( samples < 2000 || lost != 0 || counted != samples )); then
		fail "$id" "want 2000 samples or more, all counted, none lost: ${samples:-no} samples, $counted counted, ${lost:-?} lost"
	elif (( ${walked:-0} < 100 )); then
		fail "$id" "want 100 stacks or more walked by frame pointers while flamekit was stopped: $(grep -E 'frame pointers|unwound in user|by why' "$err" | tr '\n' ' ')"
	else
		pass "$id"
	fi
}

unwind_every_test() {
	local id=record/unwind-every dir=$unwind_dir/every
	rm -rf "$dir"
	if ! "$BUILD/flamekit" record -v -F 997 --every 1 --stack-storage-size 2048 --outdir "$dir" \
		--format folded -- "$unwind_dir/fk-varied" 6 2> "$unwind_dir/every.err"; then
		fail "$id" "$(grep -v '^libbpf' "$unwind_dir/every.err" | tail -n 1)"
		return
	fi
	local windows stacks missed whole full problems="" chain
	chain=$(printf '(go_left|go_right);path;%.0s' {1..14})  # (mawk has no {14})
	windows=$(ls "$dir" | grep -c '\.folded\.gz$')
	stacks=$(gzip -dc "$dir"/*.folded.gz | wc -l)
	missed=$(gzip -dc "$dir"/*.folded.gz | grep -c 'Missed')
	whole=$(gzip -dc "$dir"/*.folded.gz | unwind_share_matching fk-varied \
		"^fk-varied;_start;__libc_start_main;__libc_start_call_main;main;path;${chain}leaf_spin\$" \
		/dev/stdin ';leaf_spin$')
	(( windows >= 5 )) || problems+="$windows windows; "
	(( stacks > 4096 )) || problems+="only $stacks stacks over the windows: not enough to fill the map; "
	(( missed == 0 )) || problems+="$missed stacks missed; "
	# (a few at a window's turn, while two windows' stacks are held:
	# kept from window to window, thousands)
	full=$(sed -n 's/.*the kernel.s stack map full \([0-9]*\).*/\1/p' "$unwind_dir/every.err")
	(( ${full:-0} <= 50 )) || problems+="$(grep 'by why' "$unwind_dir/every.err"); "
	awk -v s="$whole" 'BEGIN { exit !(s >= 90) }' || problems+="leaf_spin's stacks whole in $whole%; "
	if [[ -z $problems ]]; then pass "$id"; else fail "$id" "$problems"; fi
}

# Whether test id is wanted and can run: the kernel's walk needs Linux 6.1
# (skipped, and said so, on an older kernel).
wanted_with_kernel_walk() { # id
	wanted "$1" || return 1
	if ! uname -r | awk -F. '{ exit !($1 > 6 || ($1 == 6 && $2 >= 1)) }'; then
		skip "$1" "Linux $(uname -r): the kernel's walk needs 6.1"
		return 1
	fi
}

record_unwind_tests() {
	local id any=
	for id in record/unwind-{table,nofp,fp,dlopen,forked,short,in-kernel,copied,no-room,every,deep,perl,python,debuglink,debuglink-stale,minidebuginfo,jit,missing,offcpu} record/symbol-cache record/stacks-in-bulk; do
		wanted "$id" && any=1
	done
	[[ -n $any ]] || return 0
	if [[ $(id -u) != 0 ]]; then
		skip record/unwind "record needs root (CI runs as root)"
		return 0
	fi
	if ! command -v perf > /dev/null || ! perf record -o /dev/null -- true > /dev/null 2>&1; then
		skip record/unwind "no working perf to compare with (apt-get install linux-perf)"
		return 0
	fi
	fresh_kernel_mounts  # as a new machine has them (run.sh)
	mkdir -p "$unwind_dir" && chmod 755 "$SCRATCH" "$unwind_dir"
	local w=$TOP/tests/workload
	if ! cc -O2 -fomit-frame-pointer -o "$unwind_dir/fk-nofp" "$w/fk-nofp.c" ||
		! cc -O2 -fomit-frame-pointer -o "$unwind_dir/fk-varied" "$w/fk-varied.c" ||
		! cc -O2 -fno-omit-frame-pointer -o "$unwind_dir/fk-oddcfa" "$w/fk-oddcfa.c" ||
		! cc -O2 -fomit-frame-pointer -o "$unwind_dir/fk-dlopen" "$w/fk-dlopen.c" ||
		! cc -O2 -fomit-frame-pointer -shared -fPIC -o "$unwind_dir/libfk-late.so" "$w/fk-late.c"; then
		fail record/unwind-workloads "cannot build tests/workload/fk-nofp.c, fk-varied.c, fk-oddcfa.c, fk-dlopen.c, fk-late.c"
		return 0
	fi
	if ! "$BUILD/flamekit" record -f 0.2 > /dev/null 2> "$unwind_dir/probe"; then
		skip record/unwind "BPF sampling does not work here: $(grep -m1 flamekit: "$unwind_dir/probe")"
		return 0
	fi
	local -x FLAMEKIT_CACHE_DIR=$unwind_dir/cache
	wanted record/unwind-table && unwind_table_test
	local libc_root='^fk-[a-z]*;_start;__libc_start_main;__libc_start_call_main;main'

	# a program without frame pointers: the whole chain, libc's frames too
	if wanted record/unwind-nofp && unwind_record_both record/unwind-nofp nofp "$unwind_dir/fk-nofp" 2; then
		unwind_check record/unwind-nofp fk-nofp nofp "$libc_root;top_level;mid_a;mid_b;leaf_hot\$" ';leaf_hot$'
	fi
	# ... which frame pointers alone cannot walk (so the test above proves the unwinding)
	wanted record/unwind-fp && { "$unwind_dir/fk-nofp" 2 & local nofp_pid=$!; sleep 0.2; }
	if ! wanted record/unwind-fp; then
		:
	elif "$BUILD/flamekit" record --unwind=fp -F 997 -a -f -p "$nofp_pid" 1 > "$unwind_dir/fp.folded" \
		2> "$unwind_dir/fp.err"; then
		local fp_share; fp_share=$(unwind_share_matching fk-nofp "$libc_root;top_level;mid_a;mid_b;leaf_hot\$" "$unwind_dir/fp.folded")
		if [[ $fp_share == 0.0 ]]; then pass record/unwind-fp; else
			fail record/unwind-fp "--unwind=fp walked the chain in $fp_share% of fk-nofp's samples"; fi
	else
		fail record/unwind-fp "$(tail -n 1 "$unwind_dir/fp.err")"
	fi
	wanted record/unwind-fp && wait "$nofp_pid"

	# a library loaded a second after the start, without -g
	if wanted record/unwind-dlopen && unwind_record_both record/unwind-dlopen dlopen "$unwind_dir/fk-dlopen" "$unwind_dir/libfk-late.so" 2.5 1; then
		unwind_check record/unwind-dlopen fk-dlopen dlopen "$libc_root;late_hot;late_leaf\$" ';late_leaf$'
		if grep -q ';late_hot;late_leaf' "$unwind_dir/dlopen.folded"; then pass record/unwind-dlopen-named; else
			fail record/unwind-dlopen-named "no late_hot;late_leaf: $(head -c 300 "$unwind_dir/dlopen.folded")"; fi
	fi

	# a child and a grandchild forked after the dlopen, neither exec'ing:
	# their frames are in the parent's mappings as they were at the fork
	if wanted record/unwind-forked && unwind_record_both record/unwind-forked forked "$unwind_dir/fk-dlopen" "$unwind_dir/libfk-late.so" 2.5 0.5 fork; then
		unwind_check record/unwind-forked fk-forked forked "$libc_root;late_hot;late_leaf\$" ';late_leaf$'
		unwind_check record/unwind-forked-grandchild fk-grandchild forked "$libc_root;late_hot;late_leaf\$" ';late_leaf$'
	fi

	# processes that live 50 ms each
	cp "$unwind_dir/fk-nofp" "$unwind_dir/fk-short"
	if wanted record/unwind-short && unwind_record_both record/unwind-short short sh -c \
		"for i in \$(seq 40); do '$unwind_dir/fk-short' 0.05; done"; then
		unwind_check record/unwind-short fk-short short "$libc_root;top_level;mid_a;mid_b;leaf_hot\$" ';leaf_hot$'
	fi

	# the walk is the kernel's, not the copy path's, from a process's first
	# samples on: 40 processes of 50 ms, a fresh cache of tables (-v says
	# how many user stacks went down the copy path)
	if wanted_with_kernel_walk record/unwind-in-kernel; then
		if FLAMEKIT_CACHE_DIR=$unwind_dir/in-kernel-cache "$BUILD/flamekit" record -v -F 997 -f \
			-o "$unwind_dir/in-kernel.folded" -- sh -c \
			"for i in \$(seq 40); do '$unwind_dir/fk-short' 0.05; done" 2> "$unwind_dir/in-kernel.err"; then
			local walked copied
			walked=$(sed -n 's/^flamekit: \([0-9]*\) user stacks walked in the kernel.*/\1/p' "$unwind_dir/in-kernel.err")
			copied=$(sed -n 's/^flamekit: \([0-9]*\) of [0-9]* user stacks (.*) unwound in user space.*/\1/p' "$unwind_dir/in-kernel.err")
			if [[ -z $walked ]]; then
				fail record/unwind-in-kernel "no line on the kernel's walk: $(grep -v '^libbpf' "$unwind_dir/in-kernel.err" | head -n 3 | tr '\n' ' ')"
			elif awk -v w="$walked" -v c="${copied:-0}" 'BEGIN { exit !(w > 0 && c <= 0.1 * (w + c)) }'; then
				pass record/unwind-in-kernel
			else
				fail record/unwind-in-kernel "$walked user stacks walked in the kernel, ${copied:-0} copied (want at most 10%): $(grep 'by why' "$unwind_dir/in-kernel.err")"
			fi
		else
			fail record/unwind-in-kernel "$(grep -v '^libbpf' "$unwind_dir/in-kernel.err" | tail -n 1)"
		fi
	fi

	# copied stacks walked in user space with the kernel's own tables: a
	# stack map of 64 entries is full at once with fk-varied's 16384
	# stacks, and every later one is copied ("the kernel's stack map full"),
	# then walked with fk-varied's and libc's tables, not libdwfl (-v counts
	# both), whole
	if wanted_with_kernel_walk record/unwind-copied; then
		unwind_copied_test
	fi
	if wanted_with_kernel_walk record/stacks-in-bulk; then
		unwind_bulk_test
	fi
	if wanted_with_kernel_walk record/unwind-no-room; then
		unwind_no_room_test
	fi

	# --every: each window's stacks are dropped from the kernel's stack map
	# once it is written. fk-varied meets about 1000 new stacks a second,
	# each two chunks of the map's values: more over the run than the 8192
	# values --stack-storage-size 2048 makes (4 a key): kept from window to
	# window they fill it (and go down the copy path, "the kernel's stack
	# map full" in -v's reasons).
	if wanted_with_kernel_walk record/unwind-every; then
		unwind_every_test
	fi

	# deeper than perf's 8 KB copy and the kernel's 127 frames: whole
	if ! wanted record/unwind-deep; then
		:
	elif "$BUILD/flamekit" record -F 997 -f -- "$unwind_dir/fk-nofp" 1.5 250 > "$unwind_dir/deep.folded" \
		2> "$unwind_dir/deep.err"; then
		local chain; chain=$(printf ';deep%.0s' {1..250})  # (mawk has no {250})
		local deep; deep=$(unwind_share_matching fk-nofp "$libc_root$chain;leaf_hot\$" "$unwind_dir/deep.folded")
		if awk -v s="$deep" 'BEGIN { exit !(s >= 90) }'; then pass record/unwind-deep; else
			fail record/unwind-deep "the 250 frames whole in $deep% of the samples"; fi
	else
		fail record/unwind-deep "$(tail -n 1 "$unwind_dir/deep.err")"
	fi

	# Debian's own interpreters, built without frame pointers
	if ! wanted record/unwind-perl; then
		:
	elif [[ -x /usr/bin/perl ]]; then
		if unwind_record_both record/unwind-perl perl /usr/bin/perl -e \
			'my ($x, $t) = (0, time); while (time - $t < 2) { $x += $_ for 1 .. 1000 }'; then
			unwind_check record/unwind-perl perl perl '^perl;_start;__libc_start_main;__libc_start_call_main;main;perl_run;'
		fi
	else
		skip record/unwind-perl "no /usr/bin/perl"
	fi
	local python; python=$(ls /usr/bin/python3.[0-9]* 2> /dev/null | grep -m1 -E 'python3\.[0-9]+$')
	if ! wanted record/unwind-python; then
		:
	elif [[ -n $python ]]; then
		# native frames only, as perf sees them (record_python.sh checks the
		# Python frames merged in their place)
		unwind_options=(--no-python)
		if unwind_record_both record/unwind-python python "$python" -c \
			'import time
t = time.time()
x = 0
while time.time() - t < 2: x += sum(range(1000))'; then
			unwind_options=()
			unwind_check record/unwind-python "$(basename "$python")" python \
				"^$(basename "$python");_start;__libc_start_main;__libc_start_call_main;Py_BytesMain;Py_RunMain;"
		fi
		unwind_options=()
	else
		skip record/unwind-python "no /usr/bin/python3.N"
	fi

	# JIT code named by /tmp/perf-PID.map: _[j] with -a (for --colors java/js)
	if wanted record/unwind-jit && [[ $(uname -m) == x86_64 ]]; then
		if cc -O2 -o "$unwind_dir/fk-jit" "$TOP/tests/workload/fk-jit.c" &&
			"$BUILD/flamekit" record -a -F 997 -f -- "$unwind_dir/fk-jit" 1 > "$unwind_dir/jit.folded" 2> "$unwind_dir/jit.err" &&
			"$BUILD/flamekit" record -F 997 -f -- "$unwind_dir/fk-jit" 1 > "$unwind_dir/jit-plain.folded" 2>> "$unwind_dir/jit.err"; then
			if grep -q '^fk-jit;.*;jit_hot_\[j\] [0-9]*$' "$unwind_dir/jit.folded" &&
				grep -q '^fk-jit;.*;jit_hot [0-9]*$' "$unwind_dir/jit-plain.folded" &&
				! grep -q '_\[j\]' "$unwind_dir/jit-plain.folded"; then
				pass record/unwind-jit
			else
				fail record/unwind-jit "-a: $(sort -k2 -nr "$unwind_dir/jit.folded" | head -n 1); without: $(sort -k2 -nr "$unwind_dir/jit-plain.folded" | head -n 1)"
			fi
		else
			fail record/unwind-jit "$(tail -n 1 "$unwind_dir/jit.err")"
		fi
	fi

	# off-CPU stacks walked in the kernel from the tables: fk-blocks (frame
	# pointers, its blocks in libc's wrappers, which have none) names nap(),
	# diskio() and piper() apart, where frame pointers lose all three (the
	# libc leaf returns past them), so --unwind=fp must not
	if wanted record/unwind-offcpu; then
		if ! cc -O2 -fno-omit-frame-pointer -o "$unwind_dir/fk-blocks" "$TOP/tests/workload/fk-blocks.c"; then
			fail record/unwind-offcpu "cannot build tests/workload/fk-blocks.c"
		elif "$BUILD/flamekit" record --off-cpu -f -- "$unwind_dir/fk-blocks" 2 "$unwind_dir/blocks.data" \
				> "$unwind_dir/offcpu.folded" 2> "$unwind_dir/offcpu.err" &&
			"$BUILD/flamekit" record --off-cpu --unwind=fp -f -- "$unwind_dir/fk-blocks" 1 "$unwind_dir/blocks.data" \
				> "$unwind_dir/offcpu-fp.folded" 2>> "$unwind_dir/offcpu.err"; then
			local fn missing= fp_named=
			for fn in nap diskio piper; do
				grep -q "^fk-blocks;_start;__libc_start_main;__libc_start_call_main;main;$fn;[^;]" "$unwind_dir/offcpu.folded" ||
					missing+=" $fn"
				grep -q ";main;$fn;" "$unwind_dir/offcpu-fp.folded" && fp_named+=" $fn"
			done
			if [[ -n $missing ]]; then
				fail record/unwind-offcpu "no whole off-CPU stack through$missing: $(sort -t' ' -k2 -nr "$unwind_dir/offcpu.folded" | head -n 2 | cut -c1-200 | tr '\n' '|')"
			elif [[ -n $fp_named ]]; then
				fail record/unwind-offcpu "--unwind=fp named$fp_named: the test would prove nothing"
			else
				pass record/unwind-offcpu
			fi
		else
			fail record/unwind-offcpu "$(tail -n 1 "$unwind_dir/offcpu.err")"
		fi
	fi

	# stripped binaries: names from a .gnu_debuglink file beside it, or from
	# MiniDebugInfo (.gnu_debugdata, xz) alone
	if wanted record/unwind-debuglink || wanted record/unwind-debuglink-stale ||
		wanted record/unwind-minidebuginfo || wanted record/unwind-missing ||
		wanted record/symbol-cache; then
		unwind_stripped_tests
	fi
}

# The symbols' cache (symbolize/symbol_file.h), through
# tests/binary_symbols_dump.c: a stripped binary whose .gnu_debuglink file
# comes and goes, a binary rewritten in place, a cache file cut short. Each
# step names the same functions and must name them from what is there now.
symbol_cache_test() {
	local d=$1/symbol-cache problems="" step
	mkdir -p "$d"
	if ! cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$d/dump" "$TOP/tests/binary_symbols_dump.c" \
		"$BUILD"/obj/symbolize/{binary_symbols,symbol_table,symbol_file,made_names,debuginfo,demangle}.o \
		"$BUILD"/obj/lib/{buf,xalloc,error,cache_dir,index_table,key_directory,pages}.o -ldw -lelf -lxxhash -liberty -ldl 2> "$d/cc.err"; then
		fail record/symbol-cache "tests/binary_symbols_dump.c does not build: $(head -n 3 "$d/cc.err" | tr '\n' ' ')"
		return
	fi
	cp "$1/fk-full" "$d/fk-cached"
	objcopy --only-keep-debug "$d/fk-cached" "$d/saved.debug" && strip --strip-all "$d/fk-cached" &&
		cp "$d/saved.debug" "$d/fk-cached.debug" && (cd "$d" && objcopy --add-gnu-debuglink=fk-cached.debug fk-cached) &&
		rm "$d/fk-cached.debug"
	nm "$1/fk-full" | awk '$3 == "leaf_hot" || $3 == "mid_a" || $3 == "top_level" { print $1, $3 }' | sort > "$d/want"
	awk '{ print $1 }' "$d/want" > "$d/addresses"
	names() { # step: the names of the addresses, as "address name" lines
		FLAMEKIT_CACHE_DIR=$d/cache "$d/dump" "$d/fk-cached" < "$d/addresses" 2>> "$d/dump.err" |
			sed 's/^0*//' | sort > "$d/$1"
	}
	newest() { ls -t "$d/cache/symbols/"* | head -n 1; }
	# 0. a cache past its limit (256 MB) loses its least used files
	mkdir -m 700 "$d/cache" "$d/cache/symbols"
	truncate -s 300M "$d/cache/symbols/unused" && touch -d '3 days ago' "$d/cache/symbols/unused"
	truncate -s 1M "$d/cache/symbols/used" && touch -d '2 days ago' "$d/cache/symbols/used"
	truncate -s 1M "$d/cache/symbols/killed.1.tmp" && touch -d '2 days ago' "$d/cache/symbols/killed.1.tmp"
	truncate -s 1M "$d/cache/symbols/writing.2.tmp"
	# 1. no debug file yet: no names, and a cache file of that
	names no-debug
	grep -q 'unknown:no-symbols fk-cached' "$d/no-debug" || problems+="named without its debug file: $(head -n 1 "$d/no-debug"); "
	[[ $(ls "$d/cache/symbols" 2> /dev/null | grep -cv -e ^used -e ^writing) == 1 ]] || problems+="no cache file written: $(ls -A "$d/cache" 2>&1 | head -n 3); "
	[[ -e $d/cache/symbols/used && -e $d/cache/symbols/writing.2.tmp && ! -e $d/cache/symbols/unused &&
		! -e $d/cache/symbols/killed.1.tmp ]] ||
		problems+="the cache past its limit has: $(ls "$d/cache/symbols" | tr '\n' ' ') (not unused, killed.1.tmp); "
	rm "$d/cache/symbols/"{used,writing.2.tmp}
	# 2. the debug file installed: named from it, not from that cache file
	cp "$d/saved.debug" "$d/fk-cached.debug"
	names debug
	[[ $(sed 's/^0*//' "$d/want") == $(cat "$d/debug") ]] || problems+="the debug file installed, yet: $(head -n 1 "$d/debug"); "
	# 3. named from the cache: a name changed there is the name given
	python3 -c 'import sys; p = sys.argv[1]; b = open(p, "rb").read(); open(p, "wb").write(b.replace(b"leaf_hot", b"leaf_HOT"))' "$(newest)"
	names changed
	grep -q ' leaf_HOT$' "$d/changed" || problems+="not named from the cache: $(tr '\n' ' ' < "$d/changed"); "
	# 4. the debug file rewritten: read again
	cp "$d/saved.debug" "$d/fk-cached.debug"
	names rewritten
	[[ $(sed 's/^0*//' "$d/want") == $(cat "$d/rewritten") ]] || problems+="the debug file rewritten, yet: $(tr '\n' ' ' < "$d/rewritten"); "
	# 5. the binary rewritten in place (same inode): read again
	python3 -c 'import sys; p = sys.argv[1]; b = open(p, "rb").read(); open(p, "wb").write(b.replace(b"leaf_hot", b"leaf_HOT"))' "$(newest)"
	cp "$1/fk-full" "$d/fk-cached"
	names in-place
	[[ $(sed 's/^0*//' "$d/want") == $(cat "$d/in-place") ]] || problems+="the binary rewritten in place, yet: $(tr '\n' ' ' < "$d/in-place"); "
	# 6. a cache file cut short: not used
	truncate -s 40 "$(newest)"
	names cut
	[[ $(sed 's/^0*//' "$d/want") == $(cat "$d/cut") ]] || problems+="from a cache file cut short: $(tr '\n' ' ' < "$d/cut"); "
	[[ -s $d/dump.err ]] && problems+="$(head -c 200 "$d/dump.err")"
	if [[ -z $problems ]]; then pass record/symbol-cache; else fail record/symbol-cache "$problems"; fi
}

unwind_stripped_tests() {
	local d=$unwind_dir/stripped chain
	mkdir -p "$d"
	chain=';_start;__libc_start_main;__libc_start_call_main;main;top_level;mid_a;mid_b;leaf_hot$'
	if ! cc -O2 -g -fomit-frame-pointer -Wl,--build-id=none -o "$d/fk-full" "$TOP/tests/workload/fk-nofp.c" ||
		! command -v objcopy > /dev/null || ! command -v xz > /dev/null; then
		skip record/unwind-debuglink "needs cc, objcopy (binutils) and xz"
		return
	fi
	# .gnu_debuglink: no build id, so only the link finds the debug file
	cp "$d/fk-full" "$d/fk-linked"
	objcopy --only-keep-debug "$d/fk-linked" "$d/fk-linked.debug" &&
		strip --strip-all "$d/fk-linked" &&
		(cd "$d" && objcopy --add-gnu-debuglink=fk-linked.debug fk-linked)
	# MiniDebugInfo: the symbol table, xz-compressed, in .gnu_debugdata
	cp "$d/fk-full" "$d/fk-mini"
	objcopy --only-keep-debug "$d/fk-mini" "$d/mini.debug" &&
		objcopy --strip-debug "$d/mini.debug" "$d/mini.symtab" && xz -f "$d/mini.symtab" &&
		strip --strip-all "$d/fk-mini" &&
		objcopy --add-section .gnu_debugdata="$d/mini.symtab.xz" "$d/fk-mini"
	# ... and one with neither: its frames say why, the end says what to do
	# (it is from no package: no dpkg -S)
	if wanted record/unwind-missing; then
		cp "$d/fk-full" "$d/fk-bare" && strip --strip-all "$d/fk-bare"
		if "$BUILD/flamekit" record -F 997 -f -- "$d/fk-bare" 1 > "$d/bare.folded" 2> "$d/bare.err"; then
			if grep -q '^fk-bare;\[unknown:no-symbols fk-bare\];__libc_start_main;__libc_start_call_main;\[unknown:no-symbols fk-bare\];' "$d/bare.folded" &&
				grep -q '^flamekit: *[0-9.]*% of samples have frames in fk-bare without symbols: [^ ]*/fk-bare is from no package: build it unstripped' "$d/bare.err"; then
				pass record/unwind-missing
			else
				fail record/unwind-missing "$(sort -k2 -nr "$d/bare.folded" | head -n 1 | cut -c1-200); $(grep -m1 'of samples' "$d/bare.err")"
			fi
		else
			fail record/unwind-missing "$(tail -n 1 "$d/bare.err")"
		fi
	fi
	# a .gnu_debuglink whose file is now another build's (its CRC differs):
	# not used, so the frames say the symbols are missing instead of lying
	if wanted record/unwind-debuglink-stale; then
		cp "$d/fk-full" "$d/fk-stale"
		objcopy --only-keep-debug "$d/fk-stale" "$d/fk-stale.debug" &&
			strip --strip-all "$d/fk-stale" &&
			(cd "$d" && objcopy --add-gnu-debuglink=fk-stale.debug fk-stale) &&
			cc -O2 -g -fomit-frame-pointer -Wl,--build-id=none -DFK_OTHER_BUILD -o "$d/fk-other" \
				"$TOP/tests/workload/fk-nofp.c" -Wl,--defsym=fk_other_build=0 &&
			objcopy --only-keep-debug "$d/fk-other" "$d/fk-stale.debug"
		if "$BUILD/flamekit" record -F 997 -f -- "$d/fk-stale" 1 > "$d/stale.folded" 2> "$d/stale.err"; then
			if grep -q '^fk-stale;\[unknown:no-symbols fk-stale\];__libc_start_main;__libc_start_call_main;\[unknown:no-symbols fk-stale\];' "$d/stale.folded"; then
				pass record/unwind-debuglink-stale
			else
				fail record/unwind-debuglink-stale "named from another build's debug file: $(sort -k2 -nr "$d/stale.folded" | head -n 1 | cut -c1-200)"
			fi
		else
			fail record/unwind-debuglink-stale "$(tail -n 1 "$d/stale.err")"
		fi
	fi
	wanted record/symbol-cache && symbol_cache_test "$d"
	local name
	for name in linked mini; do
		local id=record/unwind-debuglink
		[[ $name == mini ]] && id=record/unwind-minidebuginfo
		wanted "$id" || continue
		if readelf -S "$d/fk-$name" | grep -q ' \.symtab'; then
			fail "$id" "fk-$name still has a .symtab: the test would prove nothing"
		elif "$BUILD/flamekit" record -F 997 -f -- "$d/fk-$name" 1 > "$d/$name.folded" 2> "$d/$name.err"; then
			local share; share=$(unwind_share_matching "fk-$name" "^fk-$name$chain" "$d/$name.folded")
			if awk -v s="$share" 'BEGIN { exit !(s >= 90) }'; then pass "$id"; else
				fail "$id" "the named chain in $share% of the samples: $(sort -k2 -nr "$d/$name.folded" | head -n 1)"; fi
		else
			fail "$id" "$(tail -n 1 "$d/$name.err")"
		fi
	done
}
