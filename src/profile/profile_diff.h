/*
 * The difference of two profiles, as difffolded.pl makes it: one
 * two-column profile holding every stack of either input with its count
 * before (column 0) and after (column 1), 0 where a side lacks it.
 *
 * Options:
 *   normalize  scale the before counts to the after total,
 *              int(before * total_after / total_before), as `-n` does, so a
 *              longer or busier recording does not look like growth;
 *   strip_hex  replace every hexadecimal number "0x..." in frame names with
 *              "0x..." (`-s`), so that stacks differing only in addresses
 *              (ASLR, JIT) meet; stacks equal after that are summed.
 *
 * The inputs are not changed; the result is new (PROFILE_DECIMAL, slice 0)
 * and the caller frees it with profile__free().
 */
#ifndef FLAMEKIT_PROFILE_DIFF_H
#define FLAMEKIT_PROFILE_DIFF_H

#include <stdbool.h>

#include "profile.h"

struct profile_difference_options {
	bool normalize;
	bool strip_hex;
};

struct profile *profile__difference(const struct profile *before, const struct profile *after,
				    const struct profile_difference_options *o);

#endif
