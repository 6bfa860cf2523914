#include "key_directory.h"

#include <stdlib.h>

#include "upper_bound.h"
#include "xalloc.h"

void key_directory__build(struct key_directory *d, const void *items, size_t count,
			  size_t stride, size_t key_size)
{
	*d = (struct key_directory){ 0 };
	if (count == 0)
		return;
	d->low = upper_bound__key(items, 0, stride, key_size);
	uint64_t range = upper_bound__key(items, count - 1, stride, key_size) - d->low;
	size_t most = count / KEY_DIRECTORY_PER_SPAN + 1;
	while ((range >> d->shift) >= most)
		d->shift++;
	d->spans = (size_t)(range >> d->shift) + 1;
	d->starts = fk_malloc((d->spans + 1) * sizeof(*d->starts));
	size_t span = 0;
	for (size_t i = 0; i < count; i++) {
		size_t of = (size_t)((upper_bound__key(items, i, stride, key_size) - d->low) >> d->shift);
		while (span <= of)
			d->starts[span++] = (uint32_t)i;
	}
	while (span <= d->spans)
		d->starts[span++] = (uint32_t)count;
}

void key_directory__release(struct key_directory *d)
{
	free(d->starts);
	*d = (struct key_directory){ 0 };
}

size_t key_directory__upper_bound(const struct key_directory *d, const void *items,
				  size_t count, size_t stride, size_t key_size, uint64_t key)
{
	if (!d->starts)
		return upper_bound(items, count, stride, key_size, key);
	if (key < d->low)
		return 0;
	uint64_t span = (key - d->low) >> d->shift;
	if (span >= d->spans)
		return count;
	/* the spans before hold keys below key's span, those after above it */
	size_t begin = d->starts[span], end = d->starts[span + 1];
	return begin + upper_bound((const char *)items + begin * stride, end - begin, stride,
				   key_size, key);
}
