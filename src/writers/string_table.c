#include "string_table.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"

struct string_entry {
	size_t offset;   /* into text */
	size_t len;
	uint64_t hash;
};

static uint64_t entry_hash_of(const void *entries, size_t index)
{
	return ((const struct string_entry *)entries)[index].hash;
}

void string_table__init(struct string_table *t, const struct profile *profile, uint32_t field)
{
	*t = (struct string_table){ .field = field, .profile = profile };
	size_t frames = profile__frame_count(profile);
	t->of_frame = fk_calloc(frames ? frames : 1, sizeof(*t->of_frame));
	index_table__init(&t->index, 1024);
	string_table__add(t, "", 0);
}

void string_table__release(struct string_table *t)
{
	buf__free(&t->encoded);
	buf__free(&t->text);
	free(t->of_frame);
	free(t->entries);
	index_table__release(&t->index);
}

uint64_t string_table__add(struct string_table *t, const char *s, size_t len)
{
	uint64_t hash = XXH3_64bits(s, len);
	size_t slot = index_table__first(&t->index, hash);
	for (uint32_t at; (at = t->index.slots[slot]) != 0; slot = index_table__next(&t->index, slot)) {
		const struct string_entry *e = &t->entries[at - 1];
		if (e->hash == hash && e->len == len && memcmp(t->text.data + e->offset, s, len) == 0)
			return at - 1;
	}
	t->entries = fk_grow(t->entries, &t->entries_cap, t->count + 1, sizeof(*t->entries));
	t->entries[t->count] = (struct string_entry){ t->text.len, len, hash };
	buf__append(&t->text, s, len);
	index_table__insert(&t->index, slot, t->count, entry_hash_of, t->entries);
	pb__bytes(&t->encoded, t->field, s, len);
	return t->count++;
}

uint64_t string_table__add_text(struct string_table *t, const char *s)
{
	return string_table__add(t, s, strlen(s));
}

uint64_t string_table__frame(struct string_table *t, frame_id frame)
{
	if (!t->of_frame[frame]) {
		size_t len;
		const char *name = profile__frame_name(t->profile, frame, &len);
		t->of_frame[frame] = string_table__add(t, name, len) + 1;
	}
	return t->of_frame[frame] - 1;
}

void string_table__value_type(struct string_table *t, struct buf *b, uint32_t field,
			      const struct sample_type *type)
{
	size_t m = pb__begin(b, field);
	pb__uint(b, 1, string_table__add_text(t, type->type));
	pb__uint(b, 2, string_table__add_text(t, type->unit));
	pb__end(b, m);
}
