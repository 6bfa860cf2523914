#include "demangle.h"

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

char *demangle(const char *name)
{
	/* libiberty tells the schemes apart itself; the prefixes only spare
	 * it the plain C names, which are most of them */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	char *shown = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	/* its buffer doubles as the name grows: a third of it, on average,
	 * is room never used, and a build's names are kept to the end */
	char *fit = shown ? realloc(shown, strlen(shown) + 1) : NULL;
	return fit ? fit : shown;
}
