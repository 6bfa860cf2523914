#include "stack_fetch.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/xalloc.h"
#include "record_lookup.skel.h"

struct stack_fetch {
	struct record_lookup_bpf *skel;
	uint64_t *hashes;           /* fetch_hashes, mapped */
	unsigned char *values;      /* fetch_values, mapped */
	size_t value_size, hashes_bytes, values_bytes;
};

/* How far apart an array's values are in its mapping. */
static size_t value_stride(const struct stack_fetch *f)
{
	return (f->value_size + 7) & ~(size_t)7;
}

static size_t whole_pages(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	return (bytes + page - 1) / page * page;
}

struct stack_fetch *stack_fetch__open(int stacks_fd, size_t value_size)
{
	struct stack_fetch *f = fk_calloc(1, sizeof(*f));

	f->value_size = value_size;
	f->skel = record_lookup_bpf__open();
	if (!f->skel || bpf_map__reuse_fd(f->skel->maps.stacks, stacks_fd) ||
	    bpf_map__set_value_size(f->skel->maps.fetch_values, value_size) ||
	    record_lookup_bpf__load(f->skel))
		goto fail;
	f->hashes_bytes = whole_pages(STACK_FETCH_BATCH * sizeof(uint64_t));
	f->values_bytes = whole_pages(STACK_FETCH_BATCH * value_stride(f));
	f->hashes = mmap(NULL, f->hashes_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bpf_map__fd(f->skel->maps.fetch_hashes), 0);
	f->values = mmap(NULL, f->values_bytes, PROT_READ, MAP_SHARED,
			 bpf_map__fd(f->skel->maps.fetch_values), 0);
	if (f->hashes == MAP_FAILED || f->values == MAP_FAILED)
		goto fail;
	return f;
fail:
	stack_fetch__free(f);
	return NULL;
}

void stack_fetch__free(struct stack_fetch *f)
{
	if (!f)
		return;
	if (f->hashes && f->hashes != MAP_FAILED)
		munmap(f->hashes, f->hashes_bytes);
	if (f->values && f->values != MAP_FAILED)
		munmap((void *)f->values, f->values_bytes);
	record_lookup_bpf__destroy(f->skel);
	free(f);
}

int stack_fetch__run(struct stack_fetch *f, size_t first, const uint64_t *hashes, size_t n)
{
	struct record_fetch_args args = { .first = (uint32_t)first, .count = (uint32_t)n };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

	if (first > STACK_FETCH_BATCH || n > STACK_FETCH_BATCH - first)
		return -1;
	memcpy(f->hashes + first, hashes, n * sizeof(*hashes));
	if (bpf_prog_test_run_opts(bpf_program__fd(f->skel->progs.fetch_stacks), &opts) ||
	    opts.retval)
		return -1;
	return 0;
}

const struct record_stack *stack_fetch__value(const struct stack_fetch *f, size_t i)
{
	const struct record_stack *v = (const void *)(f->values + i * value_stride(f));
	return v->depth == RECORD_FETCH_MISSING ? NULL : v;
}
