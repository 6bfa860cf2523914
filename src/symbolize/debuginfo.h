/*
 * Where a binary's separate debug file is, for libdwfl (a Dwfl_Callbacks
 * find_debuginfo): libdwfl's standard lookups, by build id under
 * /usr/lib/debug/.build-id/ and by .gnu_debuglink beside the binary, in
 * .debug/ there or under /usr/lib/debug/DIR/, each checked against the
 * binary (build id or CRC), on this machine's files only.
 *
 * dwfl_standard_find_debuginfo() alone also asks debuginfod whenever a
 * binary with a build id has no local debug file, which is most binaries
 * of a distribution: that loads libdebuginfod with libcurl and its TLS
 * libraries (megabytes of resident memory, for a profiler that should stay
 * small) and, where DEBUGINFOD_URLS is set, waits on the network.
 */
#ifndef FLAMEKIT_SYMBOLIZE_DEBUGINFO_H
#define FLAMEKIT_SYMBOLIZE_DEBUGINFO_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Each place those lookups look for the debug file of the binary file_name
 * (the name it was mapped by): by its build id (build_id_len 0: none) under
 * /usr/lib/debug/.build-id/, and by its .gnu_debuglink name (link NULL:
 * none) beside it, in .debug/ there and under /usr/lib/debug/DIR/. each()
 * is called with each path until it returns true; returns whether it did.
 */
bool debuginfo__each_place(const char *file_name, const unsigned char *build_id,
			   size_t build_id_len, const char *link,
			   bool (*each)(const char *path, void *arg), void *arg);

int debuginfo__find_local(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name);

/*
 * Debug files from debuginfod servers, for binaries that have none on this
 * machine (record --debuginfod, as perf record's and gdb's): elfutils'
 * client, libdebuginfod.so.1, is loaded with dlopen() at the first fetch,
 * so that a run that fetches nothing never holds it (nor libcurl and its
 * TLS libraries), and its downloads go to its cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), where later
 * runs, perf and gdb find them. The servers are urls, else DEBUGINFOD_URLS.
 * Each fetch says on stderr what it got, for it may wait on the network.
 *
 *	struct debuginfod_fetcher *f = debuginfod_fetcher__new(urls_or_NULL);
 *	int fd = debuginfod_fetcher__find(f, build_id, len, "/usr/bin/gzip", &path);
 *	debuginfod_fetcher__free(f);
 *
 * A client that cannot be loaded says so once; every find then fails.
 */
struct debuginfod_fetcher;

struct debuginfod_fetcher *debuginfod_fetcher__new(const char *urls);
/* The debug file of the binary with this build id (name: for messages):
 * an open descriptor and *path (malloc()ed) in the cache, or -1. */
int debuginfod_fetcher__find(struct debuginfod_fetcher *f, const unsigned char *build_id,
			     int build_id_len, const char *name, char **path);
void debuginfod_fetcher__free(struct debuginfod_fetcher *f);

#endif
