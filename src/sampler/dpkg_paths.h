/*
 * Which form of a file's path dpkg knows, for a fix to name it as printed:
 * on a merged-/usr system (Debian 12) the file a process maps as
 * /usr/bin/gzip is the one dpkg installed as /bin/gzip (/bin is a link to
 * usr/bin), and `dpkg -S /usr/bin/gzip` finds nothing.
 *
 *	const char *known[2];
 *	dpkg_paths__known(DPKG_LISTS, cache_or_NULL,
 *			  (const char *[]){ "/usr/bin/gzip", "/usr/lib/x.so" }, 2, known);
 *	// known[0]: "/bin/gzip", a pointer into the path given; NULL if dpkg has neither
 *
 * The answer reads dpkg's file lists (the .list files of the lists
 * directory: 800 files, 9 MB on a desktop, some tens of milliseconds), so
 * the answers are kept in a cache file, for as long as the lists stay as
 * they are (the directory's mtime: dpkg renames a package's new list over
 * its old one); a run whose binaries were all asked about before reads
 * only that. No lists: every known[i] is NULL.
 */
#ifndef FLAMEKIT_SAMPLER_DPKG_PATHS_H
#define FLAMEKIT_SAMPLER_DPKG_PATHS_H

#include <stddef.h>

#define DPKG_LISTS "/var/lib/dpkg/info"

/* For each paths[i]: itself, or its form without the leading "/usr" where
 * the lists have that instead, or NULL where they have neither. lists:
 * dpkg's lists directory; cache: the answers' file (NULL: none). */
void dpkg_paths__known(const char *lists, const char *cache, const char *const *paths,
		       size_t count, const char **known);

#endif
