# The tests of `flamekit record`'s Python frames: sourced by tests/run.sh
# (uses its pass/fail/skip/wanted, $BUILD, $TOP, $SCRATCH). Root only, like
# tests/record.sh. The workload is tests/workload/fk-python.py on Debian's
# own /usr/bin/python3.N (stripped, libpython linked in): its main thread
# (named fk-python) splits its CPU time 1:3 between quarter(), 41 frames of
# recurse() deep, and three_quarters(), whose sorted() calls slow_key() from
# C; its thread fk-worker spins in worker(). Judged by what the script is:
#
#   - at least 95% of fk-python's samples carry <module>;main from the script;
#   - quarter()'s share of quarter() + three_quarters() is within 4 points of
#     the share of CPU time the script measured in them (some 25%);
#   - at least 95% of quarter()'s samples have all 41 recurse() frames, none more;
#   - at least 95% of slow_key()'s samples sit under three_quarters() with
#     native frames (sorted()'s) between and no Python frame there;
#   - fk-worker's samples name no function of the main thread.

python_dir=$SCRATCH/record-python
python_script=$TOP/tests/workload/fk-python.py

# Python frames are "function (file)"; the script's are "function (fk-python.py)".
# STDERR holds what the script printed: its "split QUARTER_S THREE_QUARTERS_S".
python_judge() { # folded stderr
	local split
	split=$(awk '$1 == "split" && $2 + $3 > 0 { printf "%.1f", 100 * $2 / ($2 + $3) }' "$2")
	if [[ -z $split ]]; then
		echo "the script printed no split of its CPU time: $(tail -n 2 "$2" | tr '\n' ' ')"
		return
	fi
	awk -v measured="$split" '
	function py(f) { return f ~ / \(fk-python\.py(:[0-9]+)?\)$/ }
	{
		n = $NF; line = $0; sub(/ [0-9]+$/, "", line); k = split(line, f, ";")
		if (f[1] == "fk-python") {
			main += n
			if (line ~ /;<module> \(fk-python\.py\);main \(fk-python\.py\);/) module += n
			if (line ~ /;quarter \(fk-python\.py\);/) {
				quarter += n; r = 0
				for (i = 1; i <= k; i++) if (f[i] == "recurse (fk-python.py)") r++
				if (r == 41) whole += n
				if (r > 41) deeper += n
			}
			if (line ~ /;three_quarters \(fk-python\.py\);/) three += n
			for (i = 1; i <= k; i++) if (f[i] == "slow_key (fk-python.py)") {
				keyed += n; caller = 0; natives = 0; pys = 0
				for (j = i - 1; j > 0; j--) {
					if (f[j] == "three_quarters (fk-python.py)") { caller = 1; break }
					if (f[j] ~ / \([^()]*\)$/) pys++; else natives++
				}
				if (caller && natives && !pys) between += n
				break
			}
		} else if (f[1] == "fk-worker") {
			worker += n
			if (line ~ /;worker \(fk-python\.py\);worker_spin \(fk-python\.py\)/) own += n
			if (line ~ /(main|quarter|three_quarters|recurse|slow_key|<module>) \(/) foreign += n
		}
	}
	END {
		p = ""
		if (!main) { print "no samples of fk-python"; exit }
		if (module < 0.95 * main) p = p sprintf("%d of %d fk-python samples carry <module>;main (want 95%%); ", module, main)
		share = quarter + three ? 100 * quarter / (quarter + three) : 0
		if (share < measured - 4 || share > measured + 4) p = p sprintf("quarter() has %.1f%% of quarter()+three_quarters(), %d and %d samples (want %.1f +- 4, the CPU time the script measured in them); ", share, quarter, three, measured)
		if (!quarter || whole < 0.95 * quarter || deeper) p = p sprintf("%d of %d quarter() samples have all 41 recurse() frames, %d more (want 95%%, 0); ", whole, quarter, deeper)
		if (!keyed || between < 0.95 * keyed) p = p sprintf("%d of %d slow_key() samples sit under three_quarters() with native frames between (want 95%%); ", between, keyed)
		if (!worker || own < 0.9 * worker || foreign) p = p sprintf("fk-worker: %d of %d samples in worker();worker_spin(), %d naming the main thread'"'"'s functions; ", own, worker, foreign)
		printf "%s", p
	}' "$1"
}

# Runs flamekit record with ARGS, output in NAME.folded, stderr NAME.err.
python_record() { # name args...
	local name=$1; shift
	"$BUILD/flamekit" record "$@" > "$python_dir/$name.folded" 2> "$python_dir/$name.err"
}

python_verdict() { # id problems
	if [[ -z $2 ]]; then pass "$1"; else fail "$1" "$2"; fi
}

# Starts the workload for SECONDS in the background; its pid in python_pid.
python_start() { # seconds [args...]
	"$python" "$python_script" "$@" 2> "$python_dir/workload.err" &
	python_pid=$!
	sleep 0.3  # past its imports: the main thread spins
}

# Ends the workload python_start started (SIGTERM: it prints its split).
python_stop() {
	kill "$python_pid" 2> /dev/null; wait "$python_pid" 2> /dev/null
}

record_python_tests() {
	local id any=
	for id in record/python-{command,other,pid,host,namespace,unknown,loop,exits,amid-new-processes,layout,kinds}; do
		wanted "$id" && any=1
	done
	[[ -n $any ]] || return 0
	if [[ $(id -u) != 0 ]]; then
		skip record/python "record needs root (CI runs as root)"
		return 0
	fi
	python=$(ls /usr/bin/python3.[0-9]* 2> /dev/null | grep -m1 -E 'python3\.[0-9]+$')
	if [[ -z $python ]]; then
		fail record/python "no /usr/bin/python3.N (setup.sh installs python3)"
		return 0
	fi
	fresh_kernel_mounts  # as a new machine has them (run.sh)
	mkdir -p "$python_dir" && chmod 755 "$SCRATCH" "$python_dir"

	# the table of layouts against the installed CPython's own headers
	if wanted record/python-layout; then
		local include; include=/usr/include/$(basename "$python")
		if [[ ! -d $include/internal ]]; then
			fail record/python-layout "no $include/internal (setup.sh installs libpython3-dev)"
		elif ! cc -I"$include" -I"$include/internal" -o "$python_dir/layouts" \
			"$TOP/tests/python_layouts.c" 2> "$python_dir/layouts.err"; then
			fail record/python-layout "tests/python_layouts.c does not build: $(head -n 3 "$python_dir/layouts.err" | tr '\n' ' ')"
		else
			local out; out=$("$python_dir/layouts")
			if [[ $? == 0 && $out == "layout $(basename "$python" | sed 's/python//') ok" ]]; then
				pass record/python-layout
			else
				fail record/python-layout "$(echo "$out" | tr '\n' ' ')"
			fi
		fi
	fi

	if wanted record/python-command; then
		if python_record command -F 997 -f -- "$python" "$python_script" 3; then
			python_verdict record/python-command "$(python_judge "$python_dir/command.folded" "$python_dir/command.err")"
		else
			fail record/python-command "flamekit record exited $?: $(tail -n 2 "$python_dir/command.err" | tr '\n' ' ')"
		fi
	fi

	# every other CPython 3.11+ on the machine (pyenv's, /usr/local's: built
	# unstripped, with a shared libpython or not), as record/python-command
	local other version
	for other in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3.* /usr/local/bin/python3.*; do
		[[ -x $other && $other =~ /python3\.(1[1-9]|[2-9][0-9])$ ]] || continue
		version=$("$other" -c 'import platform; print(platform.python_version())' 2> /dev/null) || continue
		id=record/python-other-$version
		wanted "$id" || continue
		if python_record "other-$version" -F 997 -f -- "$other" "$python_script" 3; then
			python_verdict "$id" "$(python_judge "$python_dir/other-$version.folded" "$python_dir/other-$version.err")"
		else
			fail "$id" "flamekit record exited $?: $(tail -n 2 "$python_dir/other-$version.err" | tr '\n' ' ')"
		fi
	done

	# a process started before record, by -p and host-wide
	if wanted record/python-pid; then
		python_start 6
		if python_record pid -F 997 -f -p "$python_pid" 3; then
			python_stop
			python_verdict record/python-pid "$(python_judge "$python_dir/pid.folded" "$python_dir/workload.err")"
		else
			fail record/python-pid "flamekit record exited $?: $(tail -n 2 "$python_dir/pid.err" | tr '\n' ' ')"
			python_stop
		fi
	fi
	if wanted record/python-host; then
		python_start 6
		if python_record host -F 997 -f 3; then
			python_stop
			python_verdict record/python-host "$(python_judge "$python_dir/host.folded" "$python_dir/workload.err")"
		else
			fail record/python-host "flamekit record exited $?: $(tail -n 2 "$python_dir/host.err" | tr '\n' ' ')"
			python_stop
		fi
	fi

	# in a mount namespace of its own, where the interpreter's path is a
	# bind mount that flamekit's namespace does not have (an empty file here)
	if wanted record/python-namespace; then
		: > "$python_dir/python-elsewhere"
		if python_record namespace -F 997 -f -- unshare -m --propagation private sh -c \
			'mount --bind "$1" "$2" && exec "$2" "$3" 3' sh "$python" \
			"$python_dir/python-elsewhere" "$python_script"; then
			python_verdict record/python-namespace "$(python_judge "$python_dir/namespace.folded" "$python_dir/namespace.err")"
		else
			fail record/python-namespace "flamekit record exited $?: $(tail -n 2 "$python_dir/namespace.err" | tr '\n' ' ')"
		fi
	fi

	# a version whose layout flamekit does not know: no Python frames, a
	# line in the report, the native frames as they are
	if wanted record/python-unknown; then
		local minor; minor=$(basename "$python" | sed 's/python//')
		if FLAMEKIT_PYTHON_KNOWN=3.99 python_record unknown -F 997 -f -- "$python" "$python_script" 1; then
			local problems=""
			grep -q ' (fk-python\.py)' "$python_dir/unknown.folded" &&
				problems+="Python frames named: $(grep -o '[^;]* (fk-python\.py)' "$python_dir/unknown.folded" | sort -u | head -n 3 | tr '\n' ' '); "
			grep -q '^fk-python;.*_PyEval_EvalFrameDefault' "$python_dir/unknown.folded" ||
				problems+="no _PyEval_EvalFrameDefault frames left in fk-python's samples; "
			grep -q "% of samples are in CPython $minor ($(basename "$python")), not among FLAMEKIT_PYTHON_KNOWN=3.99" "$python_dir/unknown.err" ||
				problems+="the report does not say why: $(grep '% of samples' "$python_dir/unknown.err" | tr '\n' ' ')"
			python_verdict record/python-unknown "$problems"
		else
			fail record/python-unknown "flamekit record exited $?: $(tail -n 2 "$python_dir/unknown.err" | tr '\n' ' ')"
		fi
	fi

	# a frame chain made into a loop (fk-loop's frame points back at itself):
	# a bounded walk, cut with a marker, names only of what is there
	if wanted record/python-loop; then
		if python_record loop -F 997 -f -- "$python" "$python_script" 2 loop; then
			local problems
			problems=$(awk '{ n = $NF; l = $0; sub(/ [0-9]+$/, "", l); k = split(l, f, ";")
				if (f[1] != "fk-loop") next
				t += n; if (l ~ /;\[python: frame chain loops\]/) cut += n
				for (i = 2; i <= k; i++) if (f[i] ~ / \(fk-python\.py\)$/ &&
				    f[i] !~ /^(looping_worker|loop_frame_chain|spin|name_this_thread) /) wrong[f[i]] += n }
				END { if (!t) { print "no samples of fk-loop"; exit }
				if (cut < 0.9 * t) printf "%d of %d fk-loop samples end in [python: frame chain loops] (want 90%%); ", cut, t
				for (w in wrong) printf "frame %s named in fk-loop; ", w }' "$python_dir/loop.folded")
			grep -q 'have interpreter frames cut short: their frame chain looped' "$python_dir/loop.err" ||
				problems+="the report does not say the chain looped: $(grep '% of samples' "$python_dir/loop.err" | tr '\n' ' ')"
			[[ -n $problems ]] || problems=$(python_judge "$python_dir/loop.folded" "$python_dir/loop.err" | grep -o 'quarter() has[^;]*;')
			python_verdict record/python-loop "$problems"
		else
			fail record/python-loop "flamekit record exited $?: $(tail -n 2 "$python_dir/loop.err" | tr '\n' ' ')"
		fi
	fi

	# every frame says its kind: record's SVG marks kernel frames _[k] (the
	# mark not drawn in titles, as flamegraph.pl draws them) and colours by
	# kind (flamegraph.pl's flat palettes: kernel orange, native red, Python
	# aqua); known kernel and native frames by name, the rest red or orange)
	if wanted record/python-kinds; then
		if python_record kinds -F 997 -o "$python_dir/kinds.svg" -- "$python" "$python_script" 1; then
			local fills problems=""
			fills=$(sed -n 's/.*<title>\([^<]*\) ([0-9,]* samples[^<]*<\/title><rect [^>]*fill="rgb(\([0-9,]*\))".*/\2 \1/p' \
				"$python_dir/kinds.svg" | awk '{ split($1, c, ","); $1 = ""; sub(/^ /, "")
				hue = c[3] == 0 ? "orange" : c[2] == c[3] && c[2] > c[1] ? "aqua" : c[1] == c[3] && c[2] > c[1] ? "green" : c[2] == c[3] && c[1] > c[2] ? "red" : "other"
				kind = $0 ~ / \(([^()]*\.py|&lt;[^()]*&gt;)\)$/ ? "python" : $0 ~ /^(entry_SYSCALL_64|asm_sysvec|asm_exc|__x64_sys_|do_syscall_64)/ ? "kernel" : $0 ~ /^(_start|__libc_start_main|Py_BytesMain|Py_RunMain|clone3|start_thread)$/ ? "native" : "other"
				n[kind " " hue]++ } END { for (k in n) print k, n[k] }' | sort)
			grep -q '^python aqua' <<< "$fills" || problems+="no Python frame aqua; "
			grep -q '^kernel orange' <<< "$fills" || problems+="no kernel frame (_[k], its mark not drawn) orange; "
			grep -q '^native red' <<< "$fills" || problems+="no native frame red; "
			grep -v -E '^(python aqua|kernel orange|native red|other (red|orange)) ' <<< "$fills" | grep -q . &&
				problems+="frames of another colour than their kind's: $(grep -v -E '^(python aqua|kernel orange|native red|other (red|orange)) ' <<< "$fills" | tr '\n' ' ')"
			python_verdict record/python-kinds "$problems"
		else
			fail record/python-kinds "flamekit record exited $?: $(tail -n 2 "$python_dir/kinds.err" | tr '\n' ' ')"
		fi
	fi

	# processes that exit while sampled and named: every Python frame of
	# the script named is one of its functions (or said to have no name)
	if wanted record/python-exits; then
		if python_record exits -F 997 -f -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$1" "$2" 0.2; done' sh \
			"$python" "$python_script"; then
			local names problems=""
			names=$(grep -o '[^;]* (fk-python\.py)' "$python_dir/exits.folded" | sort -u |
				grep -v -E '^(<module>|main|quarter|three_quarters|recurse|slow_key|spin|worker|worker_spin|name_this_thread) ')
			[[ -z $names ]] || problems+="frames named that the script does not have: $(echo "$names" | tr '\n' ' '); "
			grep -q '^fk-python;.*;main (fk-python\.py);' "$python_dir/exits.folded" ||
				problems+="no main() of the short-lived processes named; "
			python_verdict record/python-exits "$problems"
		else
			fail record/python-exits "flamekit record exited $?: $(tail -n 2 "$python_dir/exits.err" | tr '\n' ' ')"
		fi
	fi

	# a Python process started right after a burst of new processes (40
	# shells, each sampled): the kernel wakes flamekit for a new process at
	# most once in 50 ms, the others wait for its own turn (0.1 s at most);
	# the script's frames are still in three quarters of its samples
	if wanted record/python-amid-new-processes; then
		if python_record amid -F 997 -f -- sh -c 'for i in $(seq 40); do
				sh -c "i=0; while [ \$i -lt 2000 ]; do i=\$((i + 1)); done"; done
				exec "$1" "$2" 0.6' sh "$python" "$python_script"; then
			local share
			share=$(awk '{ n = $NF; sub(/ [0-9]+$/, "") } /^(python3[.0-9]*|fk-python|fk-worker);/ {
				all += n; if (/ \(fk-python\.py\)(;|$)/) named += n }
				END { printf "%d %d %.0f", named, all, all ? 100 * named / all : 0 }' "$python_dir/amid.folded")
			python_verdict record/python-amid-new-processes "$(awk '$2 < 100 || $3 < 75 {
				print "the script'"'"'s frames in " $1 " of its " $2 " samples (" $3 "%), wanted 75% of at least 100" }' <<< "$share")"
		else
			fail record/python-amid-new-processes "flamekit record exited $?: $(tail -n 2 "$python_dir/amid.err" | tr '\n' ' ')"
		fi
	fi
}
