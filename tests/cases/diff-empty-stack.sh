# The line rule allows an empty stack (" 5"); lines of it are summed as any
# other stack. The stack is text, as in difffolded.pl: "a;" and "a" differ.
printf ' 5\n 3\n; 1\na; 4\na 1\n' > before.folded
printf 'a 2\n 1\n' > after.folded
flamekit diff before.folded after.folded
