#include "debuginfo.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether a file the debug link names is where the standard lookup looks
 * for it (libdwfl's default path: beside the binary, .debug/, /usr/lib/debug). */
static bool debuglink_target_exists(const char *file_name, const char *link)
{
	const char *slash = file_name ? strrchr(file_name, '/') : NULL;
	char path[4400];

	if (!link || !*link || !slash)
		return false;
	int dir = (int)(slash - file_name);
	const char *forms[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
		snprintf(path, sizeof path, forms[i], dir, file_name, link);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

int debuginfo__find_local(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const unsigned char *bits;
	GElf_Addr vaddr;

	/* without a build id, the standard lookup never asks debuginfod */
	if (dwfl_module_build_id(mod, &bits, &vaddr) <= 0)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !debuglink_target_exists(file_name, debuglink_file))
		return fd;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}
