# tracefs not mounted (the suite unmounts it in its namespace, as a new
# machine boots) and no CAP_SYS_ADMIN to mount it, though BPF and perf
# events are allowed (CAP_BPF, CAP_PERFMON): the line that says how
[[ $(id -u) == 0 ]] && command -v setpriv > /dev/null || { echo "needs root and setpriv" >&2; exit 77; }
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all,+bpf,+perfmon \
	--ambient-caps=-all,+bpf,+perfmon "$(command -v flamekit)" record -e syscalls:sys_enter_getrandom -f 1
