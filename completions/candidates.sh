# flamekit's shell completion: the candidates for one word, shared by the
# bash (bash.sh) and zsh (zsh.sh) completions, which `make` joins with this
# file into build/completions/flamekit.bash and build/completions/_flamekit.
# POSIX sh, run by bash as it is and by zsh under `emulate sh`.
#
# Commands, formats and options come from flamekit's own --help texts, so
# they are never out of date: a command's options are the lines of its help
# that begin with one ("  -o, --output FILE ..."), its formats the "formats:"
# list of `collapse --help`, the palettes the --colors entry of `flamegraph
# --help`. Nothing printed: complete file names.
#
# _flamekit_candidates CUR WORD... : the candidates (one a line) for the word
# being completed, CUR, after WORDs (the program name first).

# The option names that begin the lines of a help text on stdin:
# "  -o, --output FILE", "      --timeline[=MS]", "\t    -n  # ...".
_flamekit_help_options() {
	grep '^[[:space:]][[:space:]]*-' | sed 's/^[[:space:]]*//; s/^\(-[A-Za-z]\), /\1 /' |
		awk '{ print $1; if ($1 ~ /^-[A-Za-z]$/ && $2 ~ /^--/) print $2 }' |
		sed 's/[=[].*//' | grep -v '^--*$'
}

_flamekit_candidates() {
	_fk_cur=$1
	shift
	_fk_prog=${1##*/}
	_fk_prog=${_fk_prog%.pl}
	_fk_self=$1  # flamekit, or the personality's link, as typed
	_fk_prev=
	for _fk_w in "$@"; do _fk_prev=$_fk_w; done
	case $_fk_prog in
	flamekit) _fk_cmd=${2:-} ;;
	stackcollapse-perf | flamegraph | difffolded) _fk_cmd= ;;
	*) return 0 ;;  # the other personalities take files only
	esac
	{
		if [ "$_fk_prog" = flamekit ] && [ $# -le 1 ]; then
			# the command: the list of `flamekit --help`
			"$_fk_self" --help 2> /dev/null |
				sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p'
		elif [ "$_fk_prog" = flamekit ] && [ "$_fk_cmd" = help ]; then
			[ $# -eq 2 ] && "$_fk_self" --help 2> /dev/null |
				sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p'
		else
			case $_fk_prev in
			--colors)
				# "hot (default), mem, io, ...; hotcold: ...; diff-cb: ..."
				"$_fk_self" ${_fk_cmd:+flamegraph} --help 2> /dev/null |
					sed -n '/--colors PALETTE/,/--bgcolors/p' | sed '$d' |
					grep -o '[a-z][a-z-]*\( (default)\)\{0,1\}[,;:]' | sed 's/[ (,;:].*//' | sort -u ;;
			--unwind) printf '%s\n' auto fp dwarf ;;
			--weight) printf '%s\n' samples period ;;
			--state) printf '%s\n' any running interruptible uninterruptible ;;
			*)
				case $_fk_cur in
				-*)
					# (difffolded prints its usage on stderr)
					if [ -n "$_fk_cmd" ]; then
						"$_fk_self" "$_fk_cmd" --help 2> /dev/null | _flamekit_help_options
					elif [ "$_fk_prog" != flamekit ]; then
						"$_fk_self" --help 2>&1 | _flamekit_help_options
					fi ;;
				*)
					# collapse's first word may be a FORMAT (or a file)
					if [ "$_fk_cmd" = collapse ] && [ $# -eq 2 ]; then
						"$_fk_self" collapse --help 2> /dev/null |
							sed -n '/^formats:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
					fi ;;
				esac ;;
			esac
		fi
	} | while IFS= read -r _fk_c; do
		case $_fk_c in "$_fk_cur"*) printf '%s\n' "$_fk_c" ;; esac
	done | sort -u
}
