/*
 * What /proc tells of another process, for the symbolizers: its pid in its
 * own pid namespace (a process in a container names its files by that one:
 * /tmp/perf-NSPID.map), and the fields of /proc/PID/status.
 */
#ifndef FLAMEKIT_LIB_PROCFS_H
#define FLAMEKIT_LIB_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* pid as its own (innermost) pid namespace numbers it: the last NSpid of
 * /proc/PID/status; pid itself where that cannot be read. */
uint32_t procfs__ns_pid(uint32_t pid);

/* The value of FIELD ("Uid", "SigCgt", ...) of /proc/PID/status, without
 * the tab after its colon, in value (cut to value_size); false when pid or
 * the field is gone. */
bool procfs__status_field(uint32_t pid, const char *field, char *value, size_t value_size);

#endif
