#include "demangle.h"

#include <libiberty/demangle.h>

char *demangle(const char *name)
{
	/* libiberty tells the schemes apart itself; the prefixes only spare
	 * it the plain C names, which are most of them */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
