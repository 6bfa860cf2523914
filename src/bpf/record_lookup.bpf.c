// SPDX-License-Identifier: GPL-2.0
/*
 * Reads many values of record's `stacks` map in one system call, for user
 * space at the end of a recording (sampler/stack_fetch.c): it writes up to
 * RECORD_FETCH_BATCH hashes into fetch_hashes (mapped into its memory),
 * runs fetch_stacks (BPF_PROG_RUN: a `syscall` program, Linux 5.14 and
 * later; on a map that takes memory as it comes, 6.1), and reads each
 * value in place in fetch_values, a depth of RECORD_FETCH_MISSING where
 * the map has none. A lookup a system call each took 1.4 us, most of it
 * the call itself; here 0.2 us a value.
 *
 * `stacks` is record.bpf.c's own map (user space hands its fd over), its
 * value cut to a chunk's frames as there; fetch_values' values are set to
 * the same size.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "record.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u64));
	__uint(value_size, sizeof(struct record_stack));  /* as record.bpf.c's */
	__uint(max_entries, 1);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, RECORD_FETCH_BATCH);
	__uint(map_flags, BPF_F_MMAPABLE);
} fetch_hashes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct record_stack));  /* set to the stacks' size */
	__uint(max_entries, RECORD_FETCH_BATCH);
	__uint(map_flags, BPF_F_MMAPABLE);
} fetch_values SEC(".maps");

struct fetch_state {
	__u32 first;
	__u32 failed;
};

/* Place first + i: its hash's value, or RECORD_FETCH_MISSING. */
static long fetch_one(__u32 i, struct fetch_state *state)
{
	__u32 at = state->first + i;
	__u64 *hash = bpf_map_lookup_elem(&fetch_hashes, &at);
	struct record_stack *value = bpf_map_lookup_elem(&fetch_values, &at);

	if (!hash || !value) {
		state->failed = 1;
		return 1;
	}
	struct record_stack *found = bpf_map_lookup_elem(&stacks, hash);
	if (!found || bpf_map_update_elem(&fetch_values, &at, found, BPF_ANY))
		value->depth = RECORD_FETCH_MISSING;
	return 0;
}

/* bpf_loop() (Linux 5.17), where a loop the verifier follows through every
 * turn took 30 ms to load. */
SEC("syscall")
int fetch_stacks(struct record_fetch_args *args)
{
	struct fetch_state state = { args->first, 0 };

	if (args->count > RECORD_FETCH_BATCH)
		return 1;
	bpf_loop(args->count, fetch_one, &state, 0);
	return state.failed;
}

char LICENSE[] SEC("license") = "GPL";
