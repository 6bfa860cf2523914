#include "debuginfo.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"

bool debuginfo__each_place(const char *file_name, const unsigned char *build_id,
			   size_t build_id_len, const char *link,
			   bool (*each)(const char *path, void *arg), void *arg)
{
	struct buf path = BUF_INIT;
	bool stopped = false;

	if (build_id_len > 1) {
		buf__printf(&path, "/usr/lib/debug/.build-id/%02x/", build_id[0]);
		for (size_t i = 1; i < build_id_len; i++)
			buf__printf(&path, "%02x", build_id[i]);
		buf__printf(&path, ".debug");
		stopped = each(path.data, arg);
	}
	const char *slash = file_name ? strrchr(file_name, '/') : NULL;
	if (link && *link && slash) {
		int dir = (int)(slash - file_name);
		const char *forms[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
		for (size_t i = 0; !stopped && i < sizeof(forms) / sizeof(*forms); i++) {
			path.len = 0;
			buf__printf(&path, forms[i], dir, file_name, link);
			stopped = each(path.data, arg);
		}
	}
	buf__free(&path);
	return stopped;
}

static bool readable(const char *path, void *unused)
{
	(void)unused;
	return access(path, R_OK) == 0;
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
	/* (the file the debug link names, where the standard lookup looks) */
	if (fd >= 0 || !debuginfo__each_place(file_name, NULL, 0, debuglink_file, readable, NULL))
		return fd;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

struct debuginfod_fetcher {
	char *urls;                  /* NULL: DEBUGINFOD_URLS as it is */
	void *library;               /* libdebuginfod.so.1, once loaded (never unloaded) */
	bool failed;                 /* it could not be: said once */
	debuginfod_client *client;
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_end) *end;
};

struct debuginfod_fetcher *debuginfod_fetcher__new(const char *urls)
{
	struct debuginfod_fetcher *f = fk_calloc(1, sizeof(*f));
	f->urls = urls ? fk_strdup(urls) : NULL;
	return f;
}

/* Loads the client: 0, or -1 (said once). */
static int fetcher_load(struct debuginfod_fetcher *f)
{
	if (f->client)
		return 0;
	if (f->failed)
		return -1;
	f->failed = true;
	/* the client reads the servers from the environment at each query */
	if (f->urls && setenv(DEBUGINFOD_URLS_ENV_VAR, f->urls, 1) != 0)
		return error("--debuginfod: cannot set DEBUGINFOD_URLS");
	f->library = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!f->library)
		return error("--debuginfod: cannot load elfutils' client, %s (Debian: apt install "
			     "libdebuginfod1): %s", DEBUGINFOD_SONAME, dlerror());
	f->begin = (__typeof__(debuginfod_begin) *)dlsym(f->library, "debuginfod_begin");
	f->find_debuginfo = (__typeof__(debuginfod_find_debuginfo) *)dlsym(f->library,
									   "debuginfod_find_debuginfo");
	f->end = (__typeof__(debuginfod_end) *)dlsym(f->library, "debuginfod_end");
	if (!f->begin || !f->find_debuginfo || !f->end || !(f->client = f->begin()))
		return error("--debuginfod: %s does not work here", DEBUGINFOD_SONAME);
	f->failed = false;
	return 0;
}

int debuginfod_fetcher__find(struct debuginfod_fetcher *f, const unsigned char *build_id,
			     int build_id_len, const char *name, char **path)
{
	*path = NULL;
	if (fetcher_load(f) < 0)
		return -1;
	int fd = f->find_debuginfo(f->client, build_id, build_id_len, path);
	if (fd >= 0) {
		fprintf(stderr, "flamekit: --debuginfod: debug file of %s: %s\n", name, *path);
		return fd;
	}
	fprintf(stderr, "flamekit: --debuginfod: no debug file of %s on the servers: %s\n", name,
		strerror(-fd));
	free(*path);
	*path = NULL;
	return -1;
}

void debuginfod_fetcher__free(struct debuginfod_fetcher *f)
{
	if (!f)
		return;
	if (f->client)
		f->end(f->client);
	/* the library stays: libcurl, which it loads, keeps global state that
	 * only the process's exit may take away */
	free(f->urls);
	free(f);
}
