# a mistake in -o shows before sampling, before the command runs (it would
# leave "ran" here), not after the recording
flamekit record -o no-such-dir/x.svg -- touch ran
status=$?
ls
exit $status
