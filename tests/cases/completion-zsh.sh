# zsh completion (build/completions/_flamekit, which make install puts in
# share/zsh/site-functions): compinit loads it from an fpath holding it,
# and the words it offers for a line are those bash offers
command -v zsh > /dev/null || { echo "no zsh (run ./setup.sh)" >&2; exit 77; }
mkdir functions && cp "$BUILD/completions/_flamekit" functions/
: > out.perf
HOME=$PWD zsh -f -c '
	fpath=($PWD/functions $fpath)
	autoload -Uz compinit && compinit -u -D
	print -r -- "flamekit is completed by: $_comps[flamekit], flamegraph.pl by: $_comps[flamegraph.pl]"
	# its functions, without the closing call that completes the line
	[[ $(tail -n 1 functions/_flamekit) == "_flamekit \"\$@\"" ]] || print "the file does not end in _flamekit \"\$@\""
	source <(sed "\$d" functions/_flamekit)
	words_for() { print -r -- "$* <TAB> -> ${(j: :)${(f)"$(_flamekit_sh "${@[-1]}" "${(@)@[1,-2]}")"}}" }
	# (what the completion function passes: the word typed, then the words before it)
	words_for flamekit col
	words_for flamekit collapse p
	words_for flamekit collapse perf --ker
	words_for flamekit flamegraph --colors j
	words_for flamekit record --off
	words_for stackcollapse-perf --a
	words_for difffolded -
'
