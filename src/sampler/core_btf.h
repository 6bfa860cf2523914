/*
 * The kernel's BTF cut down to the types a BPF object's CO-RE relocations
 * name, for libbpf to relocate the object with (btf_custom_path): without
 * it, libbpf reads and parses the whole of /sys/kernel/btf/vmlinux at each
 * start (5.5 MB on Debian 12's kernel), which was the peak of record's
 * resident set. Made by `bpftool gen min_core_btf` (Debian's bpftool, in
 * a process of its own) the first time a kernel meets an object, and kept
 * in the cache directory (lib/cache_dir.h) under a name of both.
 *
 *	char *btf = core_btf__path(bytes, size);  // NULL: let libbpf read the kernel's
 *	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf);
 *	... free(btf);
 */
#ifndef FLAMEKIT_CORE_BTF_H
#define FLAMEKIT_CORE_BTF_H

#include <stddef.h>

/* The cached BTF's path (malloc'd), made now if need be; NULL when there
 * is no cache directory, or bpftool is missing or fails. */
char *core_btf__path(const void *object, size_t size);

#endif
