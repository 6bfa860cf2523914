#include "pid_table.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static uint32_t pid_of(const void *record)
{
	uint32_t pid;
	memcpy(&pid, record, sizeof(pid));
	return pid;
}

static uint64_t record_hash_of(const void *records, size_t index)
{
	return index_table__mix(pid_of(((void *const *)records)[index]));
}

void pid_table__init(struct pid_table *t)
{
	*t = (struct pid_table){ 0 };
	index_table__init(&t->index, 64);
}

void pid_table__release(struct pid_table *t, void (*free_record)(void *record))
{
	for (size_t i = 0; i < t->count; i++)
		(free_record ? free_record : free)(t->records[i]);
	free(t->records);
	index_table__release(&t->index);
	*t = (struct pid_table){ 0 };
}

void *pid_table__get(struct pid_table *t, uint32_t pid, size_t record_size, bool *made)
{
	size_t slot = index_table__first(&t->index, index_table__mix(pid));

	if (made)
		*made = false;
	for (uint32_t at; (at = t->index.slots[slot]) != 0; slot = index_table__next(&t->index, slot))
		if (pid_of(t->records[at - 1]) == pid)
			return t->records[at - 1];
	if (record_size < sizeof(pid))
		return NULL;
	void *record = fk_calloc(1, record_size);
	memcpy(record, &pid, sizeof(pid));
	t->records = fk_grow(t->records, &t->cap, t->count + 1, sizeof(*t->records));
	t->records[t->count] = record;
	index_table__insert(&t->index, slot, t->count++, record_hash_of, t->records);
	if (made)
		*made = true;
	return record;
}

void pid_table__remove_if(struct pid_table *t, bool (*gone)(const void *record, void *arg),
			  void *arg, void (*free_record)(void *record))
{
	size_t kept = 0;

	for (size_t i = 0; i < t->count; i++) {
		if (gone(t->records[i], arg))
			(free_record ? free_record : free)(t->records[i]);
		else
			t->records[kept++] = t->records[i];
	}
	if (kept == t->count)
		return;
	/* the index holds positions: built anew over the records kept */
	t->count = kept;
	index_table__release(&t->index);
	index_table__init(&t->index, 64);
	for (size_t i = 0; i < t->count; i++) {
		size_t slot = index_table__first(&t->index, record_hash_of(t->records, i));
		while (t->index.slots[slot] != 0)
			slot = index_table__next(&t->index, slot);
		index_table__insert(&t->index, slot, i, record_hash_of, t->records);
	}
}

static int compare_pids(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The pids a removal is for, sorted. */
struct pid_set {
	const uint32_t *pids;
	size_t count;
};

bool pid_table__sorted_has(const uint32_t *pids, size_t count, uint32_t pid)
{
	return bsearch(&pid, pids, count, sizeof(*pids), compare_pids) != NULL;
}

static bool in_pid_set(const void *record, void *arg)
{
	const struct pid_set *set = arg;
	return pid_table__sorted_has(set->pids, set->count, *(const uint32_t *)record);
}

void pid_table__remove_pids(struct pid_table *t, uint32_t *pids, size_t count,
			    void (*free_record)(void *record))
{
	if (count == 0)
		return;
	qsort(pids, count, sizeof(*pids), compare_pids);
	struct pid_set set = { pids, count };
	pid_table__remove_if(t, in_pid_set, &set, free_record);
}
