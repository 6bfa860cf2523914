/*
 * Per-process records by process id: a table of pointers to records the
 * caller defines, found by pid, made (zeroed) on first sight. The symbolizer
 * and the unwinder each keep one of their own records per process.
 *
 *	struct pid_table t;
 *	pid_table__init(&t);
 *	struct my_process *p = pid_table__get(&t, pid, sizeof(*p), NULL);
 *	for (size_t i = 0; i < t.count; i++)
 *		... t.records[i] (in the order first seen) ...
 *	pid_table__release(&t, my_process__free);
 *
 * Records never move (the table holds pointers), so a record pointer stays
 * valid until pid_table__release(), or pid_table__remove_if() frees it.
 */
#ifndef FLAMEKIT_PID_TABLE_H
#define FLAMEKIT_PID_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "index_table.h"

struct pid_table {
	void **records;       /* each begins with its uint32_t pid */
	size_t count, cap;
	struct index_table index;
};

void pid_table__init(struct pid_table *t);
/* Frees every record with free_record (NULL: free()) and the table. */
void pid_table__release(struct pid_table *t, void (*free_record)(void *record));

/*
 * The record of pid, or NULL when there is none and record_size is 0;
 * otherwise a new zeroed record of record_size bytes whose first member, a
 * uint32_t, is set to pid (*made set to whether it was made; may be NULL).
 */
void *pid_table__get(struct pid_table *t, uint32_t pid, size_t record_size, bool *made);
/* Frees, with free_record (NULL: free()), every record gone(record, arg)
 * says is gone; the others keep their order. */
void pid_table__remove_if(struct pid_table *t, bool (*gone)(const void *record, void *arg),
			  void *arg, void (*free_record)(void *record));
/* The same for the records of these pids (sorted in place). */
void pid_table__remove_pids(struct pid_table *t, uint32_t *pids, size_t count,
			    void (*free_record)(void *record));
/* Whether pid is among pids, sorted ascending (as pid_table__remove_pids()
 * leaves them). */
bool pid_table__sorted_has(const uint32_t *pids, size_t count, uint32_t pid);

#endif
