# The tests of `flamekit record --every` and `--push` (continuous profiling
# for fleets): sourced by tests/run.sh (uses its pass/fail/skip/wanted,
# $BUILD, $TOP, $SCRATCH). They need root (record samples with BPF).
#
# The backends (Pyroscope, an OpenTelemetry Collector) are not in Debian:
# tests/push_receiver.py stands in for both on 127.0.0.1 (a free port it
# picks), keeps every body it accepts, and the tests judge those bodies with
# the real decoders, `go tool pprof -raw` and `protoc --decode` with the
# pinned .proto files of tests/otlp-proto/. Every wait is bounded; each test
# writes only in its scratch directory and looks only at what it started.

fleet_dir=$SCRATCH/fleet
fleet_proto=$TOP/tests/otlp-proto
fleet_guard=90   # seconds before a run that does not end is stopped: a hang

# fleet_receiver NAME [ARGS...]: starts the receiver keeping requests in
# $fleet_dir/NAME; its port in fleet_port, its pid in fleet_receiver_pid.
fleet_receiver() {
	local dir=$fleet_dir/$1; shift
	mkdir -p "$dir"
	rm -f "$dir/port"
	python3 "$TOP/tests/push_receiver.py" "$dir" "$@" > "$dir/receiver.log" 2>&1 &
	fleet_receiver_pid=$!
	local tries=0
	until [[ -s $dir/port ]]; do
		(( ++tries > 100 )) && return 1
		sleep 0.1
	done
	fleet_port=$(cat "$dir/port")
}

fleet_stop() { [[ -n ${1:-} ]] && kill "$1" 2> /dev/null; wait "$1" 2> /dev/null; return 0; }

# A busy process (comm fk-fleet-busy), stopped until a test lets it run.
fleet_busy() {
	cp /bin/sh "$fleet_dir/fk-fleet-busy"
	"$fleet_dir/fk-fleet-busy" -c 'kill -STOP $$; while :; do :; done' &
	fleet_busy_pid=$!
	local tries=0
	until [[ $(awk '{ print $3 }' "/proc/$fleet_busy_pid/stat" 2> /dev/null) == T ]]; do
		(( ++tries > 100 )) && return 1
		sleep 0.05
	done
}

# CPU seconds a process has used (utime + stime).
fleet_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }

# fleet_record ERR ARGS...: flamekit record ARGS in the background, its
# stderr in ERR, its pid in fleet_pid.
fleet_record() {
	local err=$1; shift
	timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record "$@" 2> "$err" &
	fleet_pid=$!
}

# fleet_wait_line FILE REGEX: until a line of FILE matches (bounded).
fleet_wait_line() {
	local tries=0
	until grep -qE "$2" "$1" 2> /dev/null; do
		(( ++tries > 600 )) && return 1
		sleep 0.05
	done
}

# Sum of the first value of each sample of a pprof file (go tool pprof -raw).
fleet_pprof_samples() {
	go tool pprof -raw "$1" 2> /dev/null |
		awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 } on && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+:$/ { s += $1 } END { printf "%.0f\n", s }'
}

# The requests a receiver accepted, one line each: from until name body.
fleet_accepted() {
	python3 - "$1/requests.jsonl" << 'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["status"] == 200:
        q = r["query"]
        print(q.get("from", "-"), q.get("until", "-"), q.get("name", "-"), r["body"])
EOF
}

# Pyroscope: every window of a busy process at 99 Hz for 7 s with --every 2
# arrives once, back to back, with the host label, its samples within 10 %
# of 99 a CPU second; then the same receiver answering 503 twice.
fleet_pyroscope_test() {
	local id=record/fleet-pyroscope dir=$fleet_dir/pyro err=$fleet_dir/pyro.err
	fleet_receiver pyro || { fail "$id" "the receiver did not start"; return; }
	fleet_busy || { fail "$id" "the busy process did not start"; fleet_stop "$fleet_receiver_pid"; return; }
	fleet_record "$err" -F 99 -p "$fleet_busy_pid" --every 2 --label team=fleet \
		--push "http://127.0.0.1:$fleet_port/ingest" --spool "$fleet_dir/pyro-spool" 7
	local cpu0 cpu1 status
	fleet_wait_line "$err" '^flamekit: a profile every' || true
	cpu0=$(fleet_cpu "$fleet_busy_pid")
	kill -CONT "$fleet_busy_pid"
	# stopped as sampling ends: the CPU it used is what was sampled
	fleet_wait_line "$err" '^flamekit: [0-9]+ samples' || true
	kill -STOP "$fleet_busy_pid"
	cpu1=$(fleet_cpu "$fleet_busy_pid")
	wait "$fleet_pid"; status=$?
	kill -KILL "$fleet_busy_pid"; wait "$fleet_busy_pid" 2> /dev/null
	fleet_stop "$fleet_receiver_pid"
	local accepted total=0 n=0 prev_until="" problem="" host
	host=$(hostname)
	accepted=$(fleet_accepted "$dir")
	while read -r from until name body; do
		[[ -z $from ]] && continue
		n=$((n + 1))
		[[ -n $prev_until && $from != "$prev_until" ]] && problem="window $n starts at $from, the one before ended at $prev_until"
		prev_until=$until
		[[ $name == "fk-fleet-busy.cpu{host=$host,team=fleet}" ]] || problem="name $name"
		local s
		s=$(fleet_pprof_samples "$dir/$body")
		[[ $s =~ ^[0-9]+$ ]] || { problem="go tool pprof cannot read $body"; s=0; }
		total=$((total + s))
	done <<< "$accepted"
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif [[ $n != 4 ]]; then
		fail "$id" "$n windows arrived, not 4: $(tr '\n' '|' <<< "$accepted")"
	elif [[ -n $problem ]]; then
		fail "$id" "$problem"
	elif ! awk -v s="$total" -v c0="$cpu0" -v c1="$cpu1" 'BEGIN { e = 99 * (c1 - c0); exit !(e > 0 && s >= 0.9 * e && s <= 1.1 * e) }'; then
		fail "$id" "$total samples for $(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { print b - a }') CPU s at 99 Hz"
	elif ! tail -n 1 "$err" | grep -q '^flamekit: push: 4 windows delivered, 0 spooled'; then
		fail "$id" "last line: $(tail -n 1 "$err")"
	else
		pass "$id"
	fi
}

# A receiver that answers 503 twice still gets every window, once each.
fleet_retry_test() {
	local id=record/fleet-retry dir=$fleet_dir/retry err=$fleet_dir/retry.err status
	fleet_receiver retry --fail 2 || { fail "$id" "the receiver did not start"; return; }
	fleet_record "$err" -F 49 --every 1 --push "http://127.0.0.1:$fleet_port/ingest" \
		--spool "$fleet_dir/retry-spool" 3.5
	wait "$fleet_pid"; status=$?
	fleet_stop "$fleet_receiver_pid"
	local froms dups failed
	froms=$(fleet_accepted "$dir" | awk '{ print $1 }')
	dups=$(sort <<< "$froms" | uniq -d)
	failed=$(grep -c '"status": 503' "$dir/requests.jsonl")
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif [[ $(grep -c . <<< "$froms") != 4 || -n $dups || $failed != 2 ]]; then
		fail "$id" "accepted $(tr '\n' ' ' <<< "$froms")(duplicates: ${dups:-none}), $failed answered 503"
	elif ! grep -q 'status 503' "$err"; then
		fail "$id" "the 503 was not said"
	else
		pass "$id"
	fi
}

# A receiver down for a whole run gets that run's windows from the next run,
# first and in order.
fleet_down_test() {
	local id=record/fleet-down dir=$fleet_dir/down err=$fleet_dir/down.err status1 status2
	fleet_receiver down || { fail "$id" "the receiver did not start"; return; }
	local port=$fleet_port
	fleet_stop "$fleet_receiver_pid"   # down: nothing listens on the port
	fleet_record "$err.1" -F 49 --every 1 --push-timeout 1 \
		--push "http://127.0.0.1:$port/ingest" --spool "$fleet_dir/down-spool" 2.5
	wait "$fleet_pid"; status1=$?
	local spooled
	spooled=$(ls "$fleet_dir/down-spool" | grep -c '\.fkw$')
	fleet_receiver down || { fail "$id" "the receiver did not start again"; return; }
	fleet_record "$err.2" -F 49 --every 1 --push "http://127.0.0.1:$fleet_port/ingest" \
		--spool "$fleet_dir/down-spool" 2.5
	wait "$fleet_pid"; status2=$?
	fleet_stop "$fleet_receiver_pid"
	local froms sorted
	froms=$(fleet_accepted "$dir" | awk '{ print $1 }')
	sorted=$(sort -n <<< "$froms")
	if [[ $status1 != 0 || $status2 != 0 ]]; then
		fail "$id" "exit $status1 then $status2: $(tail -n 1 "$err.2")"
	elif [[ $spooled != 3 ]] || ! tail -n 1 "$err.1" | grep -q '0 windows delivered, 3 spooled'; then
		fail "$id" "the first run spooled $spooled windows: $(tail -n 1 "$err.1")"
	elif [[ $(grep -c . <<< "$froms") != 6 || $froms != "$sorted" ]]; then
		fail "$id" "accepted $(tr '\n' ' ' <<< "$froms")"
	elif ! tail -n 1 "$err.2" | grep -q '6 windows delivered, 0 spooled'; then
		fail "$id" "last line: $(tail -n 1 "$err.2")"
	else
		pass "$id"
	fi
}

# kill -9 in the middle of a run loses only the window in progress: the
# spooled ones go with the next run.
fleet_kill_test() {
	local id=record/fleet-kill9 dir=$fleet_dir/kill err=$fleet_dir/kill.err status
	fleet_receiver kill || { fail "$id" "the receiver did not start"; return; }
	local port=$fleet_port
	fleet_stop "$fleet_receiver_pid"
	fleet_record "$err.1" -F 49 --every 1 --push "http://127.0.0.1:$port/ingest" \
		--spool "$fleet_dir/kill-spool" 30
	# three windows spooled, then SIGKILL in the fourth
	local tries=0
	until (( $(ls "$fleet_dir/kill-spool" 2> /dev/null | grep -c '\.fkw$') >= 3 )); do
		(( ++tries > 300 )) && break
		sleep 0.05
	done
	sleep 0.3
	# flamekit itself, not the timeout that guards it
	kill -KILL "$(ps -o pid= --ppid "$fleet_pid")"; wait "$fleet_pid" 2> /dev/null
	local spooled
	spooled=$(ls "$fleet_dir/kill-spool" | grep -c '\.fkw$')
	fleet_receiver kill || { fail "$id" "the receiver did not start again"; return; }
	fleet_record "$err.2" -F 49 --every 1 --push "http://127.0.0.1:$fleet_port/ingest" \
		--spool "$fleet_dir/kill-spool" 1.5
	wait "$fleet_pid"; status=$?
	fleet_stop "$fleet_receiver_pid"
	local n
	n=$(fleet_accepted "$dir" | grep -c .)
	if (( spooled < 3 )); then
		fail "$id" "$spooled windows in the spool after the kill"
	elif [[ $status != 0 || $n != $((spooled + 2)) ]]; then
		fail "$id" "exit $status; $n accepted for $spooled spooled + 2 new: $(tail -n 1 "$err.2")"
	elif ls -a "$fleet_dir/kill-spool" | grep -q '^\.w'; then
		fail "$id" "a half-written window was left in the spool"
	else
		pass "$id"
	fi
}

# fleet_newest_kept SPOOL N: the N windows left are the run's last N: one
# second apart, the last one the one cut short by the end (until - from < 1
# is not told by whole seconds, so: the last is the one of the greatest from).
fleet_newest_kept() {
	python3 - "$1" "$2" << 'EOF'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
heads = []
for name in sorted(f for f in os.listdir(d) if f.endswith(".fkw")):
    with open(os.path.join(d, name), "rb") as f:
        head = dict(l.split(" ", 1) for l in f.read().split(b"\n\n")[0].decode().split("\n")[1:])
    heads.append((int(head["from"]), int(head["until"])))
ok = len(heads) == n and all(heads[i][1] == heads[i + 1][0] for i in range(n - 1))
sys.exit(0 if ok else 1)
EOF
}

# --spool-max drops the oldest windows first, counts them, and says so.
fleet_spool_max_test() {
	local id=record/fleet-spool-max dir=$fleet_dir/max err=$fleet_dir/max.err status
	fleet_receiver max || { fail "$id" "the receiver did not start"; return; }
	local port=$fleet_port
	fleet_stop "$fleet_receiver_pid"
	fleet_busy || { fail "$id" "the busy process did not start"; return; }
	kill -CONT "$fleet_busy_pid"
	# one busy process's windows, about 1K each: room for two or three
	fleet_record "$err" -F 49 -p "$fleet_busy_pid" --every 1 --push-timeout 0 --spool-max 3K \
		--push "http://127.0.0.1:$port/ingest" --spool "$fleet_dir/max-spool" 5.5
	wait "$fleet_pid"; status=$?
	kill -KILL "$fleet_busy_pid"; wait "$fleet_busy_pid" 2> /dev/null
	local left dropped names
	names=$(ls "$fleet_dir/max-spool" | grep '\.fkw$')
	left=$(grep -c . <<< "$names")
	dropped=$(tail -n 1 "$err" | sed -n 's/.* \([0-9][0-9]*\) dropped$/\1/p')
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif [[ -z $dropped ]] || (( dropped < 1 || left + dropped != 6 )); then
		fail "$id" "$left windows left, last line: $(tail -n 1 "$err")"
	elif [[ $(du -cb "$fleet_dir"/max-spool/*.fkw | tail -n 1 | cut -f1) -gt 3072 ]]; then
		fail "$id" "the spool holds more than 3K"
	elif [[ $(grep -c 'spool-max.*dropped' "$err") != "$dropped" ]]; then
		fail "$id" "$dropped dropped but $(grep -c 'spool-max.*dropped' "$err") lines say so"
	elif ! fleet_newest_kept "$fleet_dir/max-spool" "$left"; then
		fail "$id" "the windows kept are not the newest: $(tr '\n' ' ' <<< "$names")"
	else
		pass "$id"
	fi
}

# OTLP: the bodies decode as ExportProfilesServiceRequest with service.name.
fleet_otlp_test() {
	local id=record/fleet-otlp dir=$fleet_dir/otlp err=$fleet_dir/otlp.err status
	fleet_receiver otlp || { fail "$id" "the receiver did not start"; return; }
	# a process that runs in every window: an idle machine's windows hold
	# no samples, and so no resource to name
	fleet_busy || { fail "$id" "the busy process did not start"; fleet_stop "$fleet_receiver_pid"; return; }
	kill -CONT "$fleet_busy_pid"
	fleet_record "$err" -F 49 -p "$fleet_busy_pid" --every 1 --app fleet-otlp \
		--label deployment.environment=test \
		--push "http://127.0.0.1:$fleet_port/v1development/profiles" --spool "$fleet_dir/otlp-spool" 2.5
	wait "$fleet_pid"; status=$?
	kill -KILL "$fleet_busy_pid"; wait "$fleet_busy_pid" 2> /dev/null
	fleet_stop "$fleet_receiver_pid"
	local bodies=() decoded=0 body problem=""
	mapfile -t bodies < <(fleet_accepted "$dir" | awk '{ print $4 }')
	for body in "${bodies[@]}"; do
		if protoc -I "$fleet_proto" \
			--decode=opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest \
			opentelemetry/proto/collector/profiles/v1development/profiles_service.proto \
			< "$dir/$body" > "$dir/$body.txt" 2> "$dir/$body.err" &&
			grep -A2 'key: "service.name"' "$dir/$body.txt" | grep -q 'string_value: "fleet-otlp"' &&
			grep -A2 'key: "deployment.environment"' "$dir/$body.txt" | grep -q 'string_value: "test"'; then
			decoded=$((decoded + 1))
		else
			problem="$body: $(head -n 1 "$dir/$body.err")"
		fi
	done
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif (( ${#bodies[@]} != 3 || decoded != 3 )); then
		fail "$id" "${#bodies[@]} bodies, $decoded decoded with service.name fleet-otlp ${problem}"
	elif grep -v '"content_type": "application/x-protobuf"' "$dir/requests.jsonl" | grep -q .; then
		fail "$id" "a request without Content-Type application/x-protobuf"
	else
		pass "$id"
	fi
}

# A 401 stops the push and the recording with one line naming the status
# and the body's first line; exit 1; the secret came from the environment.
fleet_refused_test() {
	local id=record/fleet-401 dir=$fleet_dir/refused err=$fleet_dir/refused.err status
	fleet_receiver refused --fail 1000 --status 401 || { fail "$id" "the receiver did not start"; return; }
	FLAMEKIT_PUSH_AUTHORIZATION="Bearer fleet-secret" \
		fleet_record "$err" -F 49 --every 1 --push "http://127.0.0.1:$fleet_port/ingest" \
		--spool "$fleet_dir/refused-spool" 30
	wait "$fleet_pid"; status=$?
	fleet_stop "$fleet_receiver_pid"
	local lines
	lines=$(grep -c 'refused: status 401: invalid token: the receiver refuses it$' "$err")
	if [[ $status != 1 ]]; then
		fail "$id" "exit $status, not 1: $(tail -n 1 "$err")"
	elif [[ $lines != 1 ]]; then
		fail "$id" "$lines lines name the 401: $(tr '\n' '|' < "$err")"
	elif [[ $(grep -c '"status": 401' "$dir/requests.jsonl") != 1 ]]; then
		fail "$id" "the refused window was sent again"
	elif ! grep -q '"authorization": "Bearer fleet-secret"' "$dir/requests.jsonl"; then
		fail "$id" "no Authorization header from FLAMEKIT_PUSH_AUTHORIZATION"
	else
		pass "$id"
	fi
}

# --every with --outdir: one file a window, named by its start, --keep N.
fleet_outdir_test() {
	local id=record/fleet-outdir err=$fleet_dir/outdir.err status
	fleet_record "$err" -F 49 --every 1 --keep 2 --outdir "$fleet_dir/outdir" 3.5
	wait "$fleet_pid"; status=$?
	local files
	files=$(ls "$fleet_dir/outdir")
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif [[ $(grep -c '_UTC\.pb\.gz$' <<< "$files") != 2 || $(grep -c '^flamekit: wrote ' "$err") != 4 ]]; then
		fail "$id" "files: $(tr '\n' ' ' <<< "$files")"
	elif ! go tool pprof -raw "$fleet_dir/outdir/$(tail -n 1 <<< "$files")" > /dev/null 2>&1; then
		fail "$id" "go tool pprof cannot read the last window"
	else
		pass "$id"
	fi
}

# fleet_windows DIR: "FILE SUM" for each window's folded file, in order
fleet_windows() {
	local f
	for f in "$1"/*.folded.gz; do
		echo "$f $(gzip -dc "$f" | awk '{ n += $NF } END { printf "%.0f\n", n }')"
	done
}

# -e with --every: each event in exactly one window. The command forks 80
# times (40 /bin/true, 40 sleep), each fork one sched_process_fork event
# of the shell's; over 3 or more windows they sum to 80 exactly.
fleet_events_test() {
	local id=record/fleet-every-events dir=$fleet_dir/every-events err=$fleet_dir/every-events.err
	rm -rf "$dir"
	if ! timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record -e sched:sched_process_fork \
		--every 1 --outdir "$dir" --format folded -- sh -c \
		'i=0; while [ $i -lt 40 ]; do /bin/true; sleep 0.06; i=$((i + 1)); done' 2> "$err"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return
	fi
	local windows total
	windows=$(fleet_windows "$dir")
	total=$(awk '{ n += $2 } END { printf "%.0f\n", n }' <<< "$windows")
	if (( $(grep -c . <<< "$windows") < 3 )); then
		fail "$id" "$(grep -c . <<< "$windows") windows: $(ls "$dir" | tr '\n' ' ')"
	elif [[ $total != 80 ]]; then
		fail "$id" "the windows hold $total forks, not 80: $(awk '{ print $2 }' <<< "$windows" | tr '\n' ' ')"
	else
		pass "$id"
	fi
}

# --off-cpu with --every: a block counts in the window it ends in, once.
# 50 sleeps of 60 ms: sleep's time off CPU is 3 s over the windows (not
# twice that: no block in two windows), and in three windows at least.
fleet_offcpu_test() {
	local id=record/fleet-every-offcpu dir=$fleet_dir/every-offcpu err=$fleet_dir/every-offcpu.err
	rm -rf "$dir"
	if ! timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record --off-cpu --every 1 \
		--outdir "$dir" --format folded -- sh -c \
		'i=0; while [ $i -lt 50 ]; do sleep 0.06; i=$((i + 1)); done' 2> "$err"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return
	fi
	local f sleeps=() total=0 with=0
	for f in "$dir"/*.folded.gz; do
		local us; us=$(gzip -dc "$f" | awk '$0 ~ /^sleep;/ { n += $NF } END { printf "%.0f\n", n }')
		sleeps+=("$us")
		total=$((total + us))
		(( us > 0 )) && with=$((with + 1))
	done
	if (( with < 3 )); then
		fail "$id" "sleep blocked in $with windows: ${sleeps[*]} us"
	elif ! awk -v t="$total" 'BEGIN { exit !(t >= 2900000 && t <= 3500000) }'; then
		fail "$id" "sleep's blocks sum to $total us over the windows (${sleeps[*]}), not 3 s (+ exits)"
	else
		pass "$id"
	fi
}

# --every lets a binary's symbols go after BINARY_IDLE_FORGETS (6) windows
# that named nothing of it, and reads them again at its next name: a
# program run, 9 s of nothing, the same program again: both runs' samples
# are named (seventy, thirty), over windows 8 or more apart.
fleet_names_again_test() {
	local id=record/fleet-names-again dir=$fleet_dir/names-again err=$fleet_dir/names-again.err
	local bin=$fleet_dir/fk-names-again
	rm -rf "$dir"
	if ! cc -O0 -fno-omit-frame-pointer -fno-inline -o "$bin" "$TOP/tests/workload/fk-7030.c" \
		2> "$err"; then
		fail "$id" "cannot build tests/workload/fk-7030.c: $(head -n 1 "$err")"
		return
	fi
	if ! timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record -F 199 --every 1 \
		--outdir "$dir" --format folded -- sh -c '"$1" 0.6; sleep 9; "$1" 0.6' sh "$bin" \
		2> "$err"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return
	fi
	# per window in order: its samples of the program, and those named
	local f counts=()
	for f in "$dir"/*.folded.gz; do
		counts+=("$(gzip -dc "$f" | awk '/^fk-names-again;/ { n += $NF; if ($0 ~ /;(seventy|thirty) /) k += $NF }
			END { printf "%d/%d\n", k, n }')")
	done
	local verdict
	verdict=$(printf '%s\n' "${counts[@]}" | awk -F/ '
		$2 > 0 { if (!gap && last && NR - last >= 8) gap = 1
			 if (gap) { second += $2; named2 += $1 } else { first += $2; named1 += $1 }
			 last = NR }
		END { if (!gap) print "no gap of 8 windows between the runs";
		      else if (first < 50 || second < 50) print "too few samples: " first " and " second;
		      else if (named1 < 0.9 * first || named2 < 0.9 * second)
			print "named: " named1 " of " first " before, " named2 " of " second " after" }')
	if [[ -n $verdict ]]; then
		fail "$id" "$verdict (windows: ${counts[*]})"
	else
		pass "$id"
	fi
}

# --every closes a binary no process has mapped over BINARY_IDLE_FORGETS
# (6) windows: ten programs, each a copy of its own deleted after it ran,
# then 9 s of nothing; the recorder (the workload's parent) holds none of
# them open then (it held every one: their disk space with them), their
# samples were named, and the kernel's tables of all ten were let go
# (their rows free for later binaries', as -v says). An eleventh copy run
# then takes rows freed: its stacks are whole, _start to seventy.
fleet_binaries_closed_test() {
	local id=record/fleet-binaries-closed dir=$fleet_dir/closed err=$fleet_dir/closed.err
	local bin=$fleet_dir/fk-closed held=$fleet_dir/closed.held
	rm -rf "$dir" "$held"
	if ! cc -O0 -fno-omit-frame-pointer -fno-inline -o "$bin" "$TOP/tests/workload/fk-7030.c" \
		2> "$err"; then
		fail "$id" "cannot build tests/workload/fk-7030.c: $(head -n 1 "$err")"
		return
	fi
	if ! timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record -v -F 199 --every 1 \
		--outdir "$dir" --format folded -- sh -c '
			for i in 0 1 2 3 4 5 6 7 8 9; do
				cp "$1" "$1-$i" && "$1-$i" 0.3; rm -f "$1-$i"
			done
			sleep 9
			ls -l /proc/$PPID/fd | grep -c "fk-closed-" > "$2"
			cp "$1" "$1-last" && "$1-last" 0.5; rm -f "$1-last"' sh "$bin" "$held" \
		2> "$err"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return
	fi
	local named let_go
	let_go=$(sed -n 's/.* KiB (\([0-9]*\), [0-9]* KiB, of binaries closed since).*/\1/p' "$err")
	named=$(gzip -dc "$dir"/*.folded.gz | awk '/^fk-closed-[0-9]/ { n += $NF; if ($0 ~ /;(seventy|thirty) /) k += $NF }
		/^fk-closed-last;/ { m += $NF; if ($0 ~ /^fk-closed-last;_start;.*;main;(seventy|thirty) /) w += $NF }
		END { if (n < 200 || k < 0.9 * n) print "named " k " of " n " samples"
		      else if (m < 50 || w < 0.9 * m) print "the last copy: " w " of " m " stacks whole" }')
	if [[ ! -s $held ]]; then
		fail "$id" "the workload could not look at the recorder's descriptors"
	elif [[ $(cat "$held") != 0 ]]; then
		fail "$id" "$(cat "$held") of the ten deleted programs still open 9 s after the last ran"
	elif [[ -n $named ]]; then
		fail "$id" "$named"
	elif [[ -z $let_go ]] || (( let_go < 10 )); then
		fail "$id" "kernel tables let go: ${let_go:-none said}, not the ten programs': $(grep 'unwind tables' "$err")"
	else
		pass "$id"
	fi
}

# A spool on a full filesystem (a tmpfs of 8 KiB, mounted in a mount
# namespace of the test's own) with the backend down: sampling goes on to
# the end, the windows not kept are said and counted as dropped.
fleet_spool_full_test() {
	local id=record/fleet-spool-full err=$fleet_dir/full.err spool=$fleet_dir/full-spool status
	if ! unshare -m true 2> /dev/null; then
		skip "$id" "unshare -m is refused here: no mount namespace for a small tmpfs"
		return
	fi
	fleet_receiver full || { fail "$id" "the receiver did not start"; return; }
	local port=$fleet_port
	fleet_stop "$fleet_receiver_pid"
	fleet_busy || { fail "$id" "the busy process did not start"; return; }
	kill -CONT "$fleet_busy_pid"
	mkdir -p "$spool"
	timeout -s KILL "$fleet_guard" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o size=8k flamekit-test "$1" && shift && exec "$@"' sh "$spool" \
		"$BUILD/flamekit" record -F 99 -p "$fleet_busy_pid" --every 1 --push-timeout 0 \
		--push "http://127.0.0.1:$port/ingest" --spool "$spool" 6 2> "$err"
	status=$?
	kill -KILL "$fleet_busy_pid"; wait "$fleet_busy_pid" 2> /dev/null
	local dropped samples
	dropped=$(tail -n 1 "$err" | sed -n 's/.* \([0-9][0-9]*\) dropped$/\1/p')
	samples=$(sed -n 's/^flamekit: \([0-9]*\) samples.* in \([0-9.]*\) s.*/\1 \2/p' "$err")
	if [[ $status != 0 ]]; then
		fail "$id" "exit $status: $(tail -n 1 "$err")"
	elif [[ -z $dropped ]] || (( dropped < 1 )); then
		fail "$id" "nothing dropped: $(tail -n 1 "$err")"
	elif ! grep -q 'could not be kept (full disk?): dropped; sampling goes on' "$err"; then
		fail "$id" "no line says the window was not kept: $(grep -v '^libbpf' "$err" | head -n 3 | tr '\n' ' ')"
	elif ! awk -v s="${samples% *}" -v t="${samples#* }" 'BEGIN { exit !(t >= 5.9 && s >= 0.8 * 99 * t) }'; then
		fail "$id" "sampling did not go on: $samples (samples, seconds)"
	else
		pass "$id"
	fi
}

# Python for the scripts of fleet_followed: COUNT children forked on CPU 1
# (where the caller runs) that move to CPU 0 and exit there, PAUSE seconds
# apart: their forks and exits are reported in two CPUs' rings.
fleet_children_gone='
import os, time
def children_gone(count, pause):
    for i in range(count):
        pid = os.fork()
        if pid == 0:
            os.sched_setaffinity(0, {0})
            os._exit(0)
        os.waitpid(pid, 0)
        time.sleep(pause)
'

# fleet_followed ID NAME SCRIPT: python3 -c SCRIPT under record --every 1
# -v; what the recorder still followed at its end in fleet_held, "P M"
# (processes, mappings). Fails ID and returns 1 when the run fails or
# does not say.
fleet_followed() {
	local id=$1 name=$2 script=$3 err=$fleet_dir/$2.err
	rm -rf "$fleet_dir/$name"
	if ! timeout -s KILL "$fleet_guard" "$BUILD/flamekit" record -v -F 99 --every 1 \
		--outdir "$fleet_dir/$name" --format folded -- python3 -c "$script" 2> "$err"; then
		fail "$id" "$(grep -v '^libbpf' "$err" | tail -n 1)"
		return 1
	fi
	fleet_held=$(sed -n 's/^flamekit: \([0-9]*\) processes still followed at the end, with \([0-9]*\) mappings$/\1 \2/p' "$err")
	if [[ -z $fleet_held ]]; then
		fail "$id" "no line of the processes still followed: $(grep -v '^libbpf' "$err" | tail -n 2 | tr '\n' ' ')"
		return 1
	fi
}

# A process that forks on one CPU and exits on another has its fork and its
# exit in two rings: read ring by ring, the exit came before the fork it
# ends and the process was followed for the run's life. 300 children forked
# on CPU 1 exit on CPU 0; at the end almost none is followed.
fleet_exits_test() {
	local id=record/fleet-exits
	if (( $(nproc) < 2 )); then skip "$id" "needs two CPUs (a fork on one, its exit on another)"; return; fi
	fleet_followed "$id" exits "$fleet_children_gone
os.sched_setaffinity(0, {1})
children_gone(300, 0)
" || return
	local processes=${fleet_held% *}
	if (( processes > 30 )); then
		fail "$id" "$processes processes still followed at the end of 300 forked and gone"
	else
		pass "$id"
	fi
}

# Exits the kernel could not report (their CPU's ring full) are found by
# looking: a process renaming itself on CPU 0 as fast as it can fills that
# ring with 40-byte records, where the 48-byte exits of twenty children forked
# on CPU 1 find no room; after the windows that follow, they are not
# followed any more, and the end says reports were lost.
fleet_lost_exits_test() {
	local id=record/fleet-lost-exits
	if (( $(nproc) < 2 )); then skip "$id" "needs two CPUs (a fork on one, its exit on another)"; return; fi
	fleet_followed "$id" lost-exits "$fleet_children_gone"'
import ctypes
flooder = os.fork()
if flooder == 0:
    os.sched_setaffinity(0, {0})
    prctl = ctypes.CDLL(None).prctl
    while True:
        prctl(15, b"fk-flood", 0, 0, 0)
os.sched_setaffinity(0, {1})
time.sleep(0.5)
children_gone(20, 0.1)
os.kill(flooder, 9)
os.waitpid(flooder, 0)
time.sleep(3)
' || return
	local processes=${fleet_held% *}
	if ! grep -q "of the kernel's reports of mmaps, execs, forks and exits were lost" \
		"$fleet_dir/lost-exits.err"; then
		fail "$id" "no report was lost: the test did not fill the ring ($processes processes followed)"
	elif (( processes > 3 )); then
		fail "$id" "$processes processes still followed at the end, of twenty children and a flooder gone"
	else
		pass "$id"
	fi
}

# A process that maps code at the same address again and again (a JIT, a
# dlopen in a loop) had every mapping kept for its life: one page mapped
# 8,000 times at one address over 4 s by a child still alive at the end
# (it exits 2 s after its parent, the recorded command);
# what is followed then holds some tens of mappings, not thousands.
fleet_mappings_test() {
	local id=record/fleet-mappings
	fleet_followed "$id" mappings '
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PROT_READ_EXEC, MAP_PRIVATE_ANONYMOUS_FIXED_NOREPLACE = 0x1 | 0x4, 0x02 | 0x20 | 0x100000
at = 0x3f0000000000
child = os.fork()
if child == 0:
    end = time.monotonic() + 4
    for i in range(8000):
        if libc.mmap(at, 4096, PROT_READ_EXEC, MAP_PRIVATE_ANONYMOUS_FIXED_NOREPLACE, -1, 0) != at:
            os._exit(1)
        libc.munmap(at, 4096)
        time.sleep(max(0, (end - time.monotonic()) / (8000 - i)))
    time.sleep(4)  # past the end of the recording (the parent exits at 6 s)
    os._exit(0)
time.sleep(6)
' || return
	local mappings=${fleet_held#* }
	if (( mappings > 500 )); then
		fail "$id" "$mappings mappings still kept at the end (${fleet_held% *} processes)"
	elif (( mappings < 2 )); then
		fail "$id" "$mappings mappings followed at the end: the mapping child did not live to the end"
	else
		pass "$id"
	fi
}

record_fleet_tests() {
	local ids=(fleet-pyroscope fleet-retry fleet-down fleet-kill9 fleet-spool-max fleet-otlp
		fleet-401 fleet-outdir fleet-every-events fleet-every-offcpu fleet-spool-full
		fleet-names-again fleet-binaries-closed fleet-exits fleet-lost-exits fleet-mappings) id any=
	for id in "${ids[@]}"; do wanted "record/$id" && any=1; done
	[[ -n $any ]] || return 0
	local why=""
	if [[ $(id -u) != 0 ]]; then
		why="record needs root (CI runs as root)"
	elif ! command -v python3 > /dev/null || ! command -v protoc > /dev/null ||
		! command -v go > /dev/null; then
		why="python3, protoc and go are the receiver and the decoders (./setup.sh installs them)"
	fi
	if [[ -n $why ]]; then
		for id in "${ids[@]}"; do
			wanted "record/$id" || continue
			if [[ -n ${CI:-} && $(id -u) == 0 ]]; then fail "record/$id" "$why"; else skip "record/$id" "$why"; fi
		done
		return 0
	fi
	mkdir -p "$fleet_dir"
	export FLAMEKIT_CACHE_DIR=$fleet_dir/cache
	wanted record/fleet-pyroscope && fleet_pyroscope_test
	wanted record/fleet-retry && fleet_retry_test
	wanted record/fleet-down && fleet_down_test
	wanted record/fleet-kill9 && fleet_kill_test
	wanted record/fleet-spool-max && fleet_spool_max_test
	wanted record/fleet-otlp && fleet_otlp_test
	wanted record/fleet-401 && fleet_refused_test
	wanted record/fleet-outdir && fleet_outdir_test
	wanted record/fleet-every-events && fleet_events_test
	wanted record/fleet-every-offcpu && fleet_offcpu_test
	wanted record/fleet-spool-full && fleet_spool_full_test
	wanted record/fleet-names-again && fleet_names_again_test
	wanted record/fleet-binaries-closed && fleet_binaries_closed_test
	wanted record/fleet-exits && fleet_exits_test
	wanted record/fleet-lost-exits && fleet_lost_exits_test
	wanted record/fleet-mappings && fleet_mappings_test
	return 0
}
