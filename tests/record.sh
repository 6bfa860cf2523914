# The tests of `flamekit record` that sample for real: sourced by
# tests/run.sh (uses its pass/fail/skip/wanted, $BUILD, $TOP, $SCRATCH).
# They need root and a kernel where BPF and perf events work; elsewhere they
# skip with the reason. CI runs as root, so there they run.
#
# The workload (tests/workload/fk-7030.c, built here with frame pointers)
# spends 70% of its CPU time in seventy() and 30% in thirty().

record_dir=$SCRATCH/record

# share PATTERN_A PATTERN_B FILE: percent of A among A+B samples (folded).
record_share() {
	awk -v a="$1" -v b="$2" '
		{ n = $NF } $0 ~ a { x += n } $0 ~ b { y += n }
		END { if (x + y == 0) print "none"; else printf "%.1f\n", 100 * x / (x + y) }' "$3"
}

record_check_share() { # id file
	local share; share=$(record_share ';seventy' ';thirty' "$2")
	if [[ $share != none ]] && awk -v s="$share" 'BEGIN { exit !(s >= 65 && s <= 75) }'; then
		pass "$1"
	else
		fail "$1" "seventy() has $share% of seventy+thirty, expected 70 ± 5 ($(wc -l < "$2") lines)"
	fi
}

# Runs flamekit record ARGS with stdout to out.folded, stderr to err.
record_run() { # id args...
	local id=$1; shift
	if ! "$BUILD/flamekit" record "$@" > "$record_dir/out" 2> "$record_dir/err"; then
		fail "$id" "flamekit record $* exited $?: $(tail -n 2 "$record_dir/err" | tr '\n' ' ')"
		return 1
	fi
}

record_workload() { # seconds [name] -> pid in $workload_pid
	local exe=$record_dir/${2:-fk-7030}
	[[ -x $exe ]] || cp "$record_dir/fk-7030" "$exe"
	"$exe" "$1" & workload_pid=$!
}

record_tests() {
	wanted record || return 0
	if [[ $(id -u) != 0 ]]; then
		skip record "record needs root (CI runs as root)"
		return 0
	fi
	mkdir -p "$record_dir" && chmod 755 "$SCRATCH" "$record_dir"
	if ! cc -O0 -fno-omit-frame-pointer -fno-inline -o "$record_dir/fk-7030" \
		"$TOP/tests/workload/fk-7030.c"; then
		fail record/workload "cannot build tests/workload/fk-7030.c"
		return 0
	fi
	if ! "$BUILD/flamekit" record -f 0.2 > /dev/null 2> "$record_dir/probe"; then
		skip record "BPF sampling does not work here: $(grep -m1 flamekit: "$record_dir/probe")"
		return 0
	fi
	local out=$record_dir/out err=$record_dir/err
	# the kernel symbol cache of these runs, not the machine's
	export FLAMEKIT_CACHE_DIR=$record_dir/cache
	rm -rf "$FLAMEKIT_CACHE_DIR"

	# 70/30 with -p at 997 Hz: ~3000 samples put ±5 at six standard errors
	# (at 49 or 99 Hz a test-length run has a few hundred, where ±5 is two
	# or three and the test would be flaky; bench/record.sh covers each rate)
	for hz in 997; do
		local seconds=3
		record_workload $((seconds + 1))
		sleep 0.2
		if record_run record/pid-7030-${hz}hz -p "$workload_pid" -F $hz -f $seconds; then
			record_check_share record/pid-7030-${hz}hz "$out"
		fi
		wait "$workload_pid"
	done

	# -- COMMAND: the same share, and it stops when the command exits
	local t0=$SECONDS
	if record_run record/command-7030 -F 997 -f -- "$record_dir/fk-7030" 2; then
		record_check_share record/command-7030 "$out"
		if (( SECONDS - t0 <= 4 )); then pass record/command-stops; else
			fail record/command-stops "took $((SECONDS - t0)) s for a 2 s command"; fi
	fi
	# ... and its children (sh forks, then runs the workload)
	if record_run record/command-children -F 997 -f -- sh -c "'$record_dir/fk-7030' 1; true"; then
		if grep -q '^fk-7030;.*;main;seventy ' "$out"; then pass record/command-children; else
			fail record/command-children "no fk-7030 stack: $(head -c 300 "$out")"; fi
	fi
	if "$BUILD/flamekit" record -- /nonexistent/cmd > /dev/null 2> "$err"; then
		fail record/command-missing "exit 0 for a command that does not exist"
	elif grep -q 'cannot run /nonexistent/cmd: No such file' "$err"; then
		pass record/command-missing
	else
		fail record/command-missing "$(head -n 1 "$err")"
	fi

	# -U: no kernel frames; -K: no user frames; -a marks kernel frames
	record_workload 3
	sleep 0.2
	if record_run record/user-only -U -a -f -p "$workload_pid" 1; then
		if grep -q '_\[k\]' "$out"; then fail record/user-only "kernel frames: $(grep -m1 '_\[k\]' "$out")"
		elif ! grep -q ';seventy ' "$out"; then fail record/user-only "no seventy()"
		else pass record/user-only; fi
	fi
	if record_run record/kernel-only -K -a -f -p "$workload_pid" 1; then
		# every frame after the comm is a kernel frame
		if awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";");
			for (i = 2; i <= n; i++) if (f[i] !~ /_\[k\]$/) bad = 1 } END { exit !bad }' "$out"; then
			fail record/kernel-only "user frames: $(grep -m1 seventy "$out")"
		elif [[ ! -s $out ]]; then fail record/kernel-only "no samples"
		else pass record/kernel-only; fi
	fi
	wait "$workload_pid"

	# -d: "-" exactly between the user frames and the kernel frames
	dd if=/dev/zero of=/dev/null bs=64k count=2000000 2> /dev/null & local dd_pid=$!
	sleep 0.2
	if record_run record/delimited -d -a -f -p "$dd_pid" 1; then
		if awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); seen_k = 0; d = 0
			for (i = 2; i <= n; i++) {
				if (f[i] == "-") { d++; if (seen_k || i == 2 || i == n || f[i+1] !~ /_\[k\]$/ || f[i-1] ~ /_\[k\]$/) bad = 1 }
				else if (f[i] ~ /_\[k\]$/) { if (!d && i > 2 && f[i-1] !~ /_\[k\]$/) bad = 1; seen_k = 1 }
			}
			if (d > 1) bad = 1; if (d) delimited++ }
			END { exit !(bad || !delimited) }' "$out"; then
			fail record/delimited "misplaced or missing '-': $(grep -m1 -- ';-;' "$out")"
		else
			pass record/delimited
		fi
	fi
	kill "$dd_pid" 2> /dev/null; wait "$dd_pid" 2> /dev/null

	# -I: the idle task only when asked for (and only if some CPU was idle:
	# a machine kept busy by others has no idle task to sample)
	local idle_before idle_after
	idle_before=$(awk '/^cpu / { print $5 }' /proc/stat)
	if record_run record/idle -I -F 997 -f 1 && idle_after=$(awk '/^cpu / { print $5 }' /proc/stat) &&
		(( idle_after - idle_before < 10 )); then
		skip record/idle "no CPU was idle during the -I run (the machine is busy)"
	elif grep -q '^swapper/' "$out"; then
		if record_run record/no-idle -F 997 -f 1 && ! grep -q '^swapper/' "$out"; then
			pass record/idle
		else
			fail record/idle "idle task sampled without -I"
		fi
	else
		fail record/idle "no swapper/N stacks with -I"
	fi

	# -C 0: only what runs on CPU 0
	if (( $(nproc) >= 2 )); then
		cp "$record_dir/fk-7030" "$record_dir/fk-cpu0"; cp "$record_dir/fk-7030" "$record_dir/fk-cpu1"
		taskset -c 0 "$record_dir/fk-cpu0" 2 & local p0=$!
		taskset -c 1 "$record_dir/fk-cpu1" 2 & local p1=$!
		sleep 0.2
		if record_run record/cpu -C 0 -f 1; then
			if grep -q '^fk-cpu0;' "$out" && ! grep -q '^fk-cpu1;' "$out"; then pass record/cpu; else
				fail record/cpu "cpu0: $(grep -c '^fk-cpu0;' "$out") lines, cpu1: $(grep -c '^fk-cpu1;' "$out")"; fi
		fi
		wait "$p0" "$p1"
	else
		skip record/cpu "one CPU only"
	fi

	# -u: a process of the user started after the recording began
	"$BUILD/flamekit" record -u nobody -F 997 -f 3 > "$record_dir/user.folded" 2> "$err" & local rec=$!
	sleep 1
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$record_dir/fk-7030" 1
	# (setpriv itself runs as nobody for a moment before it execs)
	if wait "$rec" && grep -q '^fk-7030;.*;main;seventy ' "$record_dir/user.folded" &&
		! grep -qvE '^(fk-7030|setpriv)[; ]' "$record_dir/user.folded"; then
		pass record/user
	else
		fail record/user "$(head -c 300 "$record_dir/user.folded") $(head -n 2 "$err")"
	fi

	# -f output goes through the folded reader unchanged; the report holds
	# every sample counted
	record_workload 10
	sleep 0.2
	if record_run record/folded-reader -F 997 -f -p "$workload_pid" 1; then
		if "$BUILD/flamekit" collapse folded "$out" | cmp -s - "$out"; then
			pass record/folded-reader
		else
			fail record/folded-reader "collapse folded changed the output"
		fi
		# ... and the flamegraph writer: the personality draws every sample
		local total drawn
		total=$(awk '{ n += $NF } END { print n + 0 }' "$out")
		drawn=$("$BUILD/flamegraph" "$out" 2> /dev/null | sed -n 's/.*<title>all (\([0-9,]*\) samples.*/\1/p' | tr -d ,)
		if [[ $total -gt 0 && $drawn == "$total" ]]; then pass record/folded-flamegraph; else
			fail record/folded-flamegraph "flamegraph drew $drawn of $total samples"; fi
	fi
	# -o x.svg: a well-formed SVG whose frames hold the workload's functions
	if record_run record/svg -F 997 -p "$workload_pid" -o "$record_dir/x.svg" 1; then
		if command -v python3 > /dev/null; then
			local names
			names=$(python3 -c 'import sys, xml.etree.ElementTree as ET
titles = [t.text for t in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}title")]
print(" ".join(sorted({t.split(" (")[0] for t in titles if t.split(" (")[0] in ("seventy", "thirty", "main")})))' \
				"$record_dir/x.svg" 2>&1)
			if [[ $names == "main seventy thirty" ]]; then pass record/svg; else
				fail record/svg "frames of the workload in x.svg: $names"; fi
		else
			skip record/svg "no python3 to parse the SVG (run ./setup.sh)"
		fi
	fi
	# --outdir: a flame graph and the raw stacks, named by host, time and pid
	if record_run record/outdir -F 997 -p "$workload_pid" --outdir "$record_dir/flames" 1; then
		local made; made=$(cd "$record_dir/flames" && ls)
		if [[ $made =~ ^[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$workload_pid\.folded\.gz$'\n'[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$workload_pid\.svg$ ]] &&
			gzip -t "$record_dir/flames/"*.folded.gz && grep -q '<title>seventy (' "$record_dir/flames/"*.svg; then
			pass record/outdir
		else
			fail record/outdir "made: $made"
		fi
	fi
	if record_run record/report -F 997 -p "$workload_pid" -o "$record_dir/report.txt" 1; then
		local samples counted
		samples=$(sed -n 's/^flamekit: \([0-9]*\) samples.*/\1/p' "$err")
		counted=$("$BUILD/flamekit" collapse bcc "$record_dir/report.txt" | awk '{ n += $NF } END { print n + 0 }')
		if [[ -n $samples && $samples == "$counted" && $samples -gt 0 ]] &&
			grep -q "^    -                fk-7030 ($workload_pid)\$" "$record_dir/report.txt"; then
			pass record/report
		else
			fail record/report "$samples samples counted, report holds $counted"
		fi
	fi
	kill "$workload_pid" 2> /dev/null; wait "$workload_pid" 2> /dev/null

	# The kernel symbol cache: written (in a 0700 directory) by the first run
	# of the boot, read by the next; names from it are the kernel's text symbols
	rm -rf "$FLAMEKIT_CACHE_DIR"
	dd if=/dev/zero of=/dev/null bs=64k count=4000000 2> /dev/null & dd_pid=$!
	sleep 0.2
	if record_run record/kernel-cache-write -K -a -f -p "$dd_pid" 1 &&
		record_run record/kernel-cache-read -K -a -f -p "$dd_pid" 1; then
		local names=$record_dir/kernel-names
		grep -o '[^;]*_\[k\]' "$out" | sed 's/_\[k\]$//' | sort -u > "$names"
		local missing
		missing=$(awk '$2 ~ /^[tTwW]$/ { print $3 }' /proc/kallsyms | sort -u | comm -23 "$names" -)
		if [[ $(stat -c %a "$FLAMEKIT_CACHE_DIR") != 700 || ! -s $FLAMEKIT_CACHE_DIR/kallsyms ]]; then
			fail record/kernel-cache "no cache in a 0700 $FLAMEKIT_CACHE_DIR: $(ls -la "$FLAMEKIT_CACHE_DIR" 2>&1 | head -3)"
		elif [[ ! -s $names || -n $missing ]]; then
			fail record/kernel-cache "$(wc -l < "$names") kernel names, not in /proc/kallsyms: $(echo $missing | head -c 200)"
		else
			pass record/kernel-cache
		fi
	fi
	kill "$dd_pid" 2> /dev/null; wait "$dd_pid" 2> /dev/null

	# SIGINT mid-run: exit 0 with a complete file, no temporary left
	rm -f "$record_dir"/int.folded "$record_dir"/.int.folded.*
	"$BUILD/flamekit" record -F 997 -o "$record_dir/int.folded" 2> "$err" & rec=$!
	sleep 1.5
	kill -INT "$rec"
	if wait "$rec" && [[ -s $record_dir/int.folded ]] &&
		"$BUILD/flamekit" collapse folded "$record_dir/int.folded" > /dev/null 2>&1 &&
		! compgen -G "$record_dir/.int.folded.*" > /dev/null; then
		pass record/sigint
	else
		fail record/sigint "$(tail -n 2 "$err" | tr '\n' ' ')"
	fi

	# no sample lost at 997 Hz for 10 s on every CPU, both busy
	record_workload 11
	local w1=$workload_pid
	record_workload 11
	sleep 0.2
	if record_run record/no-loss -F 997 -f 10; then
		if grep -q '^flamekit: [0-9]* samples, .*; 0 lost$' "$err"; then pass record/no-loss; else
			fail record/no-loss "$(grep -m1 samples "$err")"; fi
	fi
	wait "$w1" "$workload_pid"

	# nothing stays in the kernel after flamekit exits
	if command -v bpftool > /dev/null || [[ -x /usr/sbin/bpftool ]]; then
		if "${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}" prog list | grep -q 'do_sample'; then
			fail record/cleanup "a do_sample BPF program is still loaded"
		else
			pass record/cleanup
		fi
	fi
}
