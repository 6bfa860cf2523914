/*
 * Reading the kernel's tunables from /proc/sys, for messages that name
 * their values ("kernel.perf_event_paranoid is 2: ...").
 */
#ifndef FLAMEKIT_LIB_SYSCTL_H
#define FLAMEKIT_LIB_SYSCTL_H

/* The value of a numeric sysctl, by its dotted name ("kernel.kptr_restrict")
 * in *value; 0, or -1 when it cannot be read (*value unchanged). */
int sysctl__read_long(const char *name, long *value);

#endif
