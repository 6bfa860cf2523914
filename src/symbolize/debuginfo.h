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

int debuginfo__find_local(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name);

#endif
