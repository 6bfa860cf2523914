# gzip is recognised by content, not by name; members may be concatenated
gzip -nc "$DATA/small.perf" > capture.txt
gzip -nc "$DATA/two-events.perf" >> capture.txt
flamekit collapse perf capture.txt
