# only the first event type is collapsed, with the Perl tool's warning
flamekit collapse perf "$DATA/two-events.perf"
