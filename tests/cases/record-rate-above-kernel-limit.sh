# -F above the kernel's bound (perf_event_max_sample_rate, which perf record
# keeps to too), and -c NS that would sample faster, are one line each and
# exit 2, before anything is sampled; the machine's bound shows as MAX, the
# least -c it allows as MIN
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate) || exit 77
(( max < 1000000 )) || { echo "this kernel takes -F 1000000" >&2; exit 77; }
min=$(( (1000000000 + max - 1) / max ))
flamekit record -F 1000000 1 2> err
echo "exit $?"
flamekit record -c 1 -f -- touch ran 2>> err
echo "exit $?"
ls
sed -e "s/\b$max\b/MAX/g" -e "s/-c $min /-c MIN /" err >&2
