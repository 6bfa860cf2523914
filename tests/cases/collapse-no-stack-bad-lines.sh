# No stack at all, and lines that do not parse (here fewer than two in
# three: the rest are comments): refused in one line naming the first bad
# line, rather than its warnings and "no stacks found". Without bad lines,
# "no stacks found" says it.
printf '# captured on host-1\n# cmdline: perf record -g\n#\n# ========\nnot a sample\n#\nalso not\n' > comments.perf
flamekit collapse perf comments.perf; echo "exit $?"
printf '# captured on host-1\n#\n' > only-comments.perf
flamekit collapse perf only-comments.perf; echo "exit $?"
