#include "parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/error.h"

unsigned parallel__part_count(unsigned jobs, uint64_t size)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned parts = jobs ? jobs : (cpus > 0 ? (unsigned)cpus : 1);
	if (parts > PARALLEL_MAX_PARTS)
		parts = PARALLEL_MAX_PARTS;
	if (size / PARALLEL_MIN_PART_BYTES < parts)
		parts = (unsigned)(size / PARALLEL_MIN_PART_BYTES);
	return parts ? parts : 1;
}

/* The offset just past the first boundary line that starts after `from`,
 * looking at most `limit` bytes, or 0. */
static uint64_t boundary_after(struct input *file, uint64_t from, uint64_t size,
			       boundary_line_fn is_boundary, uint64_t limit)
{
	uint64_t end = from + limit < size ? from + limit : size;
	struct input *in = input__open_range(file, from, end);
	const char *line;
	size_t len;
	uint64_t offset = from, found = 0;
	bool first = true; /* the line `from` falls in may have started before it */
	while (input__next_line(in, &line, &len) > 0) {
		offset += len + 1;
		if (offset > end)
			break; /* a line cut by the window: not known whole */
		if (!first && is_boundary(line, len)) {
			found = offset;
			break;
		}
		first = false;
	}
	input__close(in);
	return found;
}

void parallel__split(struct input *file, uint64_t size, unsigned parts,
		     boundary_line_fn is_boundary, struct parallel_split *out)
{
	out->count = 0;
	out->bounds[0] = 0;
	unsigned n = 1;
	for (unsigned i = 1; i < parts && i < PARALLEL_MAX_PARTS; i++) {
		uint64_t at = boundary_after(file, size / parts * i, size, is_boundary, 8u << 20);
		if (at > out->bounds[n - 1] && at < size)
			out->bounds[n++] = at;
	}
	out->bounds[n] = size;
	out->count = n;
}

struct thread_arg {
	void (*read)(void *arg);
	void *arg;
};

static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	t->read(t->arg);
	return NULL;
}

int parallel__run(unsigned count, void (*read)(void *arg), void *args, size_t arg_size)
{
	pthread_t threads[PARALLEL_MAX_PARTS];
	struct thread_arg targs[PARALLEL_MAX_PARTS];
	unsigned started = 1;
	int err = 0;
	for (unsigned i = 1; i < count; i++) {
		targs[i] = (struct thread_arg){ read, (char *)args + i * arg_size };
		if (pthread_create(&threads[i], NULL, thread_main, &targs[i]) != 0) {
			err = error("cannot start a thread to read in parallel; try --jobs 1");
			break;
		}
		started = i + 1;
	}
	if (!err)
		read(args);
	for (unsigned i = 1; i < started; i++)
		pthread_join(threads[i], NULL);
	return err;
}
