/*
 * What a recording could not name or unwind, said at its end: one line per
 * binary (and cause), with its share of the samples (or of the off-CPU
 * microseconds) and what would fix it, most first, at most ten lines:
 *
 *	flamekit:  12.5% of samples have frames in libfoo.so without symbols: install ...
 *
 * Filled while the profile is built (sampled_profile.h: frames without
 * names, by enum symbol_miss) and from the unwinder (walks that stopped
 * early, by enum unwind_stop_reason).
 *
 *	struct missing_report *r = missing_report__new();
 *	missing_report__add_name(r, SYMBOL_NO_SYMBOL, "/usr/lib/libfoo.so", samples);
 *	missing_report__add_stops(r, stops, stop_count);
 *	missing_report__print(r, stderr, total_samples, "samples", false);
 *	missing_report__free(r);
 *
 * The report copies the paths it is given.
 */
#ifndef FLAMEKIT_SAMPLER_MISSING_REPORT_H
#define FLAMEKIT_SAMPLER_MISSING_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../symbolize/symbol_table.h"
#include "../symbolize/user_unwinder.h"

struct missing_report;

struct missing_report *missing_report__new(void);
void missing_report__free(struct missing_report *r);

/* samples had frames in `binary` (its path; NULL for SYMBOL_NO_JIT_NAME
 * and SYMBOL_NOT_MAPPED) without names, for `miss`. A sample should count
 * once per binary. SYMBOL_FOUND and SYMBOL_NOT_MAPPED are not reported. */
void missing_report__add_name(struct missing_report *r, enum symbol_miss miss,
			      const char *binary, uint64_t samples);
/* samples lacked something a text says, as "have no Python frames: ..."
 * (the line reads "N% of samples TEXT"). */
void missing_report__add_text(struct missing_report *r, const char *text, uint64_t samples);
void missing_report__add_stops(struct missing_report *r, const struct unwind_stop *stops,
			       size_t count);
/* The JVM pid could not be asked for its perf map (process_symbols.h), for
 * why: a line of its own. */
void missing_report__add_jvm_refusal(struct missing_report *r, uint32_t pid, const char *why);
/* The lines, shares of total (nothing when total is 0), which is `what`:
 * "samples", or "off-CPU microseconds". A binary without symbols is named
 * for `dpkg -S` as dpkg knows it (dpkg_paths.h); then, on Debian, a line
 * names its debug archive, and unless debuginfod_used one says how
 * --debuginfod would fetch the debug files. */
void missing_report__print(const struct missing_report *r, FILE *out, uint64_t total,
			   const char *what, bool debuginfod_used);

#endif
