# bad lines are reported with file and line; the usable ones are kept (exit 0)
flamekit collapse folded "$DATA/bad.folded"
