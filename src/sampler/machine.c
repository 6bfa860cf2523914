#include "machine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/error.h"

bool machine__has_capability(enum machine_capability cap)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long effective = 0;
	bool found = false;

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "CapEff: %llx", &effective) == 1) {
			found = true;
			break;
		}
	fclose(f);
	if (!found)
		return geteuid() == 0;
	return (unsigned)cap < 64 && (effective >> cap & 1);
}

int machine__check_privilege(void)
{
	if (machine__has_capability(MACHINE_CAP_SYS_ADMIN) ||
	    (machine__has_capability(MACHINE_CAP_BPF) && machine__has_capability(MACHINE_CAP_PERFMON)))
		return 0;
	return error("record needs root (or the CAP_BPF and CAP_PERFMON capabilities) "
		     "to load BPF programs: run it with sudo");
}

/* Where the kernel puts tracefs: its own mount point (Linux 4.1 and
 * later), then the one under debugfs that older kernels have only. */
#define TRACEFS "/sys/kernel/tracing"
#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_TRACING DEBUGFS "/tracing"

static bool has_events(const char *root)
{
	char path[256];

	snprintf(path, sizeof path, "%s/events", root);
	return access(path, F_OK) == 0;
}

const char *machine__tracefs_mounted(void)
{
	if (has_events(TRACEFS))
		return TRACEFS;
	/* under debugfs, tracing/ is an automount of tracefs: looking mounts it */
	if (has_events(DEBUGFS_TRACING))
		return DEBUGFS_TRACING;
	return NULL;
}

static bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int machine__tracefs(const char *for_what, const char **root)
{
	*root = machine__tracefs_mounted();
	if (*root)
		return 0;
	if (!machine__has_capability(MACHINE_CAP_SYS_ADMIN))
		return error("%s: tracefs is not mounted (mount -t tracefs nodev %s, as root)",
			     for_what, TRACEFS);
	/* As perf does: tracefs at its own place; debugfs, whose tracing/
	 * brings tracefs along, only where the kernel has no such place. */
	const char *fs = "tracefs", *mount_point = TRACEFS, *tracing = TRACEFS;
	if (!is_directory(TRACEFS))
		fs = "debugfs", mount_point = DEBUGFS, tracing = DEBUGFS_TRACING;
	if (!is_directory(mount_point))
		return error("%s: this kernel has neither %s nor %s: it cannot trace events",
			     for_what, TRACEFS, DEBUGFS);
	if (mount("nodev", mount_point, fs, 0, NULL) != 0)
		return error("%s: tracefs is not mounted, and mounting %s at %s failed (%s): "
			     "mount -t %s nodev %s", for_what, fs, mount_point, strerror(errno),
			     fs, mount_point);
	if (!has_events(tracing))
		return error("%s: mounted %s at %s, but %s/events is not there", for_what, fs,
			     mount_point, tracing);
	warning("mounted %s at %s for %s, as perf does (it stays mounted)", fs, mount_point,
		for_what);
	*root = tracing;
	return 0;
}

void machine__raise_open_files(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
}
