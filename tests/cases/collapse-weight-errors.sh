# Each refusal is one line and exit status 2, with nothing on stdout: a
# --weight that is neither samples nor period (and collapse's pointer to its
# help, as for every bad option value); --weight period on a sample without a
# period, naming its line and how to get periods; on a tracepoint's sample,
# whose fields follow the event, so that no period can be read. The
# personality refuses --weight as stackcollapse-perf.pl's GetOptions refuses
# an option it does not know: as it refuses --bogus.
flamekit collapse perf --weight periods "$DATA/periods.perf"; echo "exit $?"
sed -E '9s/: +[0-9]+ cycles:/: cycles:/' "$DATA/periods.perf" > one-without.perf
flamekit collapse perf --weight period one-without.perf; echo "exit $?"
printf 'true 3805 [000] 11751.218189: sched:sched_process_exec: filename=/bin/true pid=3805 old_pid=3805\n\tffffffff81399e59 __traceiter_sched_process_exec+0x39 ([kernel.kallsyms])\n\n' > tracepoint.perf
flamekit collapse perf --weight period tracepoint.perf; echo "exit $?"
flamekit collapse perf --weight samples tracepoint.perf; echo "exit $?"
stackcollapse-perf --weight samples "$DATA/periods.perf" 2> weight.err; echo "stackcollapse-perf --weight samples: exit $?"
stackcollapse-perf --bogus "$DATA/periods.perf" 2> bogus.err
sed 's/bogus/weight/' bogus.err | cmp - weight.err && echo "refused as --bogus is: $(head -n 1 weight.err)"
