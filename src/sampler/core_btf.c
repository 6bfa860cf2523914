#include "core_btf.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

extern char **environ;

/* The name of the cut for this kernel (release, version, its BTF's size)
 * and this object. */
static char *cache_path(const void *object, size_t size)
{
	struct utsname u;
	struct stat st;
	if (uname(&u) != 0 || stat(KERNEL_BTF, &st) != 0)
		return NULL;
	XXH3_state_t *h = XXH3_createState();
	if (!h)
		return NULL;
	XXH3_64bits_reset(h);
	XXH3_64bits_update(h, object, size);
	XXH3_64bits_update(h, u.release, strlen(u.release) + 1);
	XXH3_64bits_update(h, u.version, strlen(u.version) + 1);
	XXH3_64bits_update(h, &st.st_size, sizeof(st.st_size));
	char name[64];
	snprintf(name, sizeof name, "core-btf-%016llx", (unsigned long long)XXH3_64bits_digest(h));
	XXH3_freeState(h);
	return cache_dir__path(name);
}

/* A new file PATH.SUFFIX.XXXXXX holding bytes (none: empty); its name in
 * *name, or -1. */
static int temporary(const char *path, const char *suffix, const void *bytes, size_t size,
		     struct buf *name)
{
	buf__printf(name, "%s.%s.XXXXXX", path, suffix);
	int fd = mkstemp(name->data);
	if (fd < 0)
		return -1;
	bool ok = (size_t)write(fd, bytes, size) == size;
	if (close(fd) != 0 || !ok) {
		unlink(name->data);
		return -1;
	}
	return 0;
}

/* bpftool gen min_core_btf KERNEL_BTF OUT OBJECT, quietly: 0 if it made OUT. */
static int run_bpftool(const char *out, const char *object)
{
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = { "bpftool", "gen", "min_core_btf", KERNEL_BTF, (char *)out, (char *)object,
			 NULL };
	pid_t pid;
	int status = -1;
	/* where Debian puts it, if PATH (a user's, without sbin) has none */
	if ((posix_spawnp(&pid, "bpftool", &actions, NULL, argv, environ) == 0 ||
	     posix_spawn(&pid, "/usr/sbin/bpftool", &actions, NULL, argv, environ) == 0) &&
	    waitpid(pid, &status, 0) != pid)
		status = -1;
	posix_spawn_file_actions_destroy(&actions);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

char *core_btf__path(const void *object, size_t size)
{
	char *path = cache_path(object, size);
	if (!path || access(path, R_OK) == 0)
		return path;
	/* made beside its place and renamed there whole, so that a run at
	 * the same time finds it whole or not at all */
	struct buf object_file = BUF_INIT, out = BUF_INIT;
	bool made = false;
	if (temporary(path, "o", object, size, &object_file) == 0) {
		if (temporary(path, "new", "", 0, &out) == 0) {
			made = run_bpftool(out.data, object_file.data) == 0 &&
			       rename(out.data, path) == 0;
			if (!made)
				unlink(out.data);
		}
		unlink(object_file.data);
	}
	buf__free(&object_file);
	buf__free(&out);
	if (!made) {
		free(path);
		return NULL;
	}
	return path;
}
