#include "slice_length.h"

#include <string.h>

#include "error.h"

int slice_length__parse(const char *option, const char *arg, uint64_t *slice_ns)
{
	if (!arg) {
		*slice_ns = (uint64_t)SLICE_LENGTH_DEFAULT_MS * 1000000;
		return 0;
	}
	/* by hand, not strtod: "1e3", " 5", "0x10" and "inf" are not lengths,
	 * and no rounding may move a slice's edge */
	uint64_t whole = 0, fraction = 0;
	size_t i = 0, digits = 0, decimals = 0;
	for (; arg[i] >= '0' && arg[i] <= '9' && digits < 8; i++, digits++)
		whole = whole * 10 + (uint64_t)(arg[i] - '0');
	if (digits && arg[i] == '.')
		for (i++; arg[i] >= '0' && arg[i] <= '9' && decimals < 7; i++, decimals++)
			fraction = fraction * 10 + (uint64_t)(arg[i] - '0');
	for (size_t d = decimals; d < 6; d++)
		fraction *= 10;
	uint64_t ns = whole * 1000000 + fraction;
	if (!digits || arg[i] || decimals > 6 || ns < 1000 || ns > 3600000ull * 1000000)
		return error("%s=%s: expected the milliseconds of a time slice, a number from "
			     "0.001 to 3600000 (at most 6 decimals), e.g. %s=%d",
			     option, arg, option, SLICE_LENGTH_DEFAULT_MS);
	*slice_ns = ns;
	return 0;
}
