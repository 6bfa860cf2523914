
# bash: complete flamekit and its personalities with _flamekit_candidates;
# file names where it has none (an input, -o FILE, ...).
_flamekit() {
	local cur=${COMP_WORDS[COMP_CWORD]} line
	COMPREPLY=()
	while IFS= read -r line; do
		COMPREPLY+=("$line")
	done < <(_flamekit_candidates "$cur" "${COMP_WORDS[@]:0:COMP_CWORD}")
	if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
		while IFS= read -r line; do
			COMPREPLY+=("$line")
		done < <(compgen -f -- "$cur")
	fi
}
complete -o filenames -F _flamekit flamekit stackcollapse-perf stackcollapse-perf.pl \
	stackcollapse-stap stackcollapse-stap.pl stackcollapse stackcollapse.pl \
	stackcollapse-bpftrace stackcollapse-bpftrace.pl flamegraph flamegraph.pl \
	difffolded difffolded.pl
