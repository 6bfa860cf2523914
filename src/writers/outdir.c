#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/output.h"
#include "../lib/xalloc.h"
#include "writer.h"

int outdir__prepare(const char *dir)
{
	if (output__make_directory(dir) < 0)
		return error("--outdir %s: cannot create it: %s", dir, strerror(errno));
	/* (access() alone says yes to root where the file system says no) */
	if (access(dir, W_OK) != 0 || output__probe_directory(dir) != 0)
		return error("--outdir %s: cannot write there: %s", dir, strerror(errno));
	return 0;
}

/* DIR/HOST_YYYYMMDD_HHMMSS_UTC[.pid_PID|.user_NAME|.cmd_NAME] */
static char *outdir_stem(const char *dir, time_t started, const struct outdir_subject *s)
{
	char host[256] = "localhost", stamp[32];
	struct tm tm;
	struct buf b = BUF_INIT;

	if (gethostname(host, sizeof host - 1) != 0)
		strcpy(host, "localhost");
	host[sizeof host - 1] = 0;
	gmtime_r(&started, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
	buf__printf(&b, "%s/%s_%s_UTC", dir, host, stamp);
	if (s->pid_list)
		buf__printf(&b, ".pid_%s", s->pid_list);
	else if (s->user)
		buf__printf(&b, ".user_%s", s->user);
	else if (s->command) {
		const char *slash = strrchr(s->command, '/');
		buf__printf(&b, ".cmd_%s", slash ? slash + 1 : s->command);
	}
	for (size_t i = strlen(dir) + 1; i < b.len; i++)
		if (b.data[i] == '/' || b.data[i] == ',')
			b.data[i] = b.data[i] == ',' ? '_' : '-';
	return b.data;
}

int outdir__write(const char *dir, time_t started, const struct outdir_subject *subject,
		  const struct profile *profile, const struct writer_options *graph,
		  const struct writer *data)
{
	const struct writer *svg = writer__find("svg");
	const struct writer *written[] = { svg, data ? data : writer__find("folded") };
	const char *endings[] = { writer__file_ending(written[0]), writer__file_ending(written[1]) };
	char *stem = outdir_stem(dir, started, subject);
	struct buf path = BUF_INIT;
	int status = 0;

	for (size_t i = 0; i < 2 && status == 0; i++) {
		buf__reset(&path);
		buf__printf(&path, "%s%s", stem, endings[i]);
		status = writer__write_file(written[i], profile, i == 0 ? graph : NULL, path.data);
	}
	if (status == 0)
		fprintf(stderr, "flamekit: wrote %s%s and %s%s\n", stem, endings[0], stem, endings[1]);
	buf__free(&path);
	free(stem);
	return status;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Removes the oldest files named as `newest` is but for the time stamp
 * (the 15 characters at `stamp`), beyond keep. */
static void prune_windows(const char *dir, const char *newest, size_t stamp, unsigned keep)
{
	size_t len = strlen(newest), count = 0, cap = 0;
	char **names = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		bool digits = strlen(n) == len;
		for (size_t i = stamp; digits && i < stamp + 15; i++)
			digits = n[i] == '_' ? i == stamp + 8 : n[i] >= '0' && n[i] <= '9';
		if (!digits || memcmp(n, newest, stamp) != 0 ||
		    strcmp(n + stamp + 15, newest + stamp + 15) != 0)
			continue;
		names = fk_grow(names, &cap, count + 1, sizeof(*names));
		names[count++] = fk_strdup(n);
	}
	closedir(d);
	qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count; i++) {
		if (i + keep < count) {
			struct buf path = BUF_INIT;
			buf__printf(&path, "%s/%s", dir, names[i]);
			if (unlink(path.data) != 0 && errno != ENOENT)
				warning("--keep: could not remove %s: %s", path.data, strerror(errno));
			buf__free(&path);
		}
		free(names[i]);
	}
	free(names);
}

int outdir__write_window(const char *dir, time_t started, const struct outdir_subject *subject,
			 const struct profile *profile, const struct writer_options *options,
			 const struct writer *writer, unsigned keep)
{
	char *stem = outdir_stem(dir, started, subject);
	struct buf path = BUF_INIT;

	buf__printf(&path, "%s%s", stem, writer__file_ending(writer));
	int status = writer__write_file(writer, profile, options, path.data);
	if (status == 0) {
		fprintf(stderr, "flamekit: wrote %s\n", path.data);
		if (keep) {
			/* the stamp follows "HOST_" in the name */
			const char *name = path.data + strlen(dir) + 1;
			const char *stamp = strstr(stem + strlen(dir) + 1, "_UTC");
			prune_windows(dir, name, (size_t)(stamp - (stem + strlen(dir) + 1)) - 15,
				      keep);
		}
	}
	buf__free(&path);
	free(stem);
	return status;
}
