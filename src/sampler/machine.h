/*
 * What `record` takes from the machine, and how it gets it: each
 * prerequisite is either provided, as perf and libbpf provide it, or named
 * in one error line with its fix. The audit (issue 18), one row each:
 *
 *   privilege         CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON: checked
 *                     first (machine__check_privilege), "run it with sudo"
 *   tracefs           -e CATEGORY:NAME and --rate read tracepoint ids from it:
 *                     mounted at /sys/kernel/tracing when it is not and we
 *                     may, as perf mounts it (machine__tracefs); else the
 *                     mount command
 *   debugfs           only where the kernel has no /sys/kernel/tracing (before
 *                     4.1): mounted at /sys/kernel/debug for its tracing/
 *   kernel BTF        /sys/kernel/btf/vmlinux, for task access and copied
 *                     stacks: cannot be provided; bpf_sampler names
 *                     CONFIG_DEBUG_INFO_BTF and the option that avoids it
 *   RLIMIT_MEMLOCK    kernels before 5.11 charge BPF maps to it: libbpf 1.x
 *                     raises it to infinity itself where the kernel does not
 *                     account maps to memory cgroups; a load refused with
 *                     EPERM there says `ulimit -l unlimited`
 *   RLIMIT_NOFILE     one perf event (and one link) per CPU: the soft limit
 *                     is raised to the hard one, as perf does
 *                     (machine__raise_open_files)
 *   perf_event_paranoid  root and CAP_PERFMON are not bound by it; a refused
 *                     perf_event_open names its value and the sysctl
 *   perf_event_max_sample_rate  -F above it: one line naming the sysctl
 *   kptr_restrict     kernel frames are named from /proc/kallsyms: at 2 it
 *                     hides addresses even from root; the warning says which
 *                     value to set (symbolize/kernel_symbols.c)
 *   lockdown          a load refused by lockdown=confidentiality is named when
 *                     securityfs shows it, else named as the likely cause
 *   /sys/fs/bpf       flamekit pins nothing; --cgroupmap and --mntnsmap take
 *                     maps the user pinned (bcc's layout), and a missing one
 *                     says where bcc's tools pin them
 */
#ifndef FLAMEKIT_SAMPLER_MACHINE_H
#define FLAMEKIT_SAMPLER_MACHINE_H

#include <stdbool.h>

enum machine_capability {
	MACHINE_CAP_SYS_ADMIN = 21,
	MACHINE_CAP_PERFMON = 38,
	MACHINE_CAP_BPF = 39,
};

/* Does this process hold cap in its effective set? */
bool machine__has_capability(enum machine_capability cap);

/* 0 when record may load BPF programs and open perf events; else one error
 * line saying what is missing, and -1. */
int machine__check_privilege(void);

/*
 * The root of tracefs (e.g. "/sys/kernel/tracing", with events/ under it),
 * in *root. Where it is not mounted and we hold CAP_SYS_ADMIN, mounts it,
 * as perf does, and says so once on stderr (it stays mounted, as perf leaves
 * it); for_what names what needs it, for the messages. Without it: one
 * error line with the mount command, and -1.
 */
int machine__tracefs(const char *for_what, const char **root);

/* The root of tracefs if it is mounted, else NULL; mounts nothing. */
const char *machine__tracefs_mounted(void);

/* Raises the soft limit of open files to the hard one (perf does so too):
 * record opens a perf event and a link per CPU. Quiet; best effort. */
void machine__raise_open_files(void);

#endif
