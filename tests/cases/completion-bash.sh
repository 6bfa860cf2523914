# bash completion (build/completions/flamekit.bash, which make install puts
# in share/bash-completion/completions): words completed as bash would,
# COMP_WORDS and COMP_CWORD set as for a <TAB> at the end of the line
. "$BUILD/completions/flamekit.bash"
complete -p flamekit stackcollapse-perf flamegraph.pl difffolded
: > out.perf; : > other.folded
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_flamekit
	echo "$* <TAB> -> ${COMPREPLY[*]}"
}
complete_line flamekit ''
complete_line flamekit col
complete_line flamekit help vi
complete_line flamekit collapse p
complete_line flamekit collapse perf --ker
complete_line flamekit collapse perf o
complete_line flamekit collapse --ti
complete_line flamekit flamegraph --colors j
complete_line flamekit flamegraph --colors ''
complete_line flamekit flamegraph --neg
complete_line flamekit record --off
complete_line flamekit record --unwind ''
complete_line flamekit view --co
complete_line flamekit view -o ot
complete_line flamekit diff -
complete_line stackcollapse-perf --a
complete_line stackcollapse-perf.pl --event
complete_line flamegraph --colors ja
complete_line difffolded -
complete_line stackcollapse-stap o
echo "== make install puts both where bash-completion and zsh look (its dry run)"
make -n -s -C "$BUILD/.." install DESTDIR=/DESTDIR PREFIX=/usr BUILD="$BUILD" 2> /dev/null |
	grep -o '[^ ]*/completions/[^ ]* /DESTDIR/usr/share/[^ ;]*' | sed "s|$BUILD|\$BUILD|"
