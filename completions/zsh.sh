
# zsh: complete flamekit and its personalities with _flamekit_candidates;
# file names where it has none (an input, -o FILE, ...).
_flamekit_sh() {
	emulate -L sh
	_flamekit_candidates "$@"
}
_flamekit() {
	local -a args candidates
	args=("$PREFIX" "${(@)words[1,CURRENT-1]}")
	candidates=("${(@f)$(_flamekit_sh "${args[@]}")}")
	candidates=(${candidates:#})
	if (( ${#candidates} )); then
		compadd -a candidates
	else
		_files
	fi
}
_flamekit "$@"
