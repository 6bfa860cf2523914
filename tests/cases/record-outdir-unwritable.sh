# --outdir where no file can be made (sysfs, even as root): refused before
# sampling, before the command runs
flamekit record --outdir /sys -- touch ran
status=$?
ls
exit $status
