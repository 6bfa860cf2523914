/*
 * Which form of a file's path dpkg knows, for a fix to name it as printed:
 * on a merged-/usr system (Debian 12) the file a process maps as
 * /usr/bin/gzip is the one dpkg installed as /bin/gzip (/bin is a link to
 * usr/bin), and `dpkg -S /usr/bin/gzip` finds nothing.
 *
 *	const char *known[2];
 *	dpkg_paths__known((const char *[]){ "/usr/bin/gzip", "/usr/lib/x.so" }, 2, known);
 *	// known[0]: "/bin/gzip", a pointer into the path given; NULL if dpkg has neither
 *
 * One read of dpkg's file lists (the .list files in /var/lib/dpkg/info,
 * some tens of milliseconds), only when asked. No dpkg: every known[i] is
 * NULL.
 */
#ifndef FLAMEKIT_SAMPLER_DPKG_PATHS_H
#define FLAMEKIT_SAMPLER_DPKG_PATHS_H

#include <stddef.h>

/* For each paths[i]: itself, or its form without the leading "/usr" where
 * dpkg lists that instead, or NULL where it lists neither. */
void dpkg_paths__known(const char *const *paths, size_t count, const char **known);

#endif
