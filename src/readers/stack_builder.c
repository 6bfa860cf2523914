#include "stack_builder.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/bytes.h"
#include "../lib/xalloc.h"

void stack_builder__init(struct stack_builder *sb, struct profile *profile)
{
	memset(sb, 0, sizeof(*sb));
	sb->profile = profile;
}

void stack_builder__release(struct stack_builder *sb)
{
	free(sb->frames);
	memset(sb, 0, sizeof(*sb));
}

static void push(struct stack_builder *sb, frame_id id)
{
	sb->frames = fk_grow(sb->frames, &sb->cap, sb->depth + 1, sizeof(frame_id));
	sb->frames[sb->depth++] = id;
}

static void reverse(frame_id *f, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		frame_id t = f[i];
		f[i] = f[j - 1];
		f[j - 1] = t;
	}
}

void stack_builder__add(struct stack_builder *sb, const char *s, size_t len)
{
	const char *end = s + len;
	for (;;) {
		const char *semi = find_byte(s, (size_t)(end - s), ';');
		if (!semi) {
			push(sb, profile__intern(sb->profile, s, (size_t)(end - s)));
			return;
		}
		push(sb, profile__intern(sb->profile, s, (size_t)(semi - s)));
		s = semi + 1;
	}
}

void stack_builder__group_end(struct stack_builder *sb)
{
	reverse(sb->frames + sb->group_start, sb->depth - sb->group_start);
}

const frame_id *stack_builder__group_ids(const struct stack_builder *sb, size_t *count)
{
	*count = sb->depth - sb->group_start;
	return sb->frames + sb->group_start;
}

void stack_builder__add_ids(struct stack_builder *sb, const frame_id *ids, size_t count)
{
	sb->frames = fk_grow(sb->frames, &sb->cap, sb->depth + count, sizeof(frame_id));
	memcpy(sb->frames + sb->depth, ids, count * sizeof(frame_id));
	sb->depth += count;
}

void stack_builder__unshift(struct stack_builder *sb, const char *s, size_t len)
{
	stack_builder__group_begin(sb);
	stack_builder__add(sb, s, len);
	stack_builder__group_end(sb);
}

void stack_builder__group_kind(struct stack_builder *sb, enum profile_frame_kind kind)
{
	for (size_t i = sb->group_start; i < sb->depth; i++)
		profile__set_frame_kind(sb->profile, sb->frames[i], kind);
}

size_t stack_builder__commit(struct stack_builder *sb, uint64_t count)
{
	return stack_builder__commit_keyed(sb, count, NULL);
}

size_t stack_builder__commit_keyed(struct stack_builder *sb, uint64_t count,
				   const struct profile_key *key)
{
	reverse(sb->frames, sb->depth);
	union profile_value v = profile__count_value(sb->profile, count);
	size_t e = profile__add(sb->profile, sb->frames, (uint32_t)sb->depth, key, &v);
	stack_builder__clear(sb);
	return e;
}
