# The tests of `flamekit record` that sample for real: sourced by
# tests/run.sh (uses its pass/fail/skip/wanted, $BUILD, $TOP, $SCRATCH).
# They need root and a kernel where BPF and perf events work. Elsewhere they
# skip with the reason; where the suite runs as root with CI set (CI always
# does), a record test that cannot run is a failure: a green CI run means
# that record works.
#
# Each test judges flamekit against an account of its own, not against what
# flamekit says about itself:
# - the workloads (tests/workload/, built here with frame pointers) run for
#   an amount of CPU time and report it, so a process sampled at F Hz has F
#   samples per CPU second (±10%: the timer samples whatever runs when it
#   fires; 1 s of a workload at 997 Hz, on 2 CPUs loaded 3 times over by
#   others, gave 0.96 to 1.03 of that);
# - they start stopped, and go on only once flamekit samples; flamekit is
#   stopped (SIGINT) once they have exited, so every CPU second is recorded;
# - an option that leaves something out is checked with a decoy that it must
#   leave out (another busy process, thread, user, cgroup, mount namespace);
# - a test looks only at what it started: its processes, the BPF objects of
#   its flamekit, its cgroup, its uid, its scratch directory.
# No assertion is on time: the waits are for events, with a guard against a
# hang of minutes.

record_dir=$SCRATCH/record
# Unique to this run of the suite (mktemp's part of the scratch directory's
# name), for what others could see: the comms of workloads that a test counts
# on the whole machine, where another run of the suite may be counting its
# own, and the name of the test's cgroup.
record_tag=${SCRATCH##*.}
record_hz=997
record_guard=120  # seconds before a run that does not end is stopped: a hang, not slowness

declare -A record_spawned=()   # name -> pid of a workload started stopped
declare -A record_running=()   # test id -> pid of a flamekit record
declare -A record_args=()      # test id -> its arguments, for messages
declare -A record_done=()      # test id -> 1 when its flamekit exited 0
declare -A record_reported=()  # test id -> 1 once passed or failed
record_why=""                  # why a test's set-up failed
record_idle=""                 # see record_idle_run

# Ids here are short (pid, tid, ...); the suite sees record/ID. A test
# function reports several ids (of one recording, or of one workload run):
# only those that TESTS_FILTER wants are counted.
record_pass() { record_reported[$1]=1; wanted "record/$1" && pass "record/$1"; }
record_fail() { record_reported[$1]=1; wanted "record/$1" && fail "record/$1" "$2"; }

# A test that cannot run here: skipped with the reason, but failed where CI
# runs the suite as root, since there every record test must run.
record_skip() { # id reason
	record_reported[$1]=1
	wanted "record/$1" || return 0
	if [[ -n ${CI:-} && $(id -u) == 0 ]]; then
		fail "record/$1" "$2 (CI runs the suite as root: the record tests must run)"
	else
		skip "record/$1" "$2"
	fi
}

# --- workloads ----------------------------------------------------------------

# record_exe NAME [WORKLOAD]: a copy of WORKLOAD (fk-7030) named NAME, whose
# samples carry comm NAME.
record_exe() {
	local exe=$record_dir/bin/$1
	[[ -x $exe ]] || cp "$record_dir/bin/${2:-fk-7030}" "$exe"
	echo "$exe"
}

# record_spawn NAME COMMAND...: starts COMMAND (a workload, or taskset,
# setpriv or unshare that exec one) stopped before its work (FK_STOP), with
# stdout and stderr in $record_dir/NAME.out and its CPU report in NAME.cpu;
# its pid in record_spawned[NAME]. Returns 1 (record_why says why) if it
# exits instead of stopping.
record_spawn() {
	local name=$1; shift
	rm -f "$record_dir/$name.cpu"
	FK_STOP=1 FK_CPU_REPORT=$record_dir/$name.cpu "$@" > "$record_dir/$name.out" 2>&1 &
	local pid=$! stat state tries=0
	record_spawned[$name]=$pid
	while :; do
		if ! read -r stat 2> /dev/null < "/proc/$pid/stat"; then
			record_why="$* exited before its work: $(head -c 300 "$record_dir/$name.out")"
			unset "record_spawned[$name]"
			wait "$pid"
			return 1
		fi
		state=${stat##*) } state=${state%% *}
		[[ $state == T ]] && return 0
		[[ $state == Z ]] && continue  # exited: read fails once it is reaped
		if (( ++tries > 15000 )); then  # 5 minutes
			record_why="$* did not stop itself (FK_STOP): state $state"
			return 1
		fi
		sleep 0.02
	done
}

# CPU seconds of comm NAME in a CPU report: user + system, or system only.
record_cpu() { # file name [system]
	awk -v name="$2" -v what="${3:-all}" '
		$1 == name { s += what == "system" ? $3 : $2 + $3 }
		END { printf "%.6f\n", s }' "$1" 2> /dev/null || echo 0
}

# --- running flamekit record --------------------------------------------------

# record_start ID ARGS...: flamekit record ARGS (no duration: record_finish
# stops it) in the background, stdout and stderr in $record_dir/ID.out and
# ID.err; returns once it samples (its "Sampling ..." line, --off-cpu's
# "Tracing ...", comes after the BPF program is attached), or fails ID and
# returns 1 if it exits first.
# "${record_via[@]}", when a caller sets it, is the command that runs
# flamekit (e.g. in a mount namespace).
record_start() {
	local id=$1; shift
	local err=$record_dir/$id.err
	: > "$err"
	${record_via+"${record_via[@]}"} "$BUILD/flamekit" record "$@" > "$record_dir/$id.out" 2> "$err" &
	local pid=$!
	record_args[$id]="$*"
	until grep -Eq '^(Sampling|Tracing) ' "$err"; do
		if ! kill -0 "$pid" 2> /dev/null; then
			wait "$pid"
			local rc=$?
			record_fail "$id" "flamekit record $* exited $rc before sampling: $(tail -n 2 "$err" | tr '\n' ' ')"
			return 1
		fi
		sleep 0.05
	done
	record_running[$id]=$pid
}

# record_wait PID: waits for a flamekit started in the background (at most
# $record_guard s: a hang, not slowness; then it is killed) and sets
# record_rc to its exit status, or "hang".
record_wait() {
	local tries
	for ((tries = 0; tries < record_guard * 20; tries++)); do
		kill -0 "$1" 2> /dev/null || break
		sleep 0.05
	done
	if ((tries == record_guard * 20)); then
		kill -KILL "$1"
		wait "$1"
		record_rc=hang
		return
	fi
	wait "$1"
	record_rc=$?
}

# Lets the stopped workloads run, waits until they have exited, then stops
# every running flamekit record with SIGINT: record_done[ID] if it exited 0,
# else ID fails (also if it has not stopped $record_guard s after SIGINT).
record_finish() {
	local name id rc
	for name in "${!record_spawned[@]}"; do kill -CONT "${record_spawned[$name]}" 2> /dev/null; done
	for name in "${!record_spawned[@]}"; do wait "${record_spawned[$name]}"; done
	record_spawned=()
	for id in "${!record_running[@]}"; do kill -INT "${record_running[$id]}"; done
	for id in "${!record_running[@]}"; do
		record_wait "${record_running[$id]}"
		if [[ $record_rc == hang ]]; then
			record_fail "$id" "flamekit record ${record_args[$id]} went on after SIGINT: killed $record_guard s later"
			continue
		fi
		rc=$record_rc
		if [[ $rc == 0 ]]; then
			record_done[$id]=1
		else
			record_fail "$id" "flamekit record ${record_args[$id]} exited $rc: $(tail -n 2 "$record_dir/$id.err" | tr '\n' ' ')"
		fi
	done
	record_running=()
}

# After a test: what a failed set-up left behind is killed (workloads) or
# stopped (flamekit).
record_reap() {
	local name
	for name in "${!record_spawned[@]}"; do
		kill -KILL "${record_spawned[$name]}" 2> /dev/null
		wait "${record_spawned[$name]}"
	done
	record_spawned=()
	(( ${#record_running[@]} == 0 )) || record_finish
}

# record_run ID ARGS...: flamekit record ARGS to the end (a duration or a
# command given), output as record_start's; fails ID and returns 1 unless it
# exits 0. A run that does not end is stopped after $record_guard seconds.
record_run() {
	local id=$1; shift
	# (-k: a flamekit that does not take SIGTERM either is killed)
	timeout -k 10 "$record_guard" "$BUILD/flamekit" record "$@" > "$record_dir/$id.out" 2> "$record_dir/$id.err"
	local rc=$?
	if [[ $rc == 124 || $rc == 137 ]]; then
		record_fail "$id" "flamekit record $* did not end: stopped after $record_guard s"
		return 1
	elif [[ $rc != 0 ]]; then
		record_fail "$id" "flamekit record $* exited $rc: $(tail -n 2 "$record_dir/$id.err" | tr '\n' ' ')"
		return 1
	fi
}

# --- judging folded stacks ----------------------------------------------------
# Each prints what is wrong, nothing when all is right.

# Samples of comm NAME in folded FILE.
record_samples() { # file name
	awk -v name="$2" '{ n = $NF; sub(/ [0-9]+$/, ""); split($0, f, ";"); if (f[1] == name) s += n }
		END { printf "%.0f\n", s }' "$1"
}

# N is within 10% of EXPECTED (> 0).
record_near() { # n expected
	awk -v n="$1" -v e="$2" 'BEGIN { exit !(e > 0 && n >= 0.9 * e && n <= 1.1 * e) }'
}

# NAME has RATE × its CPU seconds samples in FILE, ±10%.
record_check_samples() { # file name cpu-seconds [rate]
	local rate=${4:-$record_hz} samples expected
	samples=$(record_samples "$1" "$2")
	expected=$(awk -v c="$3" -v r="$rate" 'BEGIN { printf "%.0f", c * r }')
	record_near "$samples" "$expected" ||
		echo "$2 has $samples samples, expected $expected ± 10% ($rate Hz × $3 s of CPU it used); "
}

# Every line of FILE is of a comm matching REGEX.
record_check_only() { # file regex
	local other; other=$(awk -v re="^($2)\$" '{ c = $0; sub(/[; ].*/, "", c); if (c !~ re) { print; exit } }' "$1")
	[[ -z $other ]] || echo "a sample of another task: $(echo "$other" | cut -c 1-200); "
}

# seventy() has 70 ± 5% of the samples of seventy() and thirty() of comm NAME
# (~2000 samples put ±5 at five standard errors).
record_check_share() { # file name
	awk -v name="$2" '
		{ n = $NF; sub(/ [0-9]+$/, ""); split($0, f, ";"); if (f[1] != name) next }
		/;seventy$/ { x += n } /;thirty$/ { y += n }
		END {
			if (x + y == 0) printf "no samples in seventy() or thirty() of %s; ", name
			else if (100 * x / (x + y) < 65 || 100 * x / (x + y) > 75)
				printf "seventy() has %.1f%% of seventy+thirty of %s, expected 70 ± 5; ", 100 * x / (x + y), name
		}' "$1"
}

# --- judging off-CPU time --------------------------------------------------------

# Microseconds off CPU of comm fk-offcpu in folded FILE whose blocked stack
# (the part before a "--" frame) has the frame FUNCTION; without FUNCTION,
# all of them.
record_blocked() { # file [function]
	awk -v fn="${2:-}" '
		{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); if (f[1] != "fk-offcpu") next
		  hit = fn == ""; for (i = 2; i <= k && f[i] != "--"; i++) if (f[i] == fn) hit = 1
		  if (hit) s += n }
		END { printf "%.0f\n", s }' "$1"
}

# The workload's own account of NAME's blocks (fk-offcpu's FK_BLOCK_REPORT):
# microseconds; with WHAT "blocks" their number, "1ms" and "5ms" the
# microseconds in blocks of 1 ms and 5 ms or more, "under-5ms" the rest.
record_block_report() { # file name [what]
	awk -v name="$2" -v what="${3:-us}" '
		$1 == name { s += what == "blocks" ? $3 : what == "1ms" ? $4 : what == "5ms" ? $5 : what == "under-5ms" ? $2 - $5 : $2 }
		END { printf "%.0f\n", s }' "$1" 2> /dev/null || echo 0
}

# N is within 5% of EXPECTED (> 0).
record_near5() { # n expected
	awk -v n="$1" -v e="$2" 'BEGIN { exit !(e > 0 && n >= 0.95 * e && n <= 1.05 * e) }'
}

# The colour of the frames titled NAME in an SVG: "aqua" (--colors chain's
# wakers), "blue" (io, and chain's blocked frames), or their rgb() values.
record_svg_fill() { # svg name
	sed -n "s/.*<title>$2 ([^<]*<\/title><rect [^>]*fill=\"rgb(\([0-9,]*\))\".*/\1/p" "$1" | sort -u | awk -F, '
		{ kind = $2 == $3 && $3 > $1 ? "aqua" : $1 == $2 && $3 > $2 ? "blue" : "rgb(" $0 ")"
		  if (seen != "" && seen != kind) kind = seen "+" kind; seen = kind }
		END { print seen == "" ? "none" : seen }'
}

# FUNCTION's blocked time in FILE is its own account's ±5% (of the blocks
# of WHAT: see record_block_report).
record_check_blocked() { # file report function [what]
	local got want
	got=$(record_blocked "$1" "$3") want=$(record_block_report "$2" "$3" "${4:-us}")
	record_near5 "$got" "$want" ||
		echo "$3() was off CPU $got us, the workload timed $want us${4:+ in blocks ${4/-/ }} (± 5%); "
}

# record_judge ID PROBLEMS: passes ID if nothing is wrong.
record_judge() {
	if [[ -z $2 ]]; then record_pass "$1"; else record_fail "$1" "${2%; }"; fi
}

# --- the tests ------------------------------------------------------------------

# -p: the process, all of it, at the rate asked for, with the known profile;
# not the decoy beside it
record_test_pid() {
	record_spawn fk-pid "$(record_exe fk-pid)" 2 &&
		record_spawn fk-pid-decoy "$(record_exe fk-pid-decoy)" 1 || return
	record_start pid -F $record_hz -f -p "${record_spawned[fk-pid]}"
	record_finish
	[[ -n ${record_done[pid]:-} ]] || return
	local out=$record_dir/pid.out
	record_judge pid "$(record_check_only "$out" fk-pid)$(record_check_share "$out" fk-pid)$(
		record_check_samples "$out" fk-pid "$(record_cpu "$record_dir/fk-pid.cpu" fk-pid)")"
}

# -c: one sample per 1234567 ns of CPU time, 810 per CPU second (not -F's
# 49 or 997). The period is out of step with the scheduler's tick: one in
# step (2 ms on a 250 Hz kernel) samples the task that the tick is about to
# switch out, and a busy machine gave 5 to 23% too many samples.
record_test_count() {
	record_spawn fk-count "$(record_exe fk-count)" 1 || return
	record_start count -c 1234567 -f -p "${record_spawned[fk-count]}"
	record_finish
	[[ -n ${record_done[count]:-} ]] || return
	record_judge count "$(record_check_only "$record_dir/count.out" fk-count)$(record_check_samples \
		"$record_dir/count.out" fk-count "$(record_cpu "$record_dir/fk-count.cpu" fk-count)" 810.0005)"
}

# -L: the thread, not the busy thread beside it in the same process
record_test_tid() {
	record_spawn fk-threads "$record_dir/bin/fk-threads" 1 || return
	local tid; tid=$(awk '$1 == "fk-target" { print $2 }' "$record_dir/fk-threads.out")
	record_start tid -F $record_hz -f -L "$tid"
	record_finish
	[[ -n ${record_done[tid]:-} ]] || return
	record_judge tid "$(record_check_only "$record_dir/tid.out" fk-target)$(record_check_samples \
		"$record_dir/tid.out" fk-target "$(record_cpu "$record_dir/fk-threads.cpu" fk-target)")"
}

# -- COMMAND: the command, all of it, and flamekit stops when it exits (no
# duration given); its children; a command that cannot run
record_test_command() {
	local cpu=$record_dir/command.cpu
	rm -f "$cpu"
	# (before exec, the command is a child of flamekit with its comm)
	if FK_CPU_REPORT=$cpu record_run command -F $record_hz -f -- "$(record_exe fk-command)" 2; then
		local out=$record_dir/command.out
		record_judge command "$(record_check_only "$out" 'fk-command|flamekit')$(
			record_check_share "$out" fk-command)$(record_check_samples "$out" fk-command "$(record_cpu "$cpu" fk-command)")"
	fi

	cpu=$record_dir/command-children.cpu
	rm -f "$cpu"
	if FK_CPU_REPORT=$cpu record_run command-children -F $record_hz -f -- \
		sh -c '"$0" 1; true' "$(record_exe fk-child)"; then
		local out=$record_dir/command-children.out
		record_judge command-children "$(record_check_only "$out" 'fk-child|sh|flamekit')$(
			record_check_samples "$out" fk-child "$(record_cpu "$cpu" fk-child)")"
	fi

	"$BUILD/flamekit" record -- /nonexistent/cmd > /dev/null 2> "$record_dir/command-missing.err"
	local rc=$?
	if [[ $rc == 0 ]]; then
		record_fail command-missing "exit 0 for a command that does not exist"
	elif grep -q 'cannot run /nonexistent/cmd: No such file' "$record_dir/command-missing.err"; then
		record_pass command-missing
	else
		record_fail command-missing "exit $rc: $(head -n 1 "$record_dir/command-missing.err")"
	fi
}

# -U, -K, -d with a workload that spends about half its CPU time in read(2):
# -U has none of its kernel frames, -K none of its user frames, -d puts "-"
# between the two; three recordings of the same run
record_test_stacks() {
	record_spawn fk-syscall "$record_dir/bin/fk-syscall" 1 || return
	local pid=${record_spawned[fk-syscall]}
	record_start user-only -U -a -F $record_hz -f -p "$pid"
	record_start kernel-only -K -a -F $record_hz -f -p "$pid"
	record_start delimited -d -a -F $record_hz -f -p "$pid"
	record_finish
	local report=$record_dir/fk-syscall.cpu problems
	local cpu system
	cpu=$(record_cpu "$report" fk-syscall) system=$(record_cpu "$report" fk-syscall system)
	# without time in the kernel, no option could show anything
	local precondition
	precondition=$(awk -v c="$cpu" -v s="$system" 'BEGIN {
		if (c <= 0 || s / c < 0.25) printf "fk-syscall spent %.3f of %.3f CPU seconds in the kernel, too few to judge; ", s, c }')

	local out=$record_dir/user-only.out
	if [[ -n ${record_done[user-only]:-} ]]; then
		problems=$precondition$(record_check_only "$out" fk-syscall)$(record_check_samples "$out" fk-syscall "$cpu")
		grep -q '_\[k\]' "$out" && problems+="kernel frames: $(grep -m1 '_\[k\]' "$out" | cut -c 1-200); "
		# the user stacks of both halves: in_user(), and read() (whose caller
		# in_kernel() a frame-pointer walk from libc's read() skips)
		grep -q ';main;in_user [0-9]*$' "$out" && grep -Eq ';(main|in_kernel);[^;]*read[^;]* [0-9]+$' "$out" ||
			problems+="no user stacks ending in in_user() and in read(): $(head -n 3 "$out" | cut -c 1-200); "
		record_judge user-only "$problems"
	fi

	out=$record_dir/kernel-only.out
	if [[ -n ${record_done[kernel-only]:-} ]]; then
		problems=$precondition$(record_check_only "$out" fk-syscall)$(record_check_samples "$out" fk-syscall "$cpu")
		# every frame after the comm is a kernel frame
		problems+=$(awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";")
			for (i = 2; i <= n; i++) if (f[i] !~ /_\[k\]$/) { printf "a user frame: %s; ", substr($0, 1, 200); exit } }' "$out")
		# the samples in the kernel have kernel stacks through read(2)
		problems+=$(awk -v hz=$record_hz -v s="$system" '
			/;[^;]*read[^;]*_\[k\]/ { n += $NF }
			END { if (n < 0.5 * hz * s) printf "%d samples in read(2), expected about %.0f (%s Hz × %.3f s in the kernel); ", n, hz * s, hz, s }' "$out")
		record_judge kernel-only "$problems"
	fi

	out=$record_dir/delimited.out
	if [[ -n ${record_done[delimited]:-} ]]; then
		problems=$precondition$(record_check_only "$out" fk-syscall)$(record_check_samples "$out" fk-syscall "$cpu")
		# one "-", between the last user frame and the first kernel frame
		problems+=$(awk '{ line = $0; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); seen_k = 0; d = 0
			for (i = 2; i <= n; i++) {
				if (f[i] == "-") { d++; if (seen_k || i == 2 || i == n || f[i+1] !~ /_\[k\]$/ || f[i-1] ~ /_\[k\]$/) bad = line }
				else if (f[i] ~ /_\[k\]$/) { if (!d && i > 2 && f[i-1] !~ /_\[k\]$/) bad = line; seen_k = 1 }
			}
			if (d > 1) bad = line; if (d) delimited++ }
			END { if (bad != "") printf "a misplaced \"-\": %s; ", substr(bad, 1, 200)
				else if (!delimited) print "no \"-\" between user and kernel frames; " }' "$out")
		record_judge delimited "$problems"
	fi
}

# -I: the idle task when asked for, and not otherwise; each judged only if
# some CPU was idle while flamekit sampled (a machine kept busy by others has
# no idle task to sample)
record_test_idle() {
	record_idle_run -I || return
	if [[ $record_idle == busy ]]; then
		record_skip idle "no CPU was idle during the -I run (the machine is busy)"
	elif [[ $record_idle == 0 ]]; then
		record_fail idle "no swapper/N stacks with -I, though a CPU was idle"
	elif record_idle_run; then
		if [[ $record_idle == busy ]]; then
			record_skip idle "no CPU was idle during the run without -I (the machine is busy)"
		elif [[ $record_idle != 0 ]]; then
			record_fail idle "$record_idle samples of the idle task without -I"
		else
			record_pass idle
		fi
	fi
}

# record_idle_run [-I]: records the whole machine for a second; record_idle
# is then how many samples of the idle task it has, or "busy" if /proc/stat
# counted less than 0.1 s of idle time in that second. Returns 1 if flamekit
# failed (and record/idle with it).
record_idle_run() {
	local before after
	record_start idle "$@" -F $record_hz -f || return 1
	before=$(awk '/^cpu / { print $5 }' /proc/stat)
	sleep 1
	after=$(awk '/^cpu / { print $5 }' /proc/stat)
	record_finish
	[[ -n ${record_done[idle]:-} ]] || return 1
	unset "record_done[idle]"
	if (( after - before < 10 )); then  # USER_HZ
		record_idle=busy
	else
		record_idle=$(awk '/^swapper\// { n += $NF } END { printf "%.0f\n", n }' "$record_dir/idle.out")
	fi
}

# -C 0: what runs on CPU 0, not what runs on CPU 1
record_test_cpu() {
	if (( $(nproc) < 2 )); then
		record_skip cpu "one CPU only"
		return
	fi
	local cpu0=fk-cpu0-$record_tag cpu1=fk-cpu1-$record_tag
	record_spawn "$cpu0" taskset -c 0 "$(record_exe "$cpu0")" 1 &&
		record_spawn "$cpu1" taskset -c 1 "$(record_exe "$cpu1")" 1 || return
	record_start cpu -C 0 -F $record_hz -f
	record_finish
	[[ -n ${record_done[cpu]:-} ]] || return
	local problems
	problems=$(record_check_samples "$record_dir/cpu.out" "$cpu0" "$(record_cpu "$record_dir/$cpu0.cpu" "$cpu0")")
	[[ $(record_samples "$record_dir/cpu.out" "$cpu1") == 0 ]] ||
		problems+="$cpu1 (on CPU 1) has $(record_samples "$record_dir/cpu.out" "$cpu1") samples; "
	record_judge cpu "$problems"
}

# -u: a process of the user started after the recording began, not a busy
# process of root; the user is a uid that only this run of the suite uses
record_test_user() {
	local uid=$((2000000000 + ($$ * 32768 + RANDOM) % 100000000))
	local cpu=$record_dir/fk-user.cpu
	record_spawn fk-user-decoy "$(record_exe fk-user-decoy)" 1 || return
	: > "$cpu" && chmod 666 "$cpu"
	if record_start user -u "$uid" -F $record_hz -f; then
		# (setpriv itself runs as the user for a moment before it execs)
		FK_CPU_REPORT=$cpu setpriv --reuid="$uid" --regid="$uid" --clear-groups \
			"$(record_exe fk-user)" 1 > "$record_dir/fk-user.out" 2>&1 &
		record_spawned[fk-user]=$!
	fi
	record_finish
	[[ -n ${record_done[user]:-} ]] || return
	record_judge user "$(record_check_only "$record_dir/user.out" 'fk-user|setpriv')$(
		record_check_samples "$record_dir/user.out" fk-user "$(record_cpu "$cpu" fk-user)")"
}

# The outputs of one run, recorded four times at once: -f (read back by the
# folded reader and drawn whole by the flamegraph personality), -o x.svg,
# --outdir, -o report.txt; each holds every sample of the workload
record_test_outputs() {
	record_spawn fk-out "$(record_exe fk-out)" 2 || return
	local pid=${record_spawned[fk-out]}
	rm -rf "$record_dir/flames"
	record_start folded-reader -F $record_hz -f -p "$pid"
	record_start svg -F $record_hz -p "$pid" -o "$record_dir/x.svg"
	record_start outdir -F $record_hz -p "$pid" --outdir "$record_dir/flames"
	record_start report -F $record_hz -p "$pid" -o "$record_dir/report.txt"
	record_finish
	local cpu expected problems
	cpu=$(record_cpu "$record_dir/fk-out.cpu" fk-out)
	expected=$(awk -v c="$cpu" -v hz=$record_hz 'BEGIN { printf "%.0f", c * hz }')

	local out=$record_dir/folded-reader.out
	if [[ -n ${record_done[folded-reader]:-} ]]; then
		problems=$(record_check_only "$out" fk-out)$(record_check_samples "$out" fk-out "$cpu")
		"$BUILD/flamekit" collapse folded "$out" | cmp -s - "$out" ||
			problems+="collapse folded changed the output; "
		record_judge folded-reader "$problems"
		# ... and the flamegraph personality draws every sample
		local total drawn
		total=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$out")
		drawn=$("$BUILD/flamegraph" "$out" 2> /dev/null | sed -n 's/.*<title>all (\([0-9,]*\) samples.*/\1/p' | tr -d ,)
		if [[ $drawn == "$total" ]] && record_near "$total" "$expected"; then record_pass folded-flamegraph; else
			record_fail folded-flamegraph "flamegraph drew $drawn of $total samples, expected $expected ± 10%"; fi
	else
		record_fail folded-flamegraph "no folded output to draw (see record/folded-reader)"
	fi

	# -o x.svg: a well-formed SVG of the workload's functions and samples
	if [[ -n ${record_done[svg]:-} ]]; then
		if command -v python3 > /dev/null; then
			local drawn
			drawn=$(python3 -c 'import sys, xml.etree.ElementTree as ET
titles = [t.text for t in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}title")]
names = sorted({t.split(" (")[0] for t in titles if t.split(" (")[0] in ("seventy", "thirty", "main")})
total = [t for t in titles if t.startswith("all (")]
print(" ".join(names), total[0].split(" (")[1].split(" ")[0].replace(",", "") if total else 0)' \
				"$record_dir/x.svg" 2>&1)
			if [[ $drawn != "main seventy thirty "* ]]; then
				record_fail svg "frames of the workload in x.svg: $drawn"
			elif ! record_near "${drawn##* }" "$expected"; then
				record_fail svg "x.svg has ${drawn##* } samples, expected $expected ± 10%"
			else
				record_pass svg
			fi
		else
			record_skip svg "no python3 to parse the SVG (run ./setup.sh)"
		fi
	fi

	# --outdir: a flame graph and the raw stacks, named by host, time and pid
	if [[ -n ${record_done[outdir]:-} ]]; then
		local made total; made=$(cd "$record_dir/flames" && ls)
		total=$(gzip -dc "$record_dir/flames/"*.folded.gz 2> /dev/null | awk '{ n += $NF } END { printf "%.0f\n", n }')
		if ! [[ $made =~ ^[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$pid\.folded\.gz$'\n'[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$pid\.svg$ ]]; then
			record_fail outdir "made: $made"
		elif ! gzip -t "$record_dir/flames/"*.folded.gz || ! grep -q '<title>seventy (' "$record_dir/flames/"*.svg; then
			record_fail outdir "no whole .folded.gz, or no seventy() in the SVG"
		elif ! record_near "$total" "$expected"; then
			record_fail outdir "the .folded.gz has $total samples, expected $expected ± 10%"
		else
			record_pass outdir
		fi
	fi

	# -o report.txt: bcc's report, every sample in it, under the process
	if [[ -n ${record_done[report]:-} ]]; then
		local said counted
		said=$(sed -n 's/^flamekit: \([0-9]*\) samples.*/\1/p' "$record_dir/report.err")
		counted=$("$BUILD/flamekit" collapse bcc "$record_dir/report.txt" | awk '{ n += $NF } END { printf "%.0f\n", n }')
		if ! grep -q "^    -                fk-out ($pid)\$" "$record_dir/report.txt"; then
			record_fail report "no \"- fk-out ($pid)\" line: $(head -n 3 "$record_dir/report.txt" | tr '\n' ' ')"
		elif [[ $said != "$counted" ]] || ! record_near "$counted" "$expected"; then
			record_fail report "the report holds $counted samples, flamekit says $said, expected $expected ± 10%"
		else
			record_pass report
		fi
	fi
}

# The kernel symbol cache: written (in a 0700 directory) by the first run of
# the boot, read by the next; names from it are the kernel's text symbols
record_test_kernel_cache() {
	rm -rf "$FLAMEKIT_CACHE_DIR"
	FK_CPU_REPORT='' "$(record_exe fk-cache fk-syscall)" 600 & local busy=$!
	if record_run kernel-cache -K -a -f -p "$busy" 1 && record_run kernel-cache -K -a -f -p "$busy" 1; then
		local names=$record_dir/kernel-names missing
		grep -o '[^;]*_\[k\]' "$record_dir/kernel-cache.out" | sed 's/_\[k\]$//' | sort -u > "$names"
		missing=$(awk '$2 ~ /^[tTwW]$/ { print $3 }' /proc/kallsyms | sort -u | comm -23 "$names" -)
		if [[ $(stat -c %a "$FLAMEKIT_CACHE_DIR") != 700 || ! -s $FLAMEKIT_CACHE_DIR/kallsyms ]]; then
			record_fail kernel-cache "no cache in a 0700 $FLAMEKIT_CACHE_DIR: $(ls -la "$FLAMEKIT_CACHE_DIR" 2>&1 | head -3)"
		elif [[ ! -s $names || -n $missing ]]; then
			record_fail kernel-cache "$(wc -l < "$names") kernel names, not in /proc/kallsyms: $(echo "$missing" | tr '\n' ' ' | head -c 200)"
		else
			record_pass kernel-cache
		fi
	fi
	kill "$busy"; wait "$busy"
}

# BPF programs' functions named from the programs (symbolize/bpf_functions.h),
# not from all of kallsyms, where they come last: while a recording holds
# record's programs loaded, tests/bpf_functions_dump.c lists every [bpf]
# line of /proc/kallsyms, address and name, and no other; then, with a
# symbol cache of this boot and a kallsyms without those lines, an address
# inside each function has its kallsyms name, and kernel addresses the
# names kallsyms gave them (so the BPF names came from the programs).
# kernel_names_helper DIR TEST: tests/bpf_functions_dump.c built as DIR/dump
# against the build's objects, or TEST failed.
kernel_names_helper() {
	if ! cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$1/dump" "$TOP/tests/bpf_functions_dump.c" \
		"$BUILD"/obj/symbolize/{bpf_functions,kernel_symbols}.o \
		"$BUILD"/obj/lib/{buf,xalloc,error,output,sysctl,gzip}.o -lbpf -lisal -ldeflate -lz -lxxhash 2> "$1/cc.err"; then
		record_fail "$2" "tests/bpf_functions_dump.c does not build: $(head -n 3 "$1/cc.err" | tr '\n' ' ')"
		return 1
	fi
}

record_test_bpf_names() {
	local d=$record_dir/bpf-names problems="" tries
	mkdir -p "$d/cache"
	kernel_names_helper "$d" bpf-names || return
	"$BUILD/flamekit" record -F 49 -f -o "$d/record.folded" -p $$ 60 2> "$d/record.err" & local recording=$!
	for ((tries = 0; tries < 100; tries++)); do
		grep -q '^Sampling' "$d/record.err" && break
		sleep 0.1
	done
	for ((tries = 0; tries < 3; tries++)); do  # (programs of others may come and go meanwhile)
		awk '$4 == "[bpf]" { print $1, $3 }' /proc/kallsyms | sort > "$d/want"
		"$d/dump" 2> "$d/dump.err" | sort > "$d/got"
		cmp -s "$d/want" "$d/got" && break
	done
	grep -v '\[bpf\]$' /proc/kallsyms > "$d/kallsyms"
	awk '$2 ~ /^[tT]$/ && NF == 3 && NR % 400 == 0 { print $1 }' "$d/kallsyms" > "$d/kernel-addresses"
	python3 -c 'import sys
for line in sys.stdin:
    address, name = line.split()
    print("%016x %s" % (int(address, 16) + 1, name))' < "$d/want" > "$d/bpf-expected"
	awk '{ print $1 }' "$d/bpf-expected" > "$d/bpf-addresses"
	"$d/dump" "$d/kallsyms" "$d/cache/kallsyms" < "$d/kernel-addresses" > "$d/kernel-names" 2>> "$d/dump.err"
	cat "$d/kernel-addresses" "$d/bpf-addresses" |
		"$d/dump" "$d/kallsyms" "$d/cache/kallsyms" > "$d/names" 2>> "$d/dump.err"
	kill -INT "$recording"; wait "$recording"
	if ! grep -q '_do_sample$' "$d/want"; then
		problems="no bpf_prog_..._do_sample line in /proc/kallsyms while recording: $(head -n 3 "$d/record.err" | tr '\n' ' ')"
	elif ! cmp -s "$d/want" "$d/got"; then
		problems="kallsyms and the programs differ: $(diff "$d/want" "$d/got" | grep '^[<>]' | head -n 4 | tr '\n' ' ')$(head -c 200 "$d/dump.err")"
	elif [[ ! -s $d/cache/kallsyms ]]; then
		problems="no cache written: $(head -c 200 "$d/dump.err")"
	else
		problems=$(awk 'FILENAME == ARGV[1] { kernel[$1] = $2; next }
			FILENAME == ARGV[2] { bpf[$1] = $2; next }
			($1 in bpf) { n++; if ($2 != bpf[$1]) { printf "%s named %s, kallsyms: %s; ", $1, $2, bpf[$1]; exit } next }
			($1 in kernel) { k++; if ($2 != kernel[$1]) { printf "%s named %s from the cache, %s from kallsyms; ", $1, $2, kernel[$1]; exit } }
			END { if (n == 0 || k < 50) printf "%d BPF and %d kernel addresses named; ", n, k }' \
			"$d/kernel-names" "$d/bpf-expected" "$d/names")
	fi
	record_judge bpf-names "$problems"
}

# Modules' symbols from the modules' cache (symbolize/kernel_symbols.h),
# written in the pass over kallsyms that named them and read while the
# modules loaded are the same: a kallsyms of this kernel's own lines and two
# made-up modules above them (the second listed first, as kallsyms lists
# the last loaded first, and above the kernel's own), with a /proc/modules
# of their places. Their addresses and the kernel's are named from that
# kallsyms, then again with no kallsyms to read (from the caches alone);
# with a module moved (its key changed) from the new kallsyms and then from
# the new cache; an address in no module still sends the run to kallsyms.
record_test_module_names() {
	local d=$record_dir/module-names problems="" step
	mkdir -p "$d/cache"
	kernel_names_helper "$d" module-names || return
	python3 - "$d" <<'PYTHON'
import sys
d = sys.argv[1]
own = [l for l in open("/proc/kallsyms") if len(l.split()) == 3]
# above the kernel's own text, below where modules and BPF programs lie
top = max(int(l.split()[0], 16) for l in own)
base = (top & ~0xfffff) + 0x1000000
# module: (size, [(offset, type, name)]); a data symbol and an alias too
modules = {
    "fkmod_a": (0x4000, [(0x0, "t", "fka_init"), (0x100, "T", "fka_read"), (0x800, "t", "fka_write"),
                         (0x2000, "t", "fka_tail"), (0x3000, "d", "fka_data")]),
    "fkmod_b": (0x2000, [(0x0, "T", "fkb_one"), (0x400, "t", "fkb_two"), (0x400, "T", "fkb_two_alias")]),
}
kernel = [int(l.split()[0], 16) for l in own if l.split()[1] in "tT"][::500]
def write(name, places):
    with open(f"{d}/kallsyms-{name}", "w") as f, open(f"{d}/modules-{name}", "w") as m, \
         open(f"{d}/expected-{name}", "w") as e:
        f.writelines(own)
        for module in ("fkmod_b", "fkmod_a"):
            size, symbols = modules[module]
            for offset, kind, symbol in symbols:
                f.write("%016x %s %s\t[%s]\n" % (places[module] + offset, kind, symbol, module))
            m.write("%s %d 0 - Live 0x%016x\n" % (module, size, places[module]))
        texts = sorted(((a, t, n) for a, t, n in (l.split()[:3] for l in own)), key=lambda x: int(x[0], 16))
        for address in kernel:
            e.write("%016x %s\n" % (address, next(n for a, t, n in texts if int(a, 16) == address)))
        for module in ("fkmod_a", "fkmod_b"):
            size, symbols = modules[module]
            code = [(o, n) for o, t, n in symbols if t in "tT"]
            for at in (0x0, 0x150, 0x401, size // 2 + 0x100, size - 1):
                below = max(o for o, n in code if o <= at)
                first = next(n for o, n in code if o == below)  # of one address, the first listed
                e.write("%016x %s\n" % (places[module] + at, first))
    with open(f"{d}/outside-{name}", "w") as o:
        o.write("%016x\n" % (places["fkmod_a"] + 0x80000))
write("first", {"fkmod_a": base, "fkmod_b": base + 0x100000})
write("moved", {"fkmod_a": base, "fkmod_b": base + 0x200000})
PYTHON
	for step in "first kallsyms-first" "first none" "moved kallsyms-moved" "moved none"; do
		set -- $step
		awk '{ print $1 }' "$d/expected-$1" |
			"$d/dump" "$d/$2" "$d/cache/kallsyms" "$d/modules-$1" > "$d/names-$1-$2" 2> "$d/dump-$1-$2.err"
		if ! cmp -s "$d/expected-$1" "$d/names-$1-$2"; then
			problems+="modules $1, kallsyms $2: $(diff "$d/expected-$1" "$d/names-$1-$2" | grep '^[<>]' | head -n 4 | tr '\n' ' ')$(head -c 200 "$d/dump-$1-$2.err"); "
		fi
	done
	if [[ ! -s $d/cache/kallsyms-modules ]]; then
		problems+="no modules' cache written; "
	elif "$d/dump" "$d/none" "$d/cache/kallsyms" "$d/modules-moved" < "$d/outside-moved" > "$d/names-outside" 2> "$d/dump-outside.err" ||
		! grep -q 'cannot read' "$d/dump-outside.err"; then
		problems+="an address in no module was named without kallsyms: $(cat "$d/names-outside"); "
	fi
	record_judge module-names "$problems"
}

# The kernel's BTF cut down to the types record's BPF program relocates
# (sampler/core_btf.h): made in the cache directory by bpftool at the
# first run, then handed to libbpf, which then does not read the whole of
# /sys/kernel/btf/vmlinux (5.5 MB on Debian 12: once record's peak RSS)
record_test_core_btf() {
	local cache=$record_dir/core-btf-cache
	rm -rf "$cache"
	FLAMEKIT_CACHE_DIR=$cache record_run core-btf -v -F 99 -f -- "$record_dir/bin/fk-7030" 0.5 || return
	local cut=("$cache"/core-btf-*)
	if [[ ! -s ${cut[0]} ]]; then
		record_fail core-btf "no core-btf-* file in the cache: $(ls "$cache" | tr '\n' ' ')"
	elif grep -q "loading kernel BTF" "$record_dir/core-btf.err"; then
		record_fail core-btf "libbpf read the kernel's whole BTF: $(grep -m1 'loading kernel BTF' "$record_dir/core-btf.err")"
	elif ! grep -q "found target candidate" "$record_dir/core-btf.err"; then
		record_fail core-btf "libbpf relocated nothing: $(grep -m1 -i 'co-re' "$record_dir/core-btf.err")"
	elif [[ ! -s $record_dir/core-btf.out ]]; then
		record_fail core-btf "no stacks recorded"
	else
		record_pass core-btf
	fi
}

# SIGINT mid-run: exit 0 with a complete file, no temporary left
record_test_sigint() {
	local file=$record_dir/int.folded
	rm -f "$file" "$record_dir"/.int.folded.*
	record_start sigint -F $record_hz -o "$file" || return
	sleep 1
	record_finish
	[[ -n ${record_done[sigint]:-} ]] || return
	if [[ -s $file ]] && "$BUILD/flamekit" collapse folded "$file" > /dev/null 2>&1 &&
		! compgen -G "$record_dir/.int.folded.*" > /dev/null; then
		record_pass sigint
	else
		record_fail sigint "no whole $file, or a temporary left: $(compgen -G "$record_dir/.int.folded.*")"
	fi
}

# No sample lost with every CPU busy (one workload per CPU, up to 8) and
# everything sampled at 997 Hz: the workloads have all their samples (95% at
# least), whatever flamekit's own count of lost samples says
record_test_no_loss() {
	local cpus=$(($(nproc) < 8 ? $(nproc) : 8)) i names=()
	for ((i = 0; i < cpus; i++)); do
		names+=("fk-busy$i-$record_tag")
		record_spawn "${names[i]}" "$(record_exe "${names[i]}")" 2 || return
	done
	record_start no-loss -F $record_hz -f
	record_finish
	[[ -n ${record_done[no-loss]:-} ]] || return
	local samples=0 cpu=0 name
	for name in "${names[@]}"; do
		samples=$((samples + $(record_samples "$record_dir/no-loss.out" "$name")))
		cpu=$(awk -v a="$cpu" -v b="$(record_cpu "$record_dir/$name.cpu" "$name")" 'BEGIN { print a + b }')
	done
	local problems
	problems=$(awk -v n="$samples" -v c="$cpu" -v hz=$record_hz -v k="$cpus" 'BEGIN {
		if (n < 0.95 * hz * c || n > 1.05 * hz * c)
			printf "%d workloads have %d samples, expected %.0f (95%% at least: %s Hz × %.3f s of CPU they used); ", k, n, hz * c, hz, c }')
	grep -q '^flamekit: [0-9]* samples, .*; 0 lost$' "$record_dir/no-loss.err" ||
		problems+="flamekit says: $(grep -m1 -e samples -e lost "$record_dir/no-loss.err"); "
	record_judge no-loss "$problems"
}

# --cgroupmap: tasks in the cgroups of a pinned hash of cgroup ids (bcc's
# layout: bpftool map create ... type hash key 8 value 8); a workload in a
# cgroup of its own, a decoy outside it. The map is pinned in a bpffs mounted
# in a mount namespace of flamekit's own, gone with it.
record_test_cgroupmap() {
	local root cgroup
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	if [[ -z $root ]]; then
		record_skip cgroupmap "no cgroup2 hierarchy mounted"
		return
	fi
	cgroup=$root/flamekit-test.$record_tag
	if ! mkdir "$cgroup"; then
		record_fail cgroupmap "cannot make the cgroup $cgroup"
		return
	fi
	if record_spawn fk-in-cgroup "$(record_exe fk-in-cgroup)" 1 &&
		record_spawn fk-out-cgroup "$(record_exe fk-out-cgroup)" 1; then
		if echo "${record_spawned[fk-in-cgroup]}" > "$cgroup/cgroup.procs"; then
			local record_via
			record_map_via cgroupmap 8 "$(stat -c %i "$cgroup")" 8
			record_start cgroupmap -F $record_hz -f --cgroupmap "$record_dir/bpffs/filter"
		else
			record_fail cgroupmap "cannot move the workload into $cgroup"
		fi
	fi
	record_finish
	rmdir "$cgroup" || record_fail cgroupmap "cannot remove the cgroup $cgroup"
	[[ -n ${record_done[cgroupmap]:-} ]] || return
	record_judge cgroupmap "$(record_check_only "$record_dir/cgroupmap.out" fk-in-cgroup)$(record_check_samples \
		"$record_dir/cgroupmap.out" fk-in-cgroup "$(record_cpu "$record_dir/fk-in-cgroup.cpu" fk-in-cgroup)")"
}

# --mntnsmap: tasks in the mount namespaces of a pinned hash of their ids
# (bcc's layout: key 8, value 4); a workload in a mount namespace of its own
# (unshare -m), a decoy in the suite's
record_test_mntnsmap() {
	record_spawn fk-in-mntns unshare -m --propagation private "$(record_exe fk-in-mntns)" 1 &&
		record_spawn fk-out-mntns "$(record_exe fk-out-mntns)" 1 || return
	local record_via
	record_map_via mntnsmap 8 "$(stat -L -c %i "/proc/${record_spawned[fk-in-mntns]}/ns/mnt")" 4
	record_start mntnsmap -F $record_hz -f --mntnsmap "$record_dir/bpffs/filter"
	record_finish
	[[ -n ${record_done[mntnsmap]:-} ]] || return
	record_judge mntnsmap "$(record_check_only "$record_dir/mntnsmap.out" fk-in-mntns)$(record_check_samples \
		"$record_dir/mntnsmap.out" fk-in-mntns "$(record_cpu "$record_dir/fk-in-mntns.cpu" fk-in-mntns)")"
}

# Sets record_via (see record_start) to run flamekit in a mount namespace of
# its own, where $record_dir/bpffs is a bpffs holding "filter": a hash map
# with one key, ID as KEY-SIZE bytes of the host's byte order, and a zero
# value of VALUE-SIZE bytes.
record_map_via() { # test key-size id value-size
	local hex key="" value="" i
	hex=$(printf "%0$(($2 * 2))x" "$3")
	for ((i = 0; i < $2; i++)); do
		if [[ $(printf '\1\0' | od -An -tu2) == *" 1" ]]; then  # little-endian
			key="${hex:i * 2:2} $key"
		else
			key+="${hex:i * 2:2} "
		fi
	done
	for ((i = 0; i < $4; i++)); do value+="00 "; done
	mkdir -p "$record_dir/bpffs"
	record_via=(unshare -m --propagation private sh -c '
		mount -t bpf bpf "$1" &&
		"$2" map create "$1/filter" type hash key "$3" value "$4" entries 16 name "$5" &&
		"$2" map update pinned "$1/filter" key hex $6 value hex $7 || exit
		shift 7 && exec "$@"' sh "$record_dir/bpffs" "$record_bpftool" "$2" "$4" "fk_$1" "$key" "$value")
}

# --off-cpu, against fk-offcpu's own account of its blocks (it times each
# one): its main thread blocks 7 ms in seventy(), 3 ms in thirty() (woken by
# feed() of its feeder thread) and 0.1 ms in brief(), 300 times each. Five
# recordings of one run:
# - -f: each function's off-CPU time within 5% of what the workload timed,
#   seventy()'s share of seventy + thirty within 5 points of the workload's,
#   and all of the main thread's within 5% of the workload's total;
# - --min-block 1000: no brief() (but for blocks that the workload timed at
#   1 ms or more: a loaded machine delays some), seventy() and thirty() whole;
# - --max-block 5000: no seventy() (1% of it at most: preemptions),
#   thirty()'s blocks under 5 ms whole;
# - --wakeups: thirty()'s blocks have feed() of fk-feeder as their waker
#   (after a "--" frame, marked _[w]); seventy()'s, woken by a timer, do not;
# - -o x.svg: counts in us, as many as the folded output's; with --wakeups
#   the wakers' frames marked _[w] once (the SVG hides one mark, as
#   flamegraph.pl does, and colours the marked frames aqua, the others blue);
# - -o x.txt: bcc offcputime's report, its header saying the unit, read back
#   by collapse bcc as the folded output.
record_test_off_cpu() {
	local report=$record_dir/fk-offcpu.blocks
	rm -f "$report"
	record_spawn fk-offcpu env FK_BLOCK_REPORT="$report" "$record_dir/bin/fk-offcpu" || return
	local pid=${record_spawned[fk-offcpu]}
	record_start off-cpu --off-cpu -f -p "$pid"
	record_start off-cpu-min-block --off-cpu --min-block 1000 -f -p "$pid"
	record_start off-cpu-max-block --off-cpu --max-block 5000 -f -p "$pid"
	record_start off-cpu-wakeups --off-cpu --wakeups -f -p "$pid"
	record_start off-cpu-svg --off-cpu -p "$pid" -o "$record_dir/off-cpu.svg"
	record_start off-wake-svg --off-cpu --wakeups -p "$pid" -o "$record_dir/off-wake.svg"
	record_start off-cpu-report --off-cpu -p "$pid" -o "$record_dir/off-cpu.txt"
	record_finish
	local problems precondition="" total
	[[ $(record_block_report "$report" seventy blocks) == 300 && $(record_block_report "$report" thirty blocks) == 300 ]] ||
		precondition="the workload did not time its 300 blocks of each kind: $(tr '\n' ' ' < "$report" 2> /dev/null); "
	total=$(awk '$1 == "seventy" || $1 == "thirty" || $1 == "brief" { s += $2 } END { printf "%.0f\n", s }' "$report" 2> /dev/null)

	local out=$record_dir/off-cpu.out
	if [[ -n ${record_done[off-cpu]:-} ]]; then
		problems=$precondition$(record_check_only "$out" 'fk-offcpu|fk-feeder')
		problems+=$(record_check_blocked "$out" "$report" seventy)$(record_check_blocked "$out" "$report" thirty)
		problems+=$(awk -v x="$(record_blocked "$out" seventy)" -v y="$(record_blocked "$out" thirty)" \
			-v wx="$(record_block_report "$report" seventy)" -v wy="$(record_block_report "$report" thirty)" 'BEGIN {
			share = x + y ? 100 * x / (x + y) : 0; want = wx + wy ? 100 * wx / (wx + wy) : 0
			if (share < want - 5 || share > want + 5)
				printf "seventy() has %.1f%% of seventy + thirty, the workload timed %.1f%% (± 5); ", share, want }')
		local all; all=$(record_blocked "$out")
		record_near5 "$all" "$total" ||
			problems+="fk-offcpu was off CPU $all us, the workload timed $total us blocked (± 5%); "
		record_judge off-cpu "$problems"
	fi

	out=$record_dir/off-cpu-min-block.out
	if [[ -n ${record_done[off-cpu-min-block]:-} ]]; then
		problems=$precondition$(record_check_blocked "$out" "$report" seventy)$(record_check_blocked "$out" "$report" thirty)
		local brief long seen
		brief=$(record_blocked "$out" brief) long=$(record_block_report "$report" brief 1ms)
		awk -v b="$brief" -v l="$long" 'BEGIN { exit !(b <= 1.05 * l + 100) }' ||
			problems+="brief() was off CPU $brief us in blocks of 1 ms or more; the workload timed $long us of them; "
		# (without --min-block, its short blocks are there to leave out)
		seen=$(record_blocked "$record_dir/off-cpu.out" brief)
		awk -v s="$seen" -v w="$(record_block_report "$report" brief)" 'BEGIN { exit !(s >= 0.5 * w && w > 0) }' ||
			problems+="without --min-block, brief() was off CPU only $seen us: nothing to leave out; "
		record_judge off-cpu-min-block "$problems"
	fi

	out=$record_dir/off-cpu-max-block.out
	if [[ -n ${record_done[off-cpu-max-block]:-} ]]; then
		problems=$precondition$(record_check_blocked "$out" "$report" thirty under-5ms)
		# (a preemption in seventy(), on its way back from the sleep, is short)
		local seventy; seventy=$(record_blocked "$out" seventy)
		awk -v s="$seventy" -v w="$(record_block_report "$report" seventy)" 'BEGIN { exit !(s <= 0.01 * w) }' ||
			problems+="seventy() was off CPU $seventy us, though its blocks of 7 ms are above --max-block 5000; "
		record_judge off-cpu-max-block "$problems"
	fi

	out=$record_dir/off-cpu-wakeups.out
	if [[ -n ${record_done[off-cpu-wakeups]:-} ]]; then
		problems=$precondition$(record_check_blocked "$out" "$report" thirty)
		# the share of FUNCTION's time whose waker (after "--") has feed()
		problems+=$(awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); if (f[1] != "fk-offcpu") next
				fn = ""; fed = 0; waker = 0
				for (i = 2; i <= k; i++) {
					if (f[i] == "--") { waker = 1; continue }
					if (!waker && (f[i] == "seventy" || f[i] == "thirty")) fn = f[i]
					if (waker && f[i] !~ /_\[w\]$/) bad = $0
					if (waker && f[i] == "feed_[w]") fed = 1
				}
				all[fn] += n; if (fed) by_feed[fn] += n }
			END {
				if (bad != "") printf "a waker frame without _[w]: %s; ", substr(bad, 1, 200)
				if (!all["thirty"] || by_feed["thirty"] < 0.95 * all["thirty"])
					printf "feed_[w] wakes %d of the %d us thirty() was off CPU, expected 95%% at least; ", by_feed["thirty"], all["thirty"]
				if (!all["seventy"] || by_feed["seventy"] > 0.05 * all["seventy"])
					printf "feed_[w] wakes %d of the %d us seventy() was off CPU, expected none; ", by_feed["seventy"], all["seventy"]
			}' "$out")
		record_judge off-cpu-wakeups "$problems"
	fi

	if [[ -n ${record_done[off-cpu-svg]:-} ]]; then
		local drawn folded
		drawn=$(sed -n 's/.*<title>all (\([0-9,]*\) us, 100%)<\/title>.*/\1/p' "$record_dir/off-cpu.svg" | tr -d ,)
		folded=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$record_dir/off-cpu.out")
		if ! grep -q '<title>seventy (' "$record_dir/off-cpu.svg"; then
			record_fail off-cpu-svg "no seventy() in off-cpu.svg"
		elif [[ -z $drawn ]] || ! record_near5 "$drawn" "$folded"; then
			record_fail off-cpu-svg "off-cpu.svg draws \"${drawn:-no} us\" in all, the -f recording of the same run $folded us (± 5%)"
		elif ! grep -q 'Off-CPU Time Flame Graph' "$record_dir/off-cpu.svg"; then
			record_fail off-cpu-svg "off-cpu.svg is not titled Off-CPU Time Flame Graph"
		elif [[ -z ${record_done[off-wake-svg]:-} ]]; then
			record_fail off-cpu-svg "no off-wake.svg (see the failure of flamekit record --wakeups)"
		# (feed() is in the feeder's own blocked stacks too, in blue; thirty()
		# may be a waker too, rarely: the feeder's timer interrupt can come in
		# while the main thread runs, and names it, as bcc's offwaketime does)
		elif [[ $(record_svg_fill "$record_dir/off-wake.svg" feed) != *aqua* || $(record_svg_fill "$record_dir/off-wake.svg" thirty) != blue* ]] ||
			grep -q '<title>[^<]*_\[w\] (' "$record_dir/off-wake.svg" || ! grep -q 'Off-Wake Time Flame Graph' "$record_dir/off-wake.svg"; then
			record_fail off-cpu-svg "off-wake.svg has feed() $(record_svg_fill "$record_dir/off-wake.svg" feed) and thirty() $(record_svg_fill "$record_dir/off-wake.svg" thirty) (expected aqua, and blue at least), a frame marked twice or another title: $(grep -o '<title>[^<]*_\[w\] ([^<]*' "$record_dir/off-wake.svg" | head -n 2)"
		else
			record_pass off-cpu-svg
		fi
	fi

	if [[ -n ${record_done[off-cpu-report]:-} ]]; then
		local header counted folded
		header=$(head -n 1 "$record_dir/off-cpu.txt")
		counted=$("$BUILD/flamekit" collapse bcc "$record_dir/off-cpu.txt" | awk '$1 ~ /^fk-offcpu;/ { n += $NF } END { printf "%.0f\n", n }')
		folded=$(record_blocked "$record_dir/off-cpu.out")
		if [[ $header != "Tracing off-CPU time (us) of PID $pid by user + kernel stack (user stacks from unwind tables)... Hit Ctrl-C to end." ]]; then
			record_fail off-cpu-report "the report begins \"$header\""
		elif ! record_near5 "$counted" "$folded"; then
			record_fail off-cpu-report "the report holds $counted us of fk-offcpu, the -f recording of the same run $folded us (± 5%)"
		else
			record_pass off-cpu-report
		fi
	fi
}

# Timed folded FILE of comm NAME, as "SLICE SEVENTY THIRTY" lines (samples
# of stacks through seventy() and thirty() per slice, by slice), after a
# first line "slice_ms=MS" from the header.
record_phases_timed() { # file name
	local ms
	ms=$(head -n 1 "$1" | sed -n 's/.* slice_ms=\([0-9.]*\).*/\1/p')
	echo "${ms:-none}"
	awk -v name="$2" -v ms="${ms:-1}" 'NR == 1 { next }
		{ t = substr($NF, 2); n = $(NF - 1); split($0, f, ";"); if (f[1] != name) next
		  k = sprintf("%.0f", t * 1000 / ms); seen[k] = 1
		  if ($0 ~ /;seventy[; ]/) a[k] += n; else if ($0 ~ /;thirty[; ]/) b[k] += n }
		END { for (k in seen) print k, a[k] + 0, b[k] + 0 }' "$1" | sort -n
}

# The same from the data of flamekit view's page HTML.
record_phases_html() { # file name
	python3 -c 'import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r"<script type=\"application/json\" id=\"flamekit-data\">(.*?)</script>", page, re.S).group(1))
print(d.get("slice_ms", 0))
names, parent, frame = d["names"], [0], [None]
for i, (up, fr) in enumerate(zip(d["up"], d["fr"]), 1):
    parent.append(i - up); frame.append(names[fr])
def path(n):
    out = []
    while n:
        out.append(frame[n]); n = parent[n]
    return out[::-1]
sums, entry, slice_ = {}, 0, 0
sl = d["sl"]
for r in range(0, len(sl), 2):
    slice_ += sl[r]; node = 0
    for e in range(entry, entry + sl[r + 1]):
        node += d["nd"][e]; p = path(node)
        if p and p[0] == sys.argv[2]:
            s = sums.setdefault(slice_, [0, 0])
            s[0] += d["c"][e] if "seventy" in p else 0
            s[1] += d["c"][e] if "thirty" in p else 0
    entry += sl[r + 1]
for k in sorted(sums):
    print(k, *sums[k])' "$1" "$2"
}

# What is wrong with the phases of fk-7030 ... phases in "SLICE SEVENTY
# THIRTY" lines (after the slice_ms line): slices of WANT_MS; every slice of
# seventy() before every one of thirty(); each phase in at least MIN slices
# (its CPU seconds took as long in wall time, or longer); all samples there.
record_check_phases() { # lines want-ms min-slices expected-samples
	awk -v want="$2" -v min="$3" -v expected="$4" '
		NR == 1 { if ($1 != want) printf "slices of %s ms, expected %s; ", $1, want; next }
		{ total += $2 + $3
		  if ($2) { n7++; last7 = $1; if (first7 == "") first7 = $1 }
		  if ($3) { n3++; last3 = $1; if (first3 == "") first3 = $1 } }
		END {
			if (n7 < min || n3 < min) printf "seventy() in %d slices, thirty() in %d, expected at least %d each; ", n7, n3, min
			else if (last7 > first3) printf "seventy() until slice %d, after thirty() began in slice %d; ", last7, first3
			if (total < expected * 0.9 || total > expected * 1.1) printf "%d samples, expected %d ± 10%%; ", total, expected
		}' <<< "$1"
}

# --timeline: fk-7030 in phases (seventy() alone for 1 s of CPU time, then
# thirty() alone) recorded in 100 ms slices shows seventy() in slices of its
# own, all before thirty()'s, in -o x.timed and in timed folded stacks on
# stdout; -o x.html (20 ms slices by default) holds the same in its data
record_test_timeline() {
	record_spawn fk-phases "$(record_exe fk-phases)" 1 0 phases || return
	local pid=${record_spawned[fk-phases]}
	record_start timeline --timeline=100 -F $record_hz -p "$pid" -o "$record_dir/phases.timed"
	record_start timeline-stdout --timeline=100 -F $record_hz -p "$pid"
	record_start timeline-html -F $record_hz -p "$pid" -o "$record_dir/phases.html"
	record_finish
	local cpu expected
	cpu=$(record_cpu "$record_dir/fk-phases.cpu" fk-phases)
	expected=$(awk -v c="$cpu" -v hz=$record_hz 'BEGIN { printf "%.0f", c * hz }')
	# each phase is 1 s of CPU time: at least 1 s of wall time, 10 slices
	# of 100 ms or 50 of 20 ms, less the slices its ends may miss
	if [[ -n ${record_done[timeline]:-} ]]; then
		record_judge timeline "$(record_check_phases "$(record_phases_timed "$record_dir/phases.timed" fk-phases)" 100 8 "$expected")"
	fi
	if [[ -n ${record_done[timeline-stdout]:-} ]]; then
		local out=$record_dir/timeline-stdout.out problems=""
		head -n 1 "$out" | grep -q '^# flamekit timed folded: slice_ms=100 start_ns=[0-9]*$' ||
			problems="stdout does not begin with the timed folded header: $(head -c 100 "$out"); "
		record_judge timeline-stdout "$problems$(record_check_phases "$(record_phases_timed "$out" fk-phases)" 100 8 "$expected")"
	fi
	if [[ -n ${record_done[timeline-html]:-} ]]; then
		if command -v python3 > /dev/null; then
			record_judge timeline-html "$(record_check_phases "$(record_phases_html "$record_dir/phases.html" fk-phases 2>&1)" 20 40 "$expected")"
		else
			record_skip timeline-html "no python3 to read the page's data (run ./setup.sh)"
		fi
	fi
}

# -e, against fk-events' own account (it makes a known number of events
# from a known function) and against perf stat on the same run:
# - u:BINARY:target: exactly the calls made, all in caller;target, by frame
#   pointers (the default for events) and copied stacks (--unwind=dwarf);
# - syscalls:sys_enter_getrandom: the workload's count under perf stat -e
#   of the same tracepoint (flamekit's program lets perf's listeners see the
#   event too), equal to perf's within 1%; with -c 100 a hundredth within 5%,
#   counted as samples;
# - page-faults: the fresh pages touch_pages() writes (±1%: the stack's own
#   faults), and with -c 100 a hundredth (the kernel's sample_period);
# - k:vfs_read: dd's 5000 reads of a byte; where the kernel does not let
#   BPF trace functions, its one-line refusal;
# - cycles: with a PMU, fk-7030's seventy(); without, one clear line and
#   exit 2;
# - outputs: the SVG counts "events" (or "samples" with -c) and is titled
#   by the event; the report's header says which.
record_event_calls() { # file function-chain
	awk -v chain="$2" '{ n = $NF; sub(/ [0-9]+$/, ""); if ($0 ~ "^fk-events;" && index($0 ";", chain ";")) s += n }
		END { printf "%.0f\n", s }' "$1"
}

record_test_events() {
	local bin=$record_dir/bin/fk-events n problems
	if record_run events-uprobe -e "u:$bin:target" -f -- "$bin" calls 12345; then
		n=$(record_event_calls "$record_dir/events-uprobe.out" "caller;target")
		problems=$(record_check_only "$record_dir/events-uprobe.out" fk-events)
		[[ $n == 12345 ]] || problems+="caller;target counted $n times, fk-events called it 12345 times; "
		grep -q '^flamekit: 12345 u:.* events, 12345 kept (every one)' "$record_dir/events-uprobe.err" ||
			problems+="the summary says $(grep '^flamekit: [0-9]' "$record_dir/events-uprobe.err"); "
		record_judge events-uprobe "$problems"
	fi
	# (a call a millisecond: the first copies, before flamekit knows where
	# the stack ends, are 64 KB each, and a busy machine's flamekit may fall
	# behind a faster stream, counting what it drops)
	if record_run events-uprobe-dwarf -e "u:$bin:target" --unwind=dwarf -f -- env FK_CALL_GAP_US=1000 "$bin" calls 500; then
		n=$(record_event_calls "$record_dir/events-uprobe-dwarf.out" "main;caller;target")
		record_judge events-uprobe-dwarf "$([[ $n == 500 ]] || echo "main;caller;target counted $n times with copied stacks, fk-events called it 500 times: $(grep '^flamekit: [0-9]' "$record_dir/events-uprobe-dwarf.err")")"
	fi

	local perf; perf=$(command -v perf)
	if [[ -z $perf ]]; then
		record_skip events-tracepoint "no perf to compare with (Debian: linux-perf)"
		record_skip events-tracepoint-count "no perf to compare with (Debian: linux-perf)"
	else
		local id every want got
		for id in events-tracepoint events-tracepoint-count; do
			every=1; [[ $id == events-tracepoint-count ]] && every=100
			record_run "$id" -e syscalls:sys_enter_getrandom -c "$every" -f -- "$perf" stat -x, \
				-o "$record_dir/$id.perf" -e syscalls:sys_enter_getrandom -- "$bin" getrandom 100000 || continue
			want=$(awk -F, '$3 == "syscalls:sys_enter_getrandom" { print $1 }' "$record_dir/$id.perf")
			got=$(record_event_calls "$record_dir/$id.out" getrandom_loop)
			problems=""
			[[ $want =~ ^[0-9]+$ && $want -ge 100000 ]] ||
				problems+="perf stat counted ${want:-nothing} getrandom calls of fk-events, which made 100000 ($(head -c 200 "$record_dir/$id.perf")); "
			awk -v g="$got" -v w="$want" -v e="$every" -v tol="$([[ $every == 1 ]] && echo 0.01 || echo 0.05)" \
				'BEGIN { x = w / e; exit !(x > 0 && g >= (1 - tol) * x && g <= (1 + tol) * x) }' ||
				problems+="getrandom_loop has $got (one in $every), perf stat counted $want events (± $([[ $every == 1 ]] && echo 1 || echo 5)%); "
			if [[ $every == 1 ]]; then
				grep -q '^Tracing syscalls:sys_enter_getrandom events (each counted) of command' "$record_dir/$id.err" ||
					problems+="the header says $(head -n 1 "$record_dir/$id.err"); "
			else
				grep -q '^Tracing syscalls:sys_enter_getrandom samples (one in 100 events) of command' "$record_dir/$id.err" ||
					problems+="the header says $(head -n 1 "$record_dir/$id.err"); "
			fi
			record_judge "$id" "$problems"
		done
	fi

	if record_run events-page-faults -e page-faults -f -- "$bin" pages 20000 &&
		record_run events-page-faults-count -e page-faults -c 100 -f -- "$bin" pages 20000; then
		local all sampled
		all=$(record_event_calls "$record_dir/events-page-faults.out" touch_pages)
		sampled=$(record_event_calls "$record_dir/events-page-faults-count.out" touch_pages)
		problems=""
		awk -v n="$all" 'BEGIN { exit !(n >= 20000 && n <= 20200) }' ||
			problems+="touch_pages() faulted $all times, it touched 20000 fresh pages (+1%); "
		awk -v n="$sampled" 'BEGIN { exit !(n >= 190 && n <= 210) }' ||
			problems+="with -c 100, touch_pages() has $sampled samples, expected 200 (± 5%); "
		record_judge events-page-faults "$problems"
	fi

	timeout "$record_guard" "$BUILD/flamekit" record -e k:vfs_read -f -- dd if=/dev/zero of=/dev/null bs=1 count=5000 \
		> "$record_dir/events-kfunc.out" 2> "$record_dir/events-kfunc.err"
	local rc=$?
	# (where the kernel does not let BPF trace functions, as here in a VM
	# without BPF trampolines, what is tested is the refusal: one clear line,
	# exit 2; a skip would fail CI, which runs on such machines)
	if [[ $rc == 2 ]] && grep -q 'does not let BPF programs trace kernel functions' "$record_dir/events-kfunc.err"; then
		record_judge events-kfunc "$([[ $(wc -l < "$record_dir/events-kfunc.err") == 1 ]] || echo "the refusal is more than one line: $(head -c 300 "$record_dir/events-kfunc.err")")"
	elif [[ $rc != 0 ]]; then
		record_fail events-kfunc "flamekit record -e k:vfs_read exited $rc: $(tail -n 2 "$record_dir/events-kfunc.err" | tr '\n' ' ')"
	else
		n=$(awk '$1 ~ /^dd;/ { n += $NF } END { printf "%.0f\n", n }' "$record_dir/events-kfunc.out")
		record_judge events-kfunc "$(awk -v n="$n" 'BEGIN { exit !(n >= 5000 && n <= 5100) }' || echo "dd read $n times by k:vfs_read, it read 5000 bytes one by one")"
	fi

	# (without a PMU, as in a VM without a virtual one, the refusal is tested)
	timeout "$record_guard" "$BUILD/flamekit" record -e cycles -c 1000000 -f -- "$record_dir/bin/fk-7030" 0.5 \
		> "$record_dir/events-hardware.out" 2> "$record_dir/events-hardware.err"
	rc=$?
	if [[ ! -e /sys/bus/event_source/devices/cpu && ! -e /sys/bus/event_source/devices/cpu_core ]]; then
		if [[ $rc == 2 && $(wc -l < "$record_dir/events-hardware.err") == 1 ]] &&
			grep -q '^flamekit: -e cycles: this machine has no hardware performance counters' "$record_dir/events-hardware.err"; then
			record_pass events-hardware
		else
			record_fail events-hardware "without a PMU, -e cycles exited $rc with: $(head -c 300 "$record_dir/events-hardware.err")"
		fi
	else
		n=$(awk '$1 ~ /^fk-7030;/ && /seventy/ { n += $NF } END { printf "%.0f\n", n }' "$record_dir/events-hardware.out")
		record_judge events-hardware "$([[ $rc == 0 && $n -gt 0 ]] || echo "-e cycles exited $rc with $n samples in seventy(): $(tail -n 1 "$record_dir/events-hardware.err")")"
	fi

	# -c keeps one in N of each CPU's events (as perf's periods): the
	# workload stays on one CPU, so that its 5000 calls make 500 samples
	if record_run events-svg -e "u:$bin:target" -c 10 -o "$record_dir/events.svg" -- taskset -c 0 "$bin" calls 5000 &&
		record_run events-report -e "u:$bin:target" -o "$record_dir/events.txt" -- "$bin" calls 5000; then
		problems=""
		grep -q '<title>all (500 samples, 100%)</title>' "$record_dir/events.svg" ||
			problems+="events.svg draws $(grep -o '<title>all ([^<]*' "$record_dir/events.svg"), expected all (500 samples; "
		grep -q ">u:$bin:target Flame Graph<" "$record_dir/events.svg" ||
			problems+="events.svg is not titled by its event; "
		[[ $(head -n 1 "$record_dir/events.txt") == "Tracing u:$bin:target events (each counted) of command $bin and its children by user stack (user stacks by frame pointers) until it exits... Hit Ctrl-C to end." ]] ||
			problems+="the report begins \"$(head -n 1 "$record_dir/events.txt")\"; "
		n=$("$BUILD/flamekit" collapse bcc "$record_dir/events.txt" | record_event_calls /dev/stdin "caller;target")
		[[ $n == 5000 ]] || problems+="the report holds $n calls of target(), not 5000; "
		record_judge events-svg "$problems"
	fi
}

# A tracepoint on a machine that has not mounted tracefs (run.sh unmounted it
# in the suite's namespace, as a new machine boots): record mounts it at
# /sys/kernel/tracing, as perf does, says so once, and counts every call of
# fk-events' 5000; a second recording finds it mounted and says nothing.
record_test_tracefs() {
	local bin=$record_dir/bin/fk-events id n problems
	if grep -q ' tracefs \| debugfs ' /proc/self/mounts; then
		record_fail tracefs-mount "tracefs or debugfs is mounted before the test: $(grep -e tracefs -e debugfs /proc/self/mounts | tr '\n' ' ')"
		return
	fi
	for id in tracefs-mount tracefs-mounted; do
		record_run "$id" -e syscalls:sys_enter_getrandom -c 1 -f -- "$bin" getrandom 5000 || return
		n=$(record_event_calls "$record_dir/$id.out" getrandom_loop)
		problems=""
		[[ $n == 5000 ]] || problems+="getrandom_loop counted $n times, fk-events made 5000 calls; "
		if [[ $id == tracefs-mount ]]; then
			local said; said=$(grep -c 'mounted' "$record_dir/$id.err")
			grep -qx 'flamekit: warning: mounted tracefs at /sys/kernel/tracing for -e syscalls:sys_enter_getrandom, as perf does (it stays mounted)' \
				"$record_dir/$id.err" && [[ $said == 1 ]] ||
				problems+="expected one line saying tracefs was mounted, got $said: $(head -n 2 "$record_dir/$id.err" | tr '\n' ' '); "
			awk '$2 == "/sys/kernel/tracing" && $3 == "tracefs" { found = 1 } END { exit !found }' /proc/self/mounts ||
				problems+="no tracefs at /sys/kernel/tracing after the recording; "
		else
			! grep -q 'mounted' "$record_dir/$id.err" ||
				problems+="said it again: $(grep mounted "$record_dir/$id.err"); "
		fi
		record_judge "$id" "$problems"
	done
}

# kernel.kptr_restrict=2 hides kernel addresses even from root: in a mount
# namespace of its own, a /proc/kallsyms of zero addresses and a
# kptr_restrict of 2 bound over the kernel's, as such a machine shows them;
# record names the sysctl and the value to set (no symbol cache: it would
# answer without reading kallsyms).
record_test_kptr_restrict() {
	local dir=$record_dir/kptr
	mkdir -p "$dir"
	awk '{ $1 = "0000000000000000"; print }' /proc/kallsyms > "$dir/kallsyms"
	echo 2 > "$dir/kptr_restrict"
	local record_via=(unshare -m --propagation private sh -c '
		mount --bind "$1/kallsyms" /proc/kallsyms &&
		mount --bind "$1/kptr_restrict" /proc/sys/kernel/kptr_restrict || exit
		shift && exec "$@"' sh "$dir")
	FLAMEKIT_CACHE_DIR= record_start kptr-restrict -F $record_hz -f -- dd if=/dev/zero of=/dev/null bs=1 count=200000 || return
	record_finish
	[[ -n ${record_done[kptr-restrict]:-} ]] || return
	record_judge kptr-restrict "$(grep -qx 'flamekit: warning: /proc/kallsyms shows no addresses: kernel.kptr_restrict is 2, which hides them even from root: kernel frames show as \[unknown\]; set `sysctl kernel.kptr_restrict=1` (root sees them) and record again' \
		"$record_dir/kptr-restrict.err" || echo "no line naming kptr_restrict=2 and its fix: $(grep kptr "$record_dir/kptr-restrict.err")")"
}

# HotSpot without an agent: a JVM (tests/workload/Hot.java; JDK 17+) with
# only -XX:+PreserveFramePointer, in a mount namespace of its own whose /tmp
# is a folder of the scratch directory (it writes its perf map and attach
# socket there, as in a container, and nothing lands in the machine's /tmp):
# record -p asks it for its perf map and names Hot.a() and Hot.b(): at least
# 90% of the main thread's samples have no frame without a name, and a()'s
# share of a() + b() is 25% ± 4; the JVM prints nothing (it ends by SIGTERM
# after the recording, alive while its frames are named). A JVM started with
# -XX:+DisableAttachMechanism, which a SIGQUIT would make print a thread
# dump, is not signalled (nothing in its output), and the report says why
# its JIT frames have no names.
record_test_java() {
	local id
	if ! command -v javac > /dev/null; then
		for id in java java-no-attach; do record_skip "$id" "no javac (./setup.sh installs openjdk-17-jdk-headless)"; done
		return
	fi
	local dir=$record_dir/java
	mkdir -p "$dir/classes" && chmod 755 "$dir" "$dir/classes"
	if ! javac -d "$dir/classes" "$TOP/tests/workload/Hot.java" 2> "$dir/javac.err"; then
		record_fail java "javac tests/workload/Hot.java: $(head -n 1 "$dir/javac.err")"
		return
	fi
	for id in java java-no-attach; do
		local options=(-XX:+PreserveFramePointer) problems="" tries=0
		[[ $id == java-no-attach ]] && options+=(-XX:+DisableAttachMechanism)
		mkdir -p "$dir/$id-tmp" && chmod 1777 "$dir/$id-tmp"
		unshare -m --propagation private sh -c '
			mount --bind "$1/classes" /mnt && mount --bind "$2" /tmp && cd /tmp || exit
			shift 2 && exec "$@"' sh "$dir" "$dir/$id-tmp" java "${options[@]}" -cp /mnt Hot 300 \
			> "$dir/$id.out" 2>&1 &
		local jvm=$!
		# running Java code: its signal handlers are in (SIGQUIT caught,
		# the VM is up), and then its JIT has a second or two to compile
		until [[ $(( 0x$(awk '$1 == "SigCgt:" { print $2 }' "/proc/$jvm/status" 2> /dev/null || echo 0) >> 2 & 1 )) == 1 ]] ||
			! kill -0 "$jvm" 2> /dev/null || (( ++tries > 1200 )); do sleep 0.05; done
		sleep 2
		if record_run "$id" -F $record_hz -f -p "$jvm" 4; then
			local out=$record_dir/$id.out
			if [[ $id == java ]]; then
				problems+=$(awk '$1 ~ /^java;/ { n = $NF; all += n; if ($0 ~ /\[unknown/) unnamed += n
						if ($0 ~ /Hot\.a\(/) a += n; if ($0 ~ /Hot\.b\(/) b += n }
					END { if (all == 0 || unnamed > 0.1 * all)
							printf "%d of %d samples of the main thread have frames without names; ", unnamed, all
						if (a + b == 0 || a / (a + b) < 0.21 || a / (a + b) > 0.29)
							printf "Hot.a has %d samples, Hot.b %d: a share of %.1f%%, expected 25 ± 4; ", a, b, a + b ? 100 * a / (a + b) : 0 }' "$out")
				grep -q 'could not ask the JVM' "$record_dir/$id.err" &&
					problems+="$(grep 'could not ask the JVM' "$record_dir/$id.err"); "
			else
				grep -q "^flamekit: could not ask the JVM $jvm for its perf map: it was started with -XX:+DisableAttachMechanism" "$record_dir/$id.err" ||
					problems+="the report does not say why the JVM was not asked: $(grep -i jvm "$record_dir/$id.err" | head -n 2); "
			fi
		fi
		kill "$jvm" 2> /dev/null
		wait "$jvm"
		# (a SIGQUIT it caught would have printed "Full thread dump ...")
		[[ ! -s $dir/$id.out ]] || problems+="the JVM printed: $(head -c 300 "$dir/$id.out"); "
		[[ -n ${record_reported[$id]:-} ]] || record_judge "$id" "$problems"
	done
}

# record --rate: while it counts, fk-events makes 100000 getrandom calls;
# the count has them, and the suggested -c is the rate over 1000.
record_test_rate() {
	local out=$record_dir/rate.out err=$record_dir/rate.err
	: > "$err"  # (before the background shell makes it: the wait below reads it)
	"$BUILD/flamekit" record --rate -e syscalls:sys_enter_getrandom,page-faults 3 > "$out" 2> "$err" &
	local pid=$! tries=0
	until grep -q '^Counting ' "$err" || ! kill -0 "$pid" 2> /dev/null || (( ++tries > 2400 )); do sleep 0.05; done
	"$record_dir/bin/fk-events" getrandom 100000
	wait "$pid"
	local rc=$? problems=""
	[[ $rc == 0 ]] || problems+="record --rate exited $rc: $(tail -n 2 "$err" | tr '\n' ' '); "
	problems+=$(awk '$1 == "syscalls:sys_enter_getrandom" { seen = 1
			want = $3 > 1000 ? int($3 / 1000 + 0.5) : 1
			if ($2 < 100000) printf "counted %s getrandom calls, fk-events made 100000; ", $2
			if ($4 != want) printf "suggests -c %s for %s a second, expected %s; ", $4, $3, want }
		$1 == "page-faults" { pf = 1 }
		END { if (!seen || !pf) printf "no line for each event: %s; ", NR }' "$out")
	head -n 1 "$out" | grep -q '^EVENT  *COUNT  *PER SECOND  *-c$' || problems+="the table begins \"$(head -n 1 "$out")\"; "
	record_judge rate "$problems"
}

# --all-time: one recording of fk-7030 (3 CPU seconds) and fk-offcpu (about
# 3.2 s blocked, as it times itself) at 997 Hz: fk-7030's on-CPU
# microseconds (frames without _[o]) within 10% of its CPU time, fk-offcpu's
# off-CPU ones (marked _[o]) within 5% of its blocks; the SVG counts us and
# colours _[o] frames blue, fk-7030's seventy() hot.
record_test_all_time() {
	local report=$record_dir/all-time.blocks
	rm -f "$report"
	record_spawn all-7030 "$(record_exe fk-all-7030)" || return
	record_spawn all-offcpu env FK_BLOCK_REPORT="$report" "$record_dir/bin/fk-offcpu" || return
	local pids=${record_spawned[all-7030]},${record_spawned[all-offcpu]}
	record_start all-time --all-time -F $record_hz -f -p "$pids"
	record_start all-time-svg --all-time -F $record_hz -p "$pids" -o "$record_dir/all-time.svg"
	record_finish
	if [[ -n ${record_done[all-time]:-} ]]; then
		local out=$record_dir/all-time.out problems on off cpu blocked
		cpu=$(record_cpu "$record_dir/all-7030.cpu" fk-all-7030)
		on=$(awk '$1 ~ /^fk-all-7030;/ && !/_\[o\]/ { n += $NF } END { printf "%.0f\n", n }' "$out")
		off=$(awk '$1 ~ /^fk-offcpu;/ && /_\[o\]/ { n += $NF } END { printf "%.0f\n", n }' "$out")
		blocked=$(awk '{ s += $2 } END { printf "%.0f\n", s }' "$report" 2> /dev/null)
		problems=$(record_check_only "$out" 'fk-all-7030|fk-offcpu|fk-feeder')
		awk -v n="$on" -v c="$cpu" 'BEGIN { e = c * 1e6; exit !(e > 0 && n >= 0.9 * e && n <= 1.1 * e) }' ||
			problems+="fk-all-7030 has $on us on CPU, it used $cpu CPU seconds (± 10%); "
		record_near5 "$off" "$blocked" ||
			problems+="fk-offcpu has $off us off CPU (_[o]), it timed $blocked us of blocks (± 5%); "
		awk '/_\[o\]/ { n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); for (i = 2; i <= k; i++) if (f[i] ~ /_\[o\]$/) break
				for (; i <= k; i++) if (f[i] !~ /_\[o\]$/) { print "an unmarked frame below an off-CPU one: " substr($0, 1, 200) "; "; exit } }' "$out" | grep -q . &&
			problems+="off-CPU frames are not the leaf part of their stacks; "
		grep -q '^Tracing on- and off-CPU time (us) of PID' "$record_dir/all-time.err" ||
			problems+="the header says $(head -n 1 "$record_dir/all-time.err"); "
		record_judge all-time "$problems"
	fi
	if [[ -n ${record_done[all-time-svg]:-} ]]; then
		local fill_off fill_on
		fill_off=$(sed -n 's/.*<title>\(__schedule_\[k\]_\[o\]\) ([^<]*<\/title><rect [^>]*fill="rgb(\([0-9,]*\))".*/\2/p' "$record_dir/all-time.svg" | head -n 1)
		fill_on=$(record_svg_fill "$record_dir/all-time.svg" seventy)
		if ! grep -q '<title>all ([0-9,]* us, 100%)</title>' "$record_dir/all-time.svg"; then
			record_fail all-time-svg "all-time.svg does not count in us: $(grep -o '<title>all ([^<]*' "$record_dir/all-time.svg")"
		elif ! grep -q 'On- and Off-CPU Time Flame Graph' "$record_dir/all-time.svg"; then
			record_fail all-time-svg "all-time.svg is not titled On- and Off-CPU Time Flame Graph"
		elif ! awk -F, -v c="$fill_off" 'BEGIN { split(c, v, ","); exit !(v[1] == v[2] && v[3] > v[2]) }'; then
			record_fail all-time-svg "__schedule_[k]_[o] is rgb(${fill_off:-none}), expected blue"
		elif ! awk -v c="$fill_on" 'BEGIN { exit !(match(c, /^rgb\(([0-9]+),([0-9]+),([0-9]+)\)$/)) }' ||
			! awk -v c="${fill_on#rgb(}" 'BEGIN { split(c, v, /[,)]/); exit !(v[1] >= 205 && v[3] <= 55) }'; then
			record_fail all-time-svg "seventy() is $fill_on, expected a hot colour (on CPU)"
		else
			record_pass all-time-svg
		fi
	fi
}

# Nothing flamekit loaded stays in the kernel after it exits: the BPF
# programs, maps and links it held (its /proc/PID/fdinfo) are gone, even
# though its command left a process behind that would have inherited them
record_test_cleanup() {
	local left=$record_dir/cleanup.left
	rm -f "$left"
	record_start cleanup -F $record_hz -f -- sh -c 'sleep 600 & echo $! > "$0"; wait' "$left" || return
	local pid=${record_running[cleanup]} tries=0 held seen alive
	until [[ -s $left ]] || (( ++tries > 6000 )); do sleep 0.05; done
	held=$(cat "/proc/$pid/fdinfo/"* 2> /dev/null | awk '/^(prog|map|link)_id:/ { sub(/_id:/, "", $1); print $1, $2 }' | sort -u)
	seen=$(record_bpf_shown "$held")
	record_finish
	# the kernel frees maps after an RCU grace period (here within 0.1 s)
	for ((tries = 0; tries < 50; tries++)); do
		alive=$(record_bpf_shown "$held")
		[[ -z $alive ]] && break
		sleep 0.1
	done
	if ! grep -q '^prog ' <<< "$held"; then
		record_fail cleanup "no BPF program among flamekit's files (/proc/$pid/fdinfo)"
	elif [[ $seen != "$held" ]]; then
		# (else the check after the exit would prove nothing)
		record_fail cleanup "bpftool did not show all that flamekit held while it ran: $(echo $held) but $(echo $seen)"
	elif [[ -n $alive ]]; then
		record_fail cleanup "still in the kernel after flamekit exited: $(echo $alive)"
	else
		record_pass cleanup
	fi
	# the command's leftover (and the sh waiting for it, with it)
	[[ -s $left ]] && kill "$(cat "$left")" 2> /dev/null
}

# The kernel's bound on -F, read anew for each run: the kernel lowers it
# when its sampling interrupts take too long.
record_max_rate() { cat /proc/sys/kernel/perf_event_max_sample_rate; }

# At the kernel's highest rate, host-wide while a program without frame
# pointers runs 40 calls deep (each of its samples a walk of the tables in
# the kernel): a run of 1 s ends on its own and one without a duration at
# SIGINT, each with whole folded stacks and its summary. What could not be
# unwound in time is dropped and counted as lost, not made up for by
# running on (before, 1 s at 100000 Hz took 140 s, and SIGINT went
# unseen); and what the BPF programs would take past their share of a CPU
# too (before, the walks left the CPU no time: the run stalled the machine
# for minutes). A kernel that lowered its bound meanwhile gets back the
# value it had.
record_test_high_rate() {
	local before; before=$(record_max_rate)
	local id problems nofp=$record_dir/bin/fk-nofp-O2 busy
	if ! cc -O2 -fomit-frame-pointer -o "$nofp" "$TOP/tests/workload/fk-nofp.c" 2> "$record_dir/cc.err"; then
		for id in high-rate high-rate-sigint; do
			record_fail "$id" "cannot build tests/workload/fk-nofp.c: $(head -n 1 "$record_dir/cc.err")"
		done
		return
	fi
	"$nofp" 3600 40 & busy=$!
	if record_run high-rate -F "$(record_max_rate)" -f 1; then
		record_judge high-rate "$(record_check_high_rate high-rate)"
	fi
	if record_start high-rate-sigint -F "$(record_max_rate)" -f; then
		sleep 1
		record_finish
		[[ -n ${record_done[high-rate-sigint]:-} ]] &&
			record_judge high-rate-sigint "$(record_check_high_rate high-rate-sigint)"
	fi
	kill "$busy"
	wait "$busy" 2> /dev/null
	(( $(record_max_rate) < before )) && echo "$before" > /proc/sys/kernel/perf_event_max_sample_rate
}

# What is wrong with the output of a run at the highest rate.
record_check_high_rate() { # id
	local out=$record_dir/$1.out err=$record_dir/$1.err
	[[ -s $out ]] && "$BUILD/flamekit" collapse folded "$out" > /dev/null 2>&1 ||
		echo "no whole folded stacks: $(head -c 200 "$out"); "
	grep -q '^flamekit: [0-9]* samples, [0-9]* distinct stacks in [0-9.]* s; [0-9]* lost$' "$err" ||
		echo "no summary: $(tail -n 2 "$err" | tr '\n' ' '); "
	# a stall, not a speed: the machine had no time left for anything else
	awk '/^flamekit: [0-9]+ samples, .* s; [0-9]+ lost$/ { t = $(NF - 3) }
		END { if (t > 30) printf "a recording of about 1 s took %s s: the machine stalled; ", t }' "$err"
	# the losses the warnings name are the summary's
	awk '/^flamekit: [0-9]+ samples, .* lost$/ { lost = $(NF - 1) }
		/^flamekit: warning: [0-9]+ (samples dropped|stacks could not be read)/ { named += $3 }
		END { if (lost != named) printf "%d lost, but the warnings name %d; ", lost, named }' "$err"
}

# Ctrl-C twice: the first ends sampling, the second aborts at once, even
# while flamekit waits to write (here for a reader of the FIFO it writes,
# which never comes) and though a background job of a script starts with
# SIGINT ignored; it dies of SIGINT, and nothing is written. The second is
# sent once flamekit has taken the first (no longer pending), else the two
# would be one.
record_test_second_sigint() {
	local fifo=$record_dir/second.folded
	rm -f "$fifo" && mkfifo "$fifo"
	record_start second-sigint -F $record_hz -o "$fifo" || return
	local pid=${record_running[second-sigint]} tries rc
	unset "record_running[second-sigint]"
	kill -INT "$pid"
	for ((tries = 0; tries < record_guard * 20; tries++)); do
		local pending
		pending=$(awk '/^ShdPnd:/ { print $2 }' "/proc/$pid/status" 2> /dev/null) || break
		(( (16#${pending:-0} & 2) == 0 )) && break
		sleep 0.05
	done
	kill -INT "$pid"
	record_wait "$pid"
	rc=$record_rc
	if [[ $rc == hang ]]; then
		record_fail second-sigint "flamekit record went on after a second SIGINT: killed $record_guard s later"
	elif [[ $rc != 130 ]]; then
		record_fail second-sigint "exit $rc after a second SIGINT, expected death by SIGINT (130): $(tail -n 2 "$record_dir/second-sigint.err" | tr '\n' ' ')"
	elif compgen -G "$record_dir/.second.folded.*" > /dev/null; then
		record_fail second-sigint "a temporary file left: $(compgen -G "$record_dir/.second.folded.*")"
	else
		record_pass second-sigint
	fi
	rm -f "$fifo"
}

# -p without a duration ends by itself once its process has exited, says
# so, and writes what it sampled (perf record -p does the same; before, it
# ran until killed)
record_test_pid_exit() {
	record_spawn fk-pid-exit "$(record_exe fk-pid-exit)" 1 || return
	local pid=${record_spawned[fk-pid-exit]} flamekit rc
	record_start pid-exit -F $record_hz -f -p "$pid" || return
	flamekit=${record_running[pid-exit]}
	unset "record_running[pid-exit]"
	kill -CONT "$pid"
	wait "$pid"
	unset "record_spawned[fk-pid-exit]"
	record_wait "$flamekit"
	rc=$record_rc
	if [[ $rc == hang ]]; then
		record_fail pid-exit "flamekit record -p $pid went on after its process exited: killed $record_guard s later"
	elif [[ $rc != 0 ]]; then
		record_fail pid-exit "exit $rc: $(tail -n 2 "$record_dir/pid-exit.err" | tr '\n' ' ')"
	else
		local problems=""
		grep -qx "flamekit: PID $pid has exited: the recording ends" "$record_dir/pid-exit.err" ||
			problems="stderr does not say that PID $pid exited: $(tr '\n' ' ' < "$record_dir/pid-exit.err" | head -c 300); "
		problems+=$(record_check_samples "$record_dir/pid-exit.out" fk-pid-exit "$(record_cpu "$record_dir/fk-pid-exit.cpu" fk-pid-exit)")
		record_judge pid-exit "$problems"
	fi
}

# A recording with no samples (-p of a process that only sleeps: it ends
# when the process does; at 1 Hz, lest its exit be sampled) says why, in
# flamekit's words, in every output: the SVG's message (not flamegraph.pl's
# "No valid input provided"), a WARNING line in the report (bcc's way, which
# collapse bcc reads past), the page's note, and a warning on stderr, the
# one place folded stacks have for it (a line of text in them would be a
# bad line to every reader); exit 0
record_test_no_samples() {
	sleep 4 &
	local sleeper=$! id flamekits=() ids=(no-samples-svg no-samples-report no-samples-html no-samples-folded)
	local -A outputs=([no-samples-svg]=-o"$record_dir/idle.svg" [no-samples-report]=-o"$record_dir/idle.txt"
		[no-samples-html]=-o"$record_dir/idle.html" [no-samples-folded]=-f)
	for id in "${ids[@]}"; do
		if record_start "$id" -F 1 -p "$sleeper" "${outputs[$id]}"; then
			flamekits+=("$id:${record_running[$id]}")
			unset "record_running[$id]"
		fi
	done
	wait "$sleeper"
	local entry rc why="did not run on a CPU while sampled (idle? flamekit record --off-cpu shows where it waits)"
	for entry in "${flamekits[@]}"; do
		id=${entry%%:*}
		record_wait "${entry#*:}"
		rc=$record_rc
		local err=$record_dir/$id.err problems=""
		[[ $rc == 0 ]] || problems="exit $rc: $(tail -n 2 "$err" | tr '\n' ' '); "
		grep -qx "flamekit: warning: no samples: PID $sleeper $why" "$err" ||
			problems+="stderr does not say why: $(tail -n 2 "$err" | tr '\n' ' '); "
		case $id in
		no-samples-svg)
			grep -qF ">No samples: PID $sleeper $why</text>" "$record_dir/idle.svg" && ! grep -q flamegraph.pl "$record_dir/idle.svg" ||
				problems+="idle.svg says: $(grep -o '<text[^>]*>[^<]*' "$record_dir/idle.svg" | head -n 2 | tr '\n' ' '); " ;;
		no-samples-report)
			[[ $(cat "$record_dir/idle.txt") == "WARNING: No samples: PID $sleeper $why" ]] ||
				problems+="idle.txt says: $(head -c 300 "$record_dir/idle.txt"); " ;;
		no-samples-html)
			grep -qF "\"note\":\"No samples: PID $sleeper $why\"" "$record_dir/idle.html" ||
				problems+="idle.html has no note: $(grep -o '"v":1[^]]*' "$record_dir/idle.html" | head -c 300); "
			# ... which the page shows beside its title (chromium: setup.sh's)
			if command -v chromium > /dev/null; then
				timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$record_dir/chromium" \
					--dump-dom "file://$record_dir/idle.html" 2> /dev/null |
					grep -qF "<span class=\"note\">No samples: PID $sleeper $why</span>" ||
					problems+="the page does not show the note; "
			fi ;;
		no-samples-folded)
			[[ ! -s $record_dir/$id.out ]] || problems+="folded stacks: $(head -c 200 "$record_dir/$id.out"); " ;;
		esac
		record_judge "$id" "$problems"
	done
}

# SIGINT or SIGTERM to flamekit record -- COMMAND is passed on to COMMAND,
# as perf record does (before, COMMAND went on running): a sh that traps
# both writes which it got. (For SIGINT both start with it at its default
# action, as from a terminal: a background job of a script ignores it, and
# would pass that on. What the terminal sends, Ctrl-C, reaches the
# command's process group itself, and is not sent twice.)
record_test_command_signals() {
	local sig id
	for sig in INT TERM; do
		id=command-sig${sig,,}
		local base=$record_dir/$id
		rm -f "$base".{ready,got,child,sh}
		local record_via=(env --default-signal=INT)
		record_start "$id" -F $record_hz -f -- sh -c '
			trap "echo INT > \"$0.got\"; kill \$child; exit 0" INT
			trap "echo TERM > \"$0.got\"; kill \$child; exit 0" TERM
			sleep 600 & child=$!
			echo $child > "$0.child"; echo $$ > "$0.sh"; echo > "$0.ready"
			wait' "$base" || continue
		local flamekit=${record_running[$id]} tries rc
		unset "record_running[$id]"
		for ((tries = 0; tries < record_guard * 20; tries++)); do
			[[ -e $base.ready ]] && break
			sleep 0.05
		done
		kill -"$sig" "$flamekit"
		record_wait "$flamekit"
		rc=$record_rc
		for ((tries = 0; tries < 600; tries++)); do  # (30 s: a hang, not slowness)
			[[ -s $base.got ]] && break
			sleep 0.05
		done
		local got; got=$(cat "$base.got" 2> /dev/null)
		if [[ $rc != 0 ]]; then
			record_fail "$id" "exit $rc after SIG$sig: $(tail -n 2 "$base.err" | tr '\n' ' ')"
		elif [[ $got != "$sig" ]]; then
			record_fail "$id" "the command got ${got:-nothing} 30 s after flamekit exited on SIG$sig"
		else
			record_pass "$id"
		fi
		# what is left when the signal was not passed on
		[[ -s $base.child ]] && kill "$(cat "$base.child")" 2> /dev/null
		[[ -s $base.sh ]] && kill -KILL "$(cat "$base.sh")" 2> /dev/null
	done
}

# record -o x.svg takes flamegraph's display options, from the same table
# as flamegraph (before, "unknown option"): title, subtitle, width, count
# name, palette (aqua: every frame aqua) in the SVG; -o x.html those the
# page draws by, in its data
record_test_graph_options() {
	record_spawn fk-graph "$(record_exe fk-graph)" 1 || return
	local pid=${record_spawned[fk-graph]}
	record_start graph-options-svg -F $record_hz -p "$pid" -o "$record_dir/graph.svg" \
		--title "fk graph T" --subtitle "sub T" --width 800 --countname ticks --colors aqua
	record_start graph-options-html -F $record_hz -p "$pid" -o "$record_dir/graph.html" \
		--title "fk page T" --colors aqua --countname ticks
	record_finish
	local svg=$record_dir/graph.svg problems
	if [[ -n ${record_done[graph-options-svg]:-} ]]; then
		problems=""
		grep -q '<text id="title" [^>]*>fk graph T</text>' "$svg" || problems+="no title fk graph T; "
		grep -q '<text id="subtitle" [^>]*>sub T</text>' "$svg" || problems+="no subtitle sub T; "
		grep -q '<svg [^>]*width="800"' "$svg" || problems+="not 800 px wide: $(grep -o '<svg [^>]*' "$svg" | head -c 200); "
		grep -q '<title>all ([0-9,]* ticks, 100%)</title>' "$svg" || problems+="the counts are not ticks: $(grep -o '<title>all ([^<]*' "$svg"); "
		[[ $(record_svg_fill "$svg" seventy) == aqua ]] || problems+="seventy() is $(record_svg_fill "$svg" seventy), not aqua; "
		record_judge graph-options-svg "$problems"
	fi
	if [[ -n ${record_done[graph-options-html]:-} ]]; then
		grep -q '"title":"fk page T","unit":"ticks","palette":"aqua"' "$record_dir/graph.html"
		record_judge graph-options-html "$( (($? == 0)) || echo "the page's data begins $(grep -o '"v":1,[^]]*' "$record_dir/graph.html" | head -c 200)")"
	fi
}

# The fix printed for a binary without symbols works as printed: gzip
# (stripped, from Debian's gzip package) is named for dpkg -S as dpkg knows
# it (/bin/gzip on a merged /usr, where /usr/bin/gzip is "no path found"),
# and that command, run, names its package; on Debian a line names the
# debug archive of its release
record_test_symbols_hint() {
	local id=symbols-hint gzip
	gzip=$(readlink -f "$(command -v gzip)")
	if [[ ! -d /var/lib/dpkg/info ]] || ! { dpkg -S "$gzip" || dpkg -S "${gzip#/usr}"; } > /dev/null 2>&1; then
		record_skip "$id" "gzip is not from a dpkg package here"
		return
	fi
	seq 1 3000000 > "$record_dir/gzip.in"
	record_run "$id" -F $record_hz -f -- gzip -c "$record_dir/gzip.in" || return
	local err=$record_dir/$id.err problems="" command package
	command=$(sed -n 's/.* frames in gzip without symbols: .*`\(dpkg -S [^`]*\)`.*/\1/p' "$err")
	if [[ -z $command ]]; then
		problems="no dpkg -S fix for gzip: $(grep gzip "$err" | head -c 300); "
	else
		package=$($command 2> /dev/null | sed -n 's/^\([^:]*\): .*gzip$/\1/p')
		[[ $package == gzip ]] || problems+="\`$command\` names \"$package\", not gzip: $($command 2>&1 | head -c 200); "
	fi
	if grep -qx 'ID=debian' /etc/os-release 2> /dev/null; then
		local codename; codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
		grep -qF "\"deb http://deb.debian.org/debian-debug/ $codename-debug main\"" "$err" ||
			problems+="no line naming Debian's debug archive for $codename; "
	fi
	grep -q 'record --debuginfod' "$err" || problems+="no line offering --debuginfod; "
	record_judge "$id" "$problems"
}

# The paths dpkg knows (sampler/dpkg_paths.h), through tests/dpkg_paths_dump.c
# over lists of the test's own: a path as mapped, its /usr-less form, both
# (the path as mapped wins), neither; then again from the answers' cache
# (an answer changed there is the answer given), for a new path too, and
# from the lists again once they change.
record_test_dpkg_paths() {
	local d=$record_dir/dpkg-paths problems=""
	mkdir -p "$d/info"
	if ! cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$d/dump" "$TOP/tests/dpkg_paths_dump.c" \
		"$BUILD"/obj/sampler/dpkg_paths.o "$BUILD"/obj/lib/{buf,xalloc,error,cache_dir}.o 2> "$d/cc.err"; then
		record_fail dpkg-paths "tests/dpkg_paths_dump.c does not build: $(head -n 3 "$d/cc.err" | tr '\n' ' ')"
		return
	fi
	printf '/.\n/bin\n/bin/gzip\n/usr/lib/x86_64-linux-gnu/libfoo.so.1\n' > "$d/info/a.list"
	printf '/usr/bin/both\n/bin/both\n' > "$d/info/b:amd64.list"
	printf '/usr/bin/never\n' > "$d/info/c.md5sums"
	printf '%s\n' /usr/bin/gzip /usr/lib/x86_64-linux-gnu/libfoo.so.1 /usr/bin/both /opt/none /usr/bin/never > "$d/paths"
	local want
	want=$(printf '%s\t%s\n' /bin/gzip /usr/bin/gzip /usr/lib/x86_64-linux-gnu/libfoo.so.1 /usr/lib/x86_64-linux-gnu/libfoo.so.1 \
		/usr/bin/both /usr/bin/both none /opt/none none /usr/bin/never)
	local got; got=$("$d/dump" "$d/info" "$d/answers" < "$d/paths" 2>&1)
	[[ $got == "$want" ]] || problems+="from the lists: $(tr '\n\t' '| ' <<< "$got"); "
	[[ $(wc -l < "$d/answers" 2> /dev/null) == 6 ]] || problems+="the answers not kept: $(head -c 200 "$d/answers" 2>&1); "
	sed -i 's|^?\t/opt/none$|=\t/opt/none|' "$d/answers"
	got=$("$d/dump" "$d/info" "$d/answers" <<< /opt/none 2>&1)
	[[ $got == $'/opt/none\t/opt/none' ]] || problems+="not answered from the cache: $got; "
	printf '%s\n' /usr/bin/gzip /usr/sbin/new > "$d/more"
	printf '/usr/sbin/new\n' >> "$d/info/b:amd64.list"
	got=$("$d/dump" "$d/info" "$d/answers" < "$d/more" 2>&1)
	[[ $got == $'/bin/gzip\t/usr/bin/gzip\n/usr/sbin/new\t/usr/sbin/new' ]] || problems+="a new path: $(tr '\n\t' '| ' <<< "$got"); "
	grep -q $'^=\t/usr/sbin/new$' "$d/answers" && grep -q $'^=\t/opt/none$' "$d/answers" ||
		problems+="the new answer not kept beside the old: $(tr '\n\t' '| ' < "$d/answers"); "
	printf '/opt/elsewhere\n' > "$d/info/d.list"  # a package installed: the lists change
	got=$("$d/dump" "$d/info" "$d/answers" <<< /opt/none 2>&1)
	[[ $got == $'none\t/opt/none' ]] || problems+="the lists changed, yet from the cache: $got; "
	record_judge dpkg-paths "$problems"
}

# --debuginfod fetches the debug file of a binary without symbols after the
# recording, from Debian's own debuginfod server run over a folder of the
# test's (the workload's debug file, objcopy --only-keep-debug; the
# workload stripped), on loopback in a network namespace of the test's
# own; the client's cache is in the scratch directory. Without
# --debuginfod nothing is fetched, though DEBUGINFOD_URLS names the server:
# its frames stay [unknown:no-symbols ...] and the run says --debuginfod
# would fetch them. With it, seventy() and thirty() are named (70/30).
record_test_debuginfod() {
	local dir=$record_dir/debuginfod
	if ! command -v debuginfod > /dev/null || ! command -v debuginfod-find > /dev/null || ! command -v ip > /dev/null; then
		record_skip debuginfod "no debuginfod, debuginfod-find or ip (run ./setup.sh)"
		record_skip debuginfod-not-asked "no debuginfod, debuginfod-find or ip (run ./setup.sh)"
		return
	fi
	rm -rf "$dir" && mkdir -p "$dir/served"
	local bin=$dir/fk-symbols id
	cc -g -O0 -fno-omit-frame-pointer -fno-inline -o "$bin" "$TOP/tests/workload/fk-7030.c" &&
		objcopy --only-keep-debug "$bin" "$dir/served/fk-symbols.debug" && objcopy --strip-all "$bin" || {
		record_fail debuginfod "cannot build and strip the workload"
		return
	}
	id=$(readelf -n "$bin" | sed -n 's/.*Build ID: //p')
	# (a server on port 8002 of the namespace's loopback, up once it
	# serves the build id; each probe with a cache of its own, as a miss
	# is cached)
	unshare -n sh -c '
		dir=$1 id=$2 flamekit=$3 bin=$4
		ip link set lo up || exit 1
		debuginfod -F -p 8002 -d "$dir/db.sqlite" -t 0 -g 0 "$dir/served" > "$dir/server.log" 2>&1 &
		server=$! tries=0
		until rm -rf "$dir/probe" && DEBUGINFOD_CACHE_PATH=$dir/probe DEBUGINFOD_URLS=http://127.0.0.1:8002 \
			debuginfod-find debuginfo "$id" > /dev/null 2>&1; do
			tries=$((tries + 1))
			[ $tries -lt 1200 ] || { echo "the server did not serve $id" > "$dir/not-asked.err"; kill $server; exit 1; }
			sleep 0.05
		done
		export DEBUGINFOD_URLS=http://127.0.0.1:8002
		DEBUGINFOD_CACHE_PATH=$dir/cache-not-asked timeout -k 10 120 "$flamekit" record -F 997 -f -- "$bin" 1 \
			> "$dir/not-asked.out" 2> "$dir/not-asked.err"
		echo $? > "$dir/not-asked.rc"
		unset DEBUGINFOD_URLS
		DEBUGINFOD_CACHE_PATH=$dir/cache timeout -k 10 120 "$flamekit" record -F 997 -f \
			--debuginfod=http://127.0.0.1:8002 -- "$bin" 1 > "$dir/asked.out" 2> "$dir/asked.err"
		echo $? > "$dir/asked.rc"
		kill $server; wait' sh "$dir" "$id" "$BUILD/flamekit" "$bin"
	local problems=""
	if [[ $(cat "$dir/not-asked.rc" 2> /dev/null) != 0 ]]; then
		problems="exit $(cat "$dir/not-asked.rc" 2> /dev/null): $(tail -n 2 "$dir/not-asked.err" | tr '\n' ' ')"
	else
		grep -q ';\[unknown:no-symbols fk-symbols\]' "$dir/not-asked.out" && ! grep -q ';seventy' "$dir/not-asked.out" ||
			problems+="named without --debuginfod: $(head -n 2 "$dir/not-asked.out" | tr '\n' ' '); "
		[[ -z $(ls -A "$dir/cache-not-asked" 2> /dev/null) ]] ||
			problems+="fetched into the cache without --debuginfod: $(ls -A "$dir/cache-not-asked"); "
		grep -q "^flamekit: or fetch the debug files after the recording from DEBUGINFOD_URLS' servers: record --debuginfod$" "$dir/not-asked.err" ||
			problems+="no line offering --debuginfod: $(tail -n 2 "$dir/not-asked.err" | tr '\n' ' '); "
	fi
	record_judge debuginfod-not-asked "$problems"
	problems=""
	if [[ $(cat "$dir/asked.rc" 2> /dev/null) != 0 ]]; then
		problems="exit $(cat "$dir/asked.rc" 2> /dev/null): $(tail -n 2 "$dir/asked.err" | tr '\n' ' ')"
	else
		[[ -s $dir/cache/$id/debuginfo ]] || problems+="no $id/debuginfo in the cache: $(ls -R "$dir/cache" 2>&1 | head -c 200); "
		grep -qx "flamekit: --debuginfod: debug file of $bin: $dir/cache/$id/debuginfo" "$dir/asked.err" ||
			problems+="stderr does not say what was fetched: $(head -n 3 "$dir/asked.err" | tr '\n' ' '); "
		problems+=$(record_check_share "$dir/asked.out" fk-symbols)
		! grep -q 'no-symbols fk-symbols' "$dir/asked.out" || problems+="frames still without names: $(grep -m1 'no-symbols fk-symbols' "$dir/asked.out"); "
	fi
	record_judge debuginfod "$problems"
}

# -o x.pb.gz, -o x.otlp and --outdir DIR --format pprof, each judged by the
# tool of its format: `go tool pprof` accepts the pprof files, with cpu
# nanoseconds, the period (1e9/F) and a duration, the workload's samples
# (its own CPU account), its pid and comm as labels, and flamekit reads back
# what pprof shows; protoc decodes the OTLP file (tests/otlp-proto/), its
# resource saying the host, the pid and the service, its values the samples.
record_test_interchange() {
	record_spawn fk-pprof "$(record_exe fk-pprof)" 2 || return
	local pid=${record_spawned[fk-pprof]}
	rm -rf "$record_dir/flames-pprof"
	record_start pprof -F $record_hz -p "$pid" -o "$record_dir/x.pb.gz"
	record_start otlp -F $record_hz -p "$pid" -o "$record_dir/x.otlp"
	record_start outdir-pprof -F $record_hz -p "$pid" --outdir "$record_dir/flames-pprof" --format pprof
	record_finish
	local cpu problems period raw
	cpu=$(record_cpu "$record_dir/fk-pprof.cpu" fk-pprof)
	period=$(( (1000000000 + record_hz / 2) / record_hz ))
	local go_env=(env HOME="$record_dir" GOCACHE="$record_dir/gocache" GOPATH="$record_dir/gopath"
		PPROF_TMPDIR="$record_dir")
	# judge_pprof FILE: what is wrong with it, as go tool pprof reads it
	judge_pprof() {
		local folded=$1.folded
		if ! raw=$("${go_env[@]}" go tool pprof -symbolize=none -raw "$1" 2> "$1.err"); then
			echo "go tool pprof refused $1: $(head -c 300 "$1.err"); "
			return
		fi
		grep -qx 'PeriodType: cpu nanoseconds' <<< "$raw" ||
			echo "period type: $(grep PeriodType <<< "$raw"), expected cpu nanoseconds; "
		grep -qx "Period: $period" <<< "$raw" || echo "$(grep Period: <<< "$raw"), expected $period; "
		grep -q '^Duration: [1-9]' <<< "$raw" && grep -q '^Time: ' <<< "$raw" ||
			echo "no time and duration: $(grep -E '^(Time|Duration)' <<< "$raw" | tr '\n' ' '); "
		grep -A1 -x 'Samples:' <<< "$raw" | grep -qx 'samples/count cpu/nanoseconds' ||
			echo "sample types: $(grep -A1 -x 'Samples:' <<< "$raw" | tail -n 1); "
		python3 "$TOP/tests/pprof_raw.py" samples <<< "$raw" > "$folded"
		echo "$(record_check_only "$folded" fk-pprof)$(record_check_share "$folded" fk-pprof)$(
			record_check_samples "$folded" fk-pprof "$cpu")"
		"$BUILD/flamekit" collapse --sample-type samples "$1" | cmp -s - "$folded" ||
			echo "flamekit reads other stacks from $1 than go tool pprof; "
		local ns samples
		ns=$(python3 "$TOP/tests/pprof_raw.py" cpu <<< "$raw" | awk '{ n += $NF } END { printf "%.0f\n", n }')
		samples=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$folded")
		[[ $ns == $((samples * period)) ]] || echo "cpu nanoseconds $ns, not $samples samples x $period; "
		"${go_env[@]}" go tool pprof -symbolize=none -tags "$1" 2> /dev/null |
			grep -q "): $pid\$" || echo "no pid label $pid; "
	}
	if ! command -v go > /dev/null; then
		record_skip pprof "no go to judge the pprof files (golang-go: run ./setup.sh)"
		record_skip outdir-pprof "no go to judge the pprof files (golang-go: run ./setup.sh)"
	else
		[[ -n ${record_done[pprof]:-} ]] && record_judge pprof "$(judge_pprof "$record_dir/x.pb.gz")"
		if [[ -n ${record_done[outdir-pprof]:-} ]]; then
			local made; made=$(cd "$record_dir/flames-pprof" && ls)
			if ! [[ $made =~ ^[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$pid\.pb\.gz$'\n'[^.]+_[0-9]{8}_[0-9]{6}_UTC\.pid_$pid\.svg$ ]]; then
				record_fail outdir-pprof "made: $made"
			else
				record_judge outdir-pprof "$(judge_pprof "$(echo "$record_dir/flames-pprof/"*.pb.gz)")"
			fi
		fi
	fi
	if [[ -n ${record_done[otlp]:-} ]]; then
		if ! command -v protoc > /dev/null; then
			record_skip otlp "no protoc to judge the OTLP file (protobuf-compiler: run ./setup.sh)"
		elif ! protoc -I "$TOP/tests/otlp-proto" \
			--decode=opentelemetry.proto.profiles.v1development.ProfilesData \
			opentelemetry/proto/profiles/v1development/profiles.proto < "$record_dir/x.otlp" \
			> "$record_dir/otlp.txt" 2> "$record_dir/otlp-protoc.err"; then
			record_fail otlp "protoc refused it: $(head -c 300 "$record_dir/otlp-protoc.err")"
		else
			local said values
			said=$(sed -n 's/^flamekit: \([0-9]*\) samples.*/\1/p' "$record_dir/otlp.err")
			values=$(awk '$1 == "values:" { n += $2 } END { printf "%.0f\n", n }' "$record_dir/otlp.txt")
			problems=""
			[[ $values == "$said" ]] || problems+="its values sum to $values, flamekit says $said samples; "
			grep -q "int_value: $pid\$" "$record_dir/otlp.txt" || problems+="no process.pid $pid; "
			grep -q "string_value: \"$(hostname)\"" "$record_dir/otlp.txt" || problems+="no host.name $(hostname); "
			grep -q 'string_value: "unknown_service:fk-pprof"' "$record_dir/otlp.txt" || problems+="no service.name; "
			grep -q "period: $period\$" "$record_dir/otlp.txt" || problems+="no period $period; "
			record_judge otlp "$problems"
		fi
	fi
}

# Those of the BPF objects ("KIND ID" lines) that bpftool shows.
record_bpf_shown() { # objects
	local kind id
	while read -r kind id; do
		[[ -n $id ]] && "$record_bpftool" "$kind" show id "$id" > /dev/null 2>&1 && echo "$kind $id"
	done <<< "$1"
}

# --- the driver -------------------------------------------------------------------

# Rust names demangled, v0 and legacy: fk-rust's functions carry real
# rustc symbols (main::main's, std::rt::lang_start_internal's, a legacy
# RawTable method's with an .llvm. suffix); every sample of its spin is
# under the three names as Rust prints them, and no name is left mangled
record_test_rust_names() {
	record_run rust-names -F $record_hz -f -- "$record_dir/bin/fk-rust" 0.3 || return
	local out=$record_dir/rust-names.out stack='main;std::rt::lang_start_internal;main::main;hashbrown::raw::RawTable<T,A>::reserve_rehash'
	record_judge rust-names "$(awk -v stack=";$stack" '
		{ n = $NF; line = $0; sub(/ [0-9]+$/, "", line); if (line !~ /^fk-rust;/) next; all += n
		  if (substr(line, length(line) - length(stack) + 1) == stack) hit += n
		  if (line ~ /;_R[A-Za-z0-9_]|;_ZN/) { printf "a mangled name: %s; ", substr(line, 1, 200); exit } }
		END { if (all == 0 || hit < 0.9 * all) printf "%d of %d samples of fk-rust under %s; ", hit, all, stack }' "$out")"
}

# Each test function and the ids it reports.
record_table=(
	"record_test_pid pid"
	"record_test_count count"
	"record_test_tid tid"
	"record_test_command command command-children command-missing"
	"record_test_stacks user-only kernel-only delimited"
	"record_test_idle idle"
	"record_test_cpu cpu"
	"record_test_user user"
	"record_test_outputs folded-reader folded-flamegraph svg outdir report"
	"record_test_interchange pprof otlp outdir-pprof"
	"record_test_kernel_cache kernel-cache"
	"record_test_bpf_names bpf-names"
	"record_test_module_names module-names"
	"record_test_core_btf core-btf"
	"record_test_sigint sigint"
	"record_test_no_loss no-loss"
	"record_test_cgroupmap cgroupmap"
	"record_test_mntnsmap mntnsmap"
	"record_test_cleanup cleanup"
	"record_test_timeline timeline timeline-stdout timeline-html"
	"record_test_off_cpu off-cpu off-cpu-min-block off-cpu-max-block off-cpu-wakeups off-cpu-svg off-cpu-report"
	"record_test_events events-uprobe events-uprobe-dwarf events-tracepoint events-tracepoint-count events-page-faults events-kfunc events-hardware events-svg"
	"record_test_tracefs tracefs-mount tracefs-mounted"
	"record_test_kptr_restrict kptr-restrict"
	"record_test_java java java-no-attach"
	"record_test_rate rate"
	"record_test_all_time all-time all-time-svg"
	"record_test_rust_names rust-names"
	"record_test_high_rate high-rate high-rate-sigint"
	"record_test_second_sigint second-sigint"
	"record_test_pid_exit pid-exit"
	"record_test_no_samples no-samples-svg no-samples-report no-samples-html no-samples-folded"
	"record_test_command_signals command-sigint command-sigterm"
	"record_test_graph_options graph-options-svg graph-options-html"
	"record_test_symbols_hint symbols-hint"
	"record_test_dpkg_paths dpkg-paths"
	"record_test_debuginfod debuginfod debuginfod-not-asked"
)

record_tests() {
	local entry words id ids=() runs=()
	for entry in "${record_table[@]}"; do
		read -ra words <<< "$entry"
		for id in "${words[@]:1}"; do
			if wanted "record/$id"; then runs+=("$entry"); ids+=("${words[@]:1}"); break; fi
		done
	done
	(( ${#runs[@]} )) || return 0

	local why=""
	record_bpftool=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}
	# the kernel symbol cache of these runs, not the machine's
	export FLAMEKIT_CACHE_DIR=$record_dir/cache
	if [[ $(id -u) != 0 ]]; then
		why="record needs root (CI runs as root)"
	else
		mkdir -p "$record_dir/bin" && chmod 755 "$SCRATCH" "$record_dir" "$record_dir/bin"
		local flags="-O0 -fno-omit-frame-pointer -fno-inline" w
		for w in fk-7030 fk-syscall fk-threads fk-offcpu fk-events fk-rust; do
			# shellcheck disable=SC2086
			if ! cc $flags -pthread -o "$record_dir/bin/$w" "$TOP/tests/workload/$w.c" 2> "$record_dir/cc.err"; then
				for id in "${ids[@]}"; do
					record_fail "$id" "cannot build tests/workload/$w.c: $(head -n 1 "$record_dir/cc.err")"
				done
				return 0
			fi
		done
		"$BUILD/flamekit" record -f 0.2 > /dev/null 2> "$record_dir/probe"
		local rc=$?
		if [[ $rc != 0 ]]; then
			why="BPF sampling does not work here: flamekit record -f 0.2 exited $rc: $(grep -m1 flamekit: "$record_dir/probe" || tail -n 1 "$record_dir/probe")"
		elif [[ ! -x $record_bpftool ]]; then
			why="no bpftool (it builds flamekit: see README)"
		fi
	fi
	if [[ -n $why ]]; then
		for id in "${ids[@]}"; do record_skip "$id" "$why"; done
		return 0
	fi

	for entry in "${runs[@]}"; do
		read -ra words <<< "$entry"
		record_why=""
		fresh_kernel_mounts  # as a new machine has them (run.sh)
		"${words[0]}"
		record_reap
		# a set-up that failed, or a path that judged nothing, is a failure
		for id in "${words[@]:1}"; do
			[[ -n ${record_reported[$id]:-} ]] ||
				record_fail "$id" "${record_why:-the test judged nothing (see the other failures)}"
		done
	done
}
