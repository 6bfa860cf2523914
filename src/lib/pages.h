/*
 * pages__give_back(): the pages that hold [bytes, bytes + size), partial
 * pages at either end included, in a mapping of a file that we only read,
 * dropped from our resident set (madvise MADV_DONTNEED). The page cache
 * keeps them, and a read faults them in again: a symbol file, a binary's
 * ELF, the BPF object in our own binary. Never for memory we wrote (a
 * private page we wrote is lost), nor for a range whose first or last page
 * holds any.
 */
#ifndef FLAMEKIT_PAGES_H
#define FLAMEKIT_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Whether addr lies in a mapping of a file (/proc/self/maps), which a
 * give-back may drop: not memory of our own, such as an ELF image libelf
 * read whole into memory (ELF_C_READ) or the MiniDebugInfo image libdwfl
 * inflates. */
bool pages__in_file_mapping(const void *addr);

static inline void pages__give_back(const void *bytes, size_t size)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)bytes & ~(page - 1);
	uintptr_t end = ((uintptr_t)bytes + size + page - 1) & ~(page - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

#endif
