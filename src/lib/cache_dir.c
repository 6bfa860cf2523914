#include "cache_dir.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"

char *cache_dir__path(const char *name)
{
	const char *dir = getenv("FLAMEKIT_CACHE_DIR");
	if (!dir)
		dir = "/var/cache/flamekit";
	if (!*dir)
		return NULL;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return NULL;
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077))
		return NULL;  /* someone else's, or open to others: not for kernel addresses */
	struct buf path = BUF_INIT;
	buf__printf(&path, "%s/%s", dir, name);
	return path.data;
}
