# -o where no file can be made (sysfs refuses new files even to root, to whom
# access() says yes): refused before sampling, before the command runs
flamekit record -o /sys/x.folded -- touch ran
status=$?
ls
exit $status
