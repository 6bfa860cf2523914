# The README's bpftrace recipe on Debian 12's bpftrace 0.17: a real capture,
# bpftrace -e 'profile:hz:99 /comm == "fk-7030" || comm == "fk-syscall" ||
# comm == "perl"/ { @[kstack, ustack, comm] = count(); }' stopped by Ctrl-C
# while fk-7030, fk-syscall (tests/workload/) and a perl loop of sin() ran.
# Tasks in user space have an empty kstack ("@[, "): their stacks are
# "comm;...;leaf" with no ", " frame, and frames are functions, offsets cut
# ("seventy", not "seventy+56"), so one function is one frame.
flamekit collapse bpftrace "$DATA/bpftrace-0.17.bt"
echo "exit $?"
echo "== frames that are a separator or keep an offset:"
flamekit collapse bpftrace "$DATA/bpftrace-0.17.bt" 2> /dev/null | grep -E ';, |, [0-9]+$|\+[0-9]+[; ]'
echo "== the personality: stackcollapse-bpftrace.pl's lines, separator and offsets kept"
stackcollapse-bpftrace "$DATA/bpftrace-0.17.bt" | head -n 3
