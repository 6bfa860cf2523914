/*
 * The processes a profile's stacks belong to, for the formats that keep
 * them apart (speedscope's profiles, OTLP's resources): by pid where the
 * profile keeps processes apart (record), else by the process-name root
 * frame (a frame of kind PROFILE_FRAME_PROCESS), else all in one group.
 * Groups are numbered in the order their first entry was added; each has
 * its pid (0: not known) and process name (comm: NO_COMM when not known;
 * by pid, the name its first entry has).
 *
 *	struct process_groups g;
 *	process_groups__init(&g, profile);
 *	... g.of_entry[e] is entry e's group, g.groups[0 .. g.count-1] ...
 *	process_groups__release(&g);
 */
#ifndef FLAMEKIT_WRITERS_PROCESS_GROUPS_H
#define FLAMEKIT_WRITERS_PROCESS_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "../profile/profile.h"

#define NO_COMM UINT32_MAX

struct process_group {
	uint32_t pid;
	frame_id comm;
};

struct process_groups {
	struct process_group *groups;
	size_t count;
	uint32_t *of_entry;
};

void process_groups__init(struct process_groups *g, const struct profile *profile);
void process_groups__release(struct process_groups *g);

#endif
