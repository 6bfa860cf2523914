#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "xalloc.h"

struct output {
	FILE *stream;
	char *path;       /* NULL for standard output */
	char *temp_path;
	bool is_stdout;
};

/*
 * The temporary files not yet committed, for the signal handler. This is the
 * one piece of process-wide state: a signal handler has no other way to learn
 * what to remove. It holds at most a few entries and is only read by the handler.
 */
#define MAX_PENDING 8
static char *volatile pending_temp[MAX_PENDING];

static void remove_pending_and_reraise(int sig)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending_temp[i])
			unlink(pending_temp[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void track_pending(char *path, bool add)
{
	static bool handlers_installed;
	if (add && !handlers_installed) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			struct sigaction sa;
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = remove_pending_and_reraise;
			sigemptyset(&sa.sa_mask);
			sigaction(sigs[i], &sa, NULL);
		}
		handlers_installed = true;
	}
	for (int i = 0; i < MAX_PENDING; i++) {
		if (add && !pending_temp[i]) {
			pending_temp[i] = path;
			return;
		}
		if (!add && pending_temp[i] == path) {
			pending_temp[i] = NULL;
			return;
		}
	}
}

int output__open(struct output **out, const char *path)
{
	struct output *o = fk_calloc(1, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->stream = stdout;
		o->is_stdout = true;
		*out = o;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		free(o);
		return error("cannot write %s: it is a directory; give a file name", path);
	}
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t plen = strlen(path);
	o->temp_path = fk_malloc(plen + 16);
	memcpy(o->temp_path, path, dirlen);
	snprintf(o->temp_path + dirlen, plen - dirlen + 16, ".%s.XXXXXX", path + dirlen);
	int fd = mkstemp(o->temp_path);
	if (fd < 0) {
		int e = errno;
		free(o->temp_path);
		free(o);
		return error("cannot create a file beside %s: %s", path, strerror(e));
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->stream = fdopen(fd, "w");
	if (!o->stream) {
		int e = errno;
		close(fd);
		unlink(o->temp_path);
		free(o->temp_path);
		free(o);
		return error("cannot write %s: %s", path, strerror(e));
	}
	o->path = fk_strdup(path);
	track_pending(o->temp_path, true);
	*out = o;
	return 0;
}

FILE *output__stream(struct output *out)
{
	return out->stream;
}

static void output_free(struct output *o)
{
	if (o->temp_path)
		track_pending(o->temp_path, false);
	free(o->temp_path);
	free(o->path);
	free(o);
}

int output__commit(struct output *o)
{
	int err = 0;
	if (o->is_stdout) {
		errno = 0;
		if ((fflush(o->stream) != 0 || ferror(o->stream)) && errno != EPIPE)
			err = error("cannot write to standard output: %s",
				    strerror(errno ? errno : EIO));
		output_free(o);
		return err;
	}
	errno = 0;
	bool bad = fflush(o->stream) != 0 || ferror(o->stream);
	int e = errno ? errno : EIO;
	if (fclose(o->stream) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	if (bad) {
		err = error("cannot write %s: %s", o->path, strerror(e));
		unlink(o->temp_path);
	} else if (rename(o->temp_path, o->path) != 0) {
		err = error("cannot rename %s to %s: %s", o->temp_path, o->path, strerror(errno));
		unlink(o->temp_path);
	}
	output_free(o);
	return err;
}

void output__abort(struct output *o)
{
	if (!o->is_stdout) {
		fclose(o->stream);
		unlink(o->temp_path);
	} else {
		fflush(o->stream);
	}
	output_free(o);
}
