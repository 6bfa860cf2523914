#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "error.h"
#include "gzip.h"
#include "xalloc.h"

/* How an output reaches its path (see output.h for when each is chosen). */
enum output_way {
	OUTPUT_STDOUT,
	OUTPUT_REPLACE,   /* a temporary file renamed over the target on commit */
	OUTPUT_DIRECT,    /* a device, FIFO, socket or standard stream: written as it is */
	OUTPUT_IN_PLACE,  /* a regular file whose directory we may not write */
};

struct output {
	FILE *stream;
	enum output_way way;
	char *path;       /* as the user gave it, for messages; NULL for stdout */
	char *target;     /* OUTPUT_REPLACE: the file the temporary replaces */
	char *temp_path;  /* OUTPUT_REPLACE only */
	int fd;           /* what the stream writes to, but for OUTPUT_STDOUT */
	int write_errno;  /* the first failed write's errno: stdio keeps none */
	/* output__open_by_name() of a *.gz path: what is written, compressed
	 * into stream on commit */
	FILE *gzip_memory;
	char *gzip_text;
	size_t gzip_len;
	bool check_only;  /* output__check(): decide and try, but open nothing */
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
			/* an ignored SIGPIPE (a direct output wants EPIPE) stays ignored */
			if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
				continue;
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

/* The directory part of path ("." when it has none), newly allocated. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return fk_strdup(".");
	if (slash == path)
		return fk_strdup("/");
	char *dir = fk_malloc((size_t)(slash - path) + 1);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return dir;
}

/*
 * The file descriptor that /dev/stdout, /dev/stderr, /dev/fd/N or
 * /proc/self/fd/N names, or -1. Such a path is written through a copy of the
 * descriptor, so that it shares the offset and O_APPEND of what the shell
 * opened instead of reopening (and truncating) the file behind it.
 */
static int standard_stream_fd(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	const char *number = NULL;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		number = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		number = path + 14;
	if (!number || !*number || strspn(number, "0123456789") != strlen(number) ||
	    strlen(number) > 9)
		return -1;
	return atoi(number);
}

/*
 * Follows path while it is a symbolic link. Sets *target to the first path
 * of the chain that is not a link (it may not exist: `>` creates it) and
 * *through_proc when a link points into /proc, whose links name open files
 * rather than paths (e.g. "pipe:[1234]"). Returns 0, or -1 with errno.
 */
static int follow_links(const char *path, char **target, bool *through_proc)
{
	char *current = fk_strdup(path);
	*through_proc = strncmp(path, "/proc/", 6) == 0;
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(current, &st) != 0 || !S_ISLNK(st.st_mode)) {
			*target = current;
			return 0;
		}
		char link[PATH_MAX];
		ssize_t len = readlink(current, link, sizeof(link) - 1);
		if (len < 0) {
			int e = errno;
			free(current);
			errno = e;
			return -1;
		}
		link[len] = '\0';
		if (strncmp(link, "/proc/", 6) == 0)
			*through_proc = true;
		char *next;
		if (link[0] == '/' || !strchr(current, '/')) {
			next = fk_strdup(link);
		} else {
			char *dir = directory_of(current);
			next = fk_malloc(strlen(dir) + strlen(link) + 2);
			sprintf(next, "%s/%s", dir, link);
			free(dir);
		}
		free(current);
		current = next;
	}
	free(current);
	errno = ELOOP;
	return -1;
}

static int connect_socket(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
			return fd;
		int e = errno;
		close(fd);
		errno = e;
		if (e != EPROTOTYPE)
			return -1;
	}
	return -1;
}

static ssize_t write_to_fd(void *cookie, const char *data, size_t size)
{
	struct output *o = cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(o->fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->write_errno)
				o->write_errno = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* (the kernel symbol cache goes back to fill in its header) */
static int seek_fd(void *cookie, off64_t *offset, int whence)
{
	struct output *o = cookie;
	off64_t at = lseek64(o->fd, *offset, whence);
	if (at < 0)
		return -1;
	*offset = at;
	return 0;
}

static int close_fd(void *cookie)
{
	struct output *o = cookie;
	int status = close(o->fd);
	if (status != 0 && !o->write_errno)
		o->write_errno = errno;
	o->fd = -1;
	return status;
}

/* The stream over fd, which it owns from now on (closes it on failure). */
static int attach_stream(struct output *o, int fd, enum output_way way)
{
	static const cookie_io_functions_t functions = {
		.write = write_to_fd, .seek = seek_fd, .close = close_fd,
	};
	o->fd = fd;
	o->way = way;
	o->stream = fopencookie(o, "w", functions);
	if (!o->stream) {
		int e = errno;
		close(fd);
		return error("cannot write %s: %s", o->path, strerror(e));
	}
	return 0;
}

/* Opens what is written as it is: a device, FIFO, socket or standard stream. */
static int open_direct(struct output *o, const char *target, const struct stat *st, int stream_fd)
{
	int fd;
	/* (a check must not open a FIFO, whose reader would see its end, nor
	 * connect to a socket) */
	if (o->check_only && stream_fd < 0 && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0)
		return error("cannot write %s: %s", o->path, strerror(errno));
	if (o->check_only)
		return 0;
	if (stream_fd >= 0)
		fd = fcntl(stream_fd, F_DUPFD_CLOEXEC, 3);
	else if (S_ISSOCK(st->st_mode))
		fd = connect_socket(target);
	else
		fd = open(target, O_WRONLY | O_CLOEXEC | (S_ISREG(st->st_mode) ? O_TRUNC : 0));
	if (fd < 0)
		return error("cannot write %s: %s", o->path, strerror(errno));
	/* a reader that went away is an error to report, not a silent death */
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigaction(SIGPIPE, &ignore, NULL);
	return attach_stream(o, fd, OUTPUT_DIRECT);
}

static int open_in_place(struct output *o, const char *target)
{
	if (o->check_only)  /* open_replace() checked that it may be written */
		return 0;
	int fd = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return error("cannot write %s: %s", o->path, strerror(errno));
	return attach_stream(o, fd, OUTPUT_IN_PLACE);
}

/*
 * Creates the temporary file that will replace target, with the mode (and,
 * as root, the owner) of the file it replaces, or what `>` would give a new
 * file. Returns the descriptor, or -1 with errno (and o->temp_path NULL).
 */
static int create_replacement(struct output *o, const char *target, const struct stat *existing)
{
	char *dir = directory_of(target);
	const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	o->temp_path = fk_malloc(strlen(dir) + strlen(base) + 16);
	sprintf(o->temp_path, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	int fd = mkostemp(o->temp_path, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(o->temp_path);
		o->temp_path = NULL;
		errno = e;
		return -1;
	}
	if (existing) {
		/* owner first: a change of owner clears the set-id bits */
		if (geteuid() == 0)
			(void)!fchown(fd, existing->st_uid, existing->st_gid);
		else if (existing->st_gid != getegid())
			(void)!fchown(fd, (uid_t)-1, existing->st_gid);
		fchmod(fd, existing->st_mode & 07777);
	} else {
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return fd;
}

static int open_replace(struct output *o, const char *target, const struct stat *existing)
{
	if (existing && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0)
		return error("cannot write %s: %s", o->path, strerror(errno));
	int fd = create_replacement(o, target, existing);
	if (fd < 0) {
		int e = errno;
		if (existing && (e == EACCES || e == EPERM || e == EROFS))
			return open_in_place(o, target);
		return error("cannot create %s: %s", o->path, strerror(e));
	}
	if (o->check_only) {
		close(fd);
		unlink(o->temp_path);
		return 0;
	}
	if (attach_stream(o, fd, OUTPUT_REPLACE) < 0) {
		unlink(o->temp_path);
		return -1;
	}
	o->target = fk_strdup(target);
	track_pending(o->temp_path, true);
	return 0;
}

static int open_named(struct output *o)
{
	int stream_fd = standard_stream_fd(o->path);
	struct stat st;
	if (stream_fd >= 0) {
		if (fstat(stream_fd, &st) != 0)
			return error("cannot write %s: %s", o->path, strerror(errno));
		return open_direct(o, o->path, &st, stream_fd);
	}
	char *target;
	bool through_proc;
	if (follow_links(o->path, &target, &through_proc) != 0)
		return error("cannot write %s: %s", o->path, strerror(errno));
	int err;
	if (stat(target, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			err = error("cannot write %s: it is a directory; give a file name", o->path);
		else if (!S_ISREG(st.st_mode) || through_proc)
			err = open_direct(o, target, &st, -1);
		else
			err = open_replace(o, target, &st);
	} else if (errno != ENOENT) {
		err = error("cannot write %s: %s", o->path, strerror(errno));
	} else {
		char *dir = directory_of(target);
		struct stat dir_st;
		if (stat(dir, &dir_st) != 0 || !S_ISDIR(dir_st.st_mode))
			err = error("cannot write %s: there is no directory %s; create it first",
				    o->path, dir);
		else
			err = open_replace(o, target, NULL);
		free(dir);
	}
	free(target);
	return err;
}

static void output_free(struct output *o)
{
	if (o->gzip_memory)
		fclose(o->gzip_memory);
	free(o->gzip_text);
	if (o->temp_path)
		track_pending(o->temp_path, false);
	free(o->temp_path);
	free(o->target);
	free(o->path);
	free(o);
}

int output__open(struct output **out, const char *path)
{
	struct output *o = fk_calloc(1, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->stream = stdout;
		o->way = OUTPUT_STDOUT;
		*out = o;
		return 0;
	}
	o->path = fk_strdup(path);
	if (open_named(o) < 0) {
		output_free(o);
		return -1;
	}
	*out = o;
	return 0;
}

int output__check(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return 0;
	struct output *o = fk_calloc(1, sizeof(*o));
	o->path = fk_strdup(path);
	o->check_only = true;
	int status = open_named(o);
	output_free(o);
	return status;
}

int output__open_by_name(struct output **out, const char *path)
{
	static const char gz[] = ".gz";
	size_t len = path ? strlen(path) : 0;

	if (output__open(out, path) < 0)
		return -1;
	if (len < sizeof gz - 1 || strcmp(path + len - (sizeof gz - 1), gz) != 0)
		return 0;
	struct output *o = *out;
	o->gzip_memory = open_memstream(&o->gzip_text, &o->gzip_len);
	if (!o->gzip_memory) {
		int err = error("out of memory");
		output__abort(o);
		*out = NULL;
		return err;
	}
	return 0;
}

FILE *output__stream(struct output *out)
{
	return out->gzip_memory ? out->gzip_memory : out->stream;
}

/* Compresses what was written to a *.gz output into its stream. */
static int compress_into_stream(struct output *o)
{
	fclose(o->gzip_memory);
	o->gzip_memory = NULL;
	int status = gzip__write(o->stream, o->gzip_text, o->gzip_len);
	free(o->gzip_text);
	o->gzip_text = NULL;
	return status;
}

/* Flushes and closes the stream; returns 0 or the errno of the first failure. */
static int close_stream(struct output *o)
{
	bool failed = fflush(o->stream) != 0 || ferror(o->stream);
	failed |= fclose(o->stream) != 0;
	return failed ? (o->write_errno ? o->write_errno : EIO) : 0;
}

int output__commit(struct output *o)
{
	int err = 0;
	if (o->gzip_memory && compress_into_stream(o) < 0) {
		output__abort(o);
		return -1;
	}
	if (o->way == OUTPUT_STDOUT) {
		errno = 0;
		if ((fflush(o->stream) != 0 || ferror(o->stream)) && errno != EPIPE)
			err = error("cannot write to standard output: %s",
				    strerror(errno ? errno : EIO));
		output_free(o);
		return err;
	}
	int e = close_stream(o);
	if (e) {
		err = error("cannot write %s: %s", o->path, strerror(e));
		if (o->way == OUTPUT_REPLACE)
			unlink(o->temp_path);
	} else if (o->way == OUTPUT_REPLACE && rename(o->temp_path, o->target) != 0) {
		err = error("cannot rename %s to %s: %s", o->temp_path, o->target, strerror(errno));
		unlink(o->temp_path);
	}
	output_free(o);
	return err;
}

void output__abort(struct output *o)
{
	if (o->way == OUTPUT_STDOUT) {
		fflush(o->stream);
	} else {
		fclose(o->stream);
		if (o->way == OUTPUT_REPLACE)
			unlink(o->temp_path);
	}
	output_free(o);
}

int output__probe_directory(const char *dir)
{
	char *probe = fk_malloc(strlen(dir) + 24);
	sprintf(probe, "%s/.flamekit-probe.XXXXXX", dir);
	int fd = mkostemp(probe, O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	int e = errno;
	free(probe);
	errno = e;
	return fd >= 0 ? 0 : -1;
}

int output__make_directory(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		errno = ENOTDIR;
		return -1;
	}
	char *parent = directory_of(path);
	int status = 0;
	/* "." and "/" always exist; a path of only slashes or dots ends here */
	if (strcmp(parent, path) != 0 && strcmp(parent, ".") != 0)
		status = output__make_directory(parent);
	free(parent);
	if (status == 0 && mkdir(path, 0777) != 0 && errno != EEXIST)
		status = -1;
	return status;
}
