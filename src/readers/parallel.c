#include "parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

/* Parts for a file: `jobs` (0 = one per CPU), fewer for a small file; 1 = serial. */
static unsigned part_count(unsigned jobs, uint64_t size)
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
			       bool (*is_boundary)(const char *line, size_t len), uint64_t limit)
{
	uint64_t end = from + limit < size ? from + limit : size;
	struct input *in = input__open_range(file, from, end, 0);
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

/* Part i: bytes [bounds[i], bounds[i + 1]). */
struct split {
	unsigned count;
	uint64_t bounds[PARALLEL_MAX_PARTS + 1];
};

/* Cuts the file into up to `parts` parts of near equal size, each starting
 * after a boundary line (fewer parts where none is found near a cut). */
static void split_file(struct input *file, uint64_t size, unsigned parts,
		       bool (*is_boundary)(const char *line, size_t len), struct split *out)
{
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

struct part {
	const struct parallel_ops *ops;
	void *reader;
	struct read_context ctx;   /* keeps what the part reports */
	struct input *in;
	struct profile *profile;
	void *state;
	int err;
};

static void open_part(struct part *pt, const struct parallel_ops *ops, void *reader,
		      const struct read_context *whole, const struct profile *result,
		      struct input *file, const struct split *split, unsigned i,
		      uint64_t lines_before)
{
	pt->ops = ops;
	pt->reader = reader;
	read_context__init_part(&pt->ctx, whole);
	pt->in = input__open_range(file, split->bounds[i], split->bounds[i + 1], lines_before);
	pt->profile = profile__new_like(result);
	pt->state = ops->state_new(reader, i, &pt->ctx, pt->profile);
}

static void close_part(struct part *pt, struct input *file)
{
	pt->ops->state_free(pt->reader, pt->state);
	input__close_part(file, pt->in);
	profile__free(pt->profile);
	read_context__release(&pt->ctx);
}

/* error() and warning() on a part's thread: kept with what it reports. */
static void keep_message(void *ctx, const char *message, size_t len)
{
	read_context__print(ctx, message, len);
}

static void *read_part(void *arg)
{
	struct part *pt = arg;
	error__redirect(keep_message, &pt->ctx);
	pt->err = pt->ops->read(pt->state, &pt->in, 1);
	error__redirect(NULL, NULL);
	return NULL;
}

/* Part 0 on this thread, the others on threads of their own. -1 (printed)
 * if a thread could not start: then no part's result may be used. */
static int run_parts(struct part *parts, unsigned count)
{
	pthread_t threads[PARALLEL_MAX_PARTS];
	unsigned started = 1;
	int err = 0;
	for (unsigned i = 1; i < count; i++) {
		if (pthread_create(&threads[i], NULL, read_part, &parts[i]) != 0) {
			err = error("cannot start a thread to read in parallel; try --jobs 1");
			break;
		}
		started = i + 1;
	}
	if (!err)
		read_part(&parts[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(threads[i], NULL);
	return err;
}

/*
 * Part i failed, the first that did: it is read again, alone, its lines
 * numbered on from the `lines` before it, so that what it reports (and what
 * the input formats with a line number) is what the serial read prints. If
 * it does not fail again (a passing read error), what it first kept is
 * printed: either way the read ends here, as the serial one would have.
 */
static void report_failed_part(struct part *failed, struct read_context *ctx,
			       struct input *file, const struct split *split, unsigned i,
			       uint64_t lines)
{
	struct part again = { 0 };
	open_part(&again, failed->ops, failed->reader, ctx, failed->profile, file, split, i, lines);
	read_part(&again);
	if (again.err)
		read_context__replay(ctx, &again.ctx, file, 0);
	else
		read_context__replay(ctx, &failed->ctx, file, lines);
	again.ops->state_free(again.reader, again.state);
	input__close(again.in); /* its lines are counted with the failed part's */
	profile__free(again.profile);
	read_context__release(&again.ctx);
}

static int read_parts(struct read_context *ctx, struct input *file, const struct split *split,
		      const struct parallel_ops *ops, void *reader, struct profile *profile)
{
	unsigned n = split->count;
	struct part *parts = fk_calloc(n, sizeof(*parts));
	for (unsigned i = 0; i < n; i++)
		open_part(&parts[i], ops, reader, ctx, profile, file, split, i, 0);
	int err = run_parts(parts, n);
	uint64_t lines = 0; /* in the parts before this one */
	for (unsigned i = 0; i < n && !err; i++) {
		struct part *pt = &parts[i];
		if (pt->err) {
			report_failed_part(pt, ctx, file, split, i, lines);
			err = -1;
			break;
		}
		read_context__replay(ctx, &pt->ctx, file, lines);
		profile__merge(profile, pt->profile);
		lines += input__line_number(pt->in);
	}
	for (unsigned i = 0; i < n; i++)
		close_part(&parts[i], file);
	free(parts);
	return err;
}

int parallel__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		   const struct parallel_ops *ops, void *reader, struct profile *profile)
{
	struct split split = { .count = 1 };
	uint64_t size;
	unsigned n;
	if (count == 1 && input__plain_size(inputs[0], &size) &&
	    (n = part_count(ctx->jobs, size)) > 1) {
		/* the read meets again what these scans meet, and says it in place */
		error__redirect(error__discard, NULL);
		if (!ops->prepare || ops->prepare(reader, inputs[0], size))
			split_file(inputs[0], size, n, ops->boundary, &split);
		error__redirect(NULL, NULL);
	}
	if (split.count > 1)
		return read_parts(ctx, inputs[0], &split, ops, reader, profile);
	void *state = ops->state_new(reader, 0, ctx, profile);
	int err = ops->read(state, inputs, count);
	ops->state_free(reader, state);
	return err;
}
