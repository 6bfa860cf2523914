#include "bpf_functions.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/xalloc.h"

/* One program's arrays, as bpf_obj_get_info_by_fd() fills them. */
struct program_info {
	struct bpf_prog_info info;
	__u64 *addresses;
	__u32 *lengths;
	__u8 (*tags)[BPF_TAG_SIZE];
	struct bpf_func_info *functions;  /* (func_info_rec_size apart) */
};

static void program_info__release(struct program_info *p)
{
	free(p->addresses);
	free(p->lengths);
	free(p->tags);
	free(p->functions);
}

/* The program's JITed functions: false when it has none (not JITed) or is gone. */
static bool program_info__read(int fd, struct program_info *p)
{
	struct bpf_prog_info counts = { 0 };
	__u32 size = sizeof(counts);

	memset(p, 0, sizeof(*p));
	if (bpf_obj_get_info_by_fd(fd, &counts, &size) != 0 || counts.nr_jited_ksyms == 0)
		return false;
	__u32 functions = counts.nr_jited_ksyms;
	__u32 function_infos = counts.nr_func_info;
	__u32 record_size = counts.func_info_rec_size;
	p->addresses = fk_calloc(functions, sizeof(*p->addresses));
	p->lengths = fk_calloc(functions, sizeof(*p->lengths));
	p->tags = fk_calloc(functions, sizeof(*p->tags));
	p->functions = function_infos ? fk_calloc(function_infos, record_size) : NULL;
	p->info.nr_jited_ksyms = functions;
	p->info.jited_ksyms = (__u64)(uintptr_t)p->addresses;
	p->info.nr_jited_func_lens = functions;
	p->info.jited_func_lens = (__u64)(uintptr_t)p->lengths;
	p->info.nr_prog_tags = functions;
	p->info.prog_tags = (__u64)(uintptr_t)p->tags;
	if (function_infos) {
		p->info.nr_func_info = function_infos;
		p->info.func_info_rec_size = record_size;
		p->info.func_info = (__u64)(uintptr_t)p->functions;
	}
	size = sizeof(p->info);
	if (bpf_obj_get_info_by_fd(fd, &p->info, &size) != 0 ||
	    p->info.nr_jited_ksyms != functions || p->info.nr_prog_tags < functions) {
		program_info__release(p);
		return false;
	}
	if (p->info.nr_func_info < function_infos)
		function_infos = p->info.nr_func_info;
	p->info.nr_func_info = function_infos;
	return true;
}

/*
 * Function i's name as kallsyms shows it (the kernel's bpf_get_prog_name()):
 * its tag in hex, then its name in the program's BTF when the program has
 * one for it, else the program's own name for the first function (the
 * program itself) and "F" for the others.
 */
static void function_name(const struct program_info *p, const struct btf *btf, __u32 i,
			  struct buf *name)
{
	const char *short_name = NULL;

	buf__reset(name);
	/* (kallsyms lists the program itself where its first function is,
	 * under the program's tag, not that function's own) */
	const __u8 *tag = i == 0 ? p->info.tag : p->tags[i];
	buf__printf(name, "bpf_prog_");
	for (size_t b = 0; b < BPF_TAG_SIZE; b++)
		buf__printf(name, "%02x", tag[b]);
	if (btf && i < p->info.nr_func_info) {
		const struct bpf_func_info *f = (const void *)((const char *)p->functions +
							       (size_t)i * p->info.func_info_rec_size);
		const struct btf_type *t = btf__type_by_id(btf, f->type_id);
		short_name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	} else if (i == 0) {
		short_name = p->info.name[0] ? p->info.name : NULL;
	} else {
		short_name = "F";
	}
	if (short_name)
		buf__printf(name, "_%s", short_name);
}

static int compare_functions(const void *a, const void *b)
{
	const struct kernel_function *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int bpf_functions__read(struct kernel_function **functions, size_t *count)
{
	struct kernel_function *list = NULL;
	size_t n = 0, cap = 0;
	struct buf name = BUF_INIT;
	__u32 id = 0, btf_id = 0;
	struct btf *btf = NULL;  /* btf_id's (the programs of one object share one) */
	bool listed = false;

	while (bpf_prog_get_next_id(id, &id) == 0) {
		listed = true;
		int fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;  /* (unloaded since) */
		struct program_info p;
		if (program_info__read(fd, &p)) {
			if (p.info.nr_func_info && p.info.btf_id && p.info.btf_id != btf_id) {
				btf__free(btf);
				btf = btf__load_from_kernel_by_id(p.info.btf_id);
				if (libbpf_get_error(btf))
					btf = NULL;
				btf_id = btf ? p.info.btf_id : 0;
			}
			for (__u32 i = 0; i < p.info.nr_jited_ksyms; i++) {
				function_name(&p, p.info.btf_id == btf_id ? btf : NULL, i, &name);
				list = fk_grow(list, &cap, n + 1, sizeof(*list));
				list[n++] = (struct kernel_function){ p.addresses[i], p.lengths[i],
								      fk_strdup(name.data) };
			}
			program_info__release(&p);
		}
		close(fd);
	}
	btf__free(btf);
	buf__free(&name);
	if (!listed && errno != ENOENT) {
		free(list);
		return -1;
	}
	if (n)
		qsort(list, n, sizeof(*list), compare_functions);
	*functions = list;
	*count = n;
	return 0;
}
