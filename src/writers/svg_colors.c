#include "svg_colors.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/output.h"
#include "../profile/profile.h"
#include "../lib/utf8.h"
#include "../lib/xalloc.h"

/* Perl's rand() after srand(seed): its built-in drand48, one step. */
static double perl_seeded_rand(uint32_t seed)
{
	const uint64_t mask = (UINT64_C(1) << 48) - 1;
	uint64_t state = (UINT64_C(0x330E) + ((uint64_t)seed << 16)) & mask;
	state = (state * UINT64_C(0x5DEECE66D) + 0xB) & mask;
	return ldexp((double)state, -48);
}

/* unpack("%32W*", name): the sum of the code points, modulo 2^32. */
static uint32_t code_point_sum(const char *name, size_t len)
{
	uint32_t sum = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		i += utf8__decode(name + i, len - i, &cp);
		sum += cp;
	}
	return sum;
}

/*
 * flamegraph.pl's namehash(): the first three characters, early ones
 * weighing more, after dropping a "module`" prefix (everything up to the
 * first backquote that is not the first character).
 */
static double name_hash(const uint32_t *chars, size_t n)
{
	size_t start = 0;
	for (size_t i = 1; i < n; i++)
		if (chars[i] == '`') {
			start = i + 1;
			break;
		}
	double vector = 0, weight = 1, max = 1;
	unsigned mod = 10;
	for (size_t i = start; i < n; i++) {
		unsigned v = chars[i] % mod;
		vector += ((double)v / (mod - 1)) * weight;
		mod++;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

/* The name's code points; *n of them. Caller frees. */
static uint32_t *decode_name(const char *name, size_t len, size_t *n)
{
	uint32_t *chars = fk_malloc((len + 1) * sizeof(*chars));
	size_t k = 0;
	for (size_t i = 0; i < len; k++)
		i += utf8__decode(name + i, len - i, &chars[k]);
	*n = k;
	return chars;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static bool contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static bool starts_with_java_package(const char *s, size_t len)
{
	static const char *const packages[] = { "java/", "javax/", "jdk/", "net/", "org/",
						"com/", "io/", "sun/" };
	if (len > 0 && s[0] == 'L')
		s++, len--;
	for (size_t i = 0; i < sizeof(packages) / sizeof(packages[0]); i++)
		if (len >= strlen(packages[i]) && memcmp(s, packages[i], strlen(packages[i])) == 0)
			return true;
	return false;
}

/* js: a "/" somewhere before a later ".js" (m:/.*\.js:). */
static bool js_source_path(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	return slash && contains(slash + 1, len - (size_t)(slash + 1 - s), ".js");
}

/* The multi palettes choose a flat one by the name; others are themselves. */
static const char *flat_palette(const char *palette, const char *s, size_t len)
{
	if (strcmp(palette, "java") == 0) {
		if (ends_with(s, len, "_[j]"))
			return "green";
		if (ends_with(s, len, "_[i]"))
			return "aqua";
		if (starts_with_java_package(s, len) || contains(s, len, ":::"))
			return "green";
		if (contains(s, len, "::"))
			return "yellow";
		if (ends_with(s, len, "_[k]"))
			return "orange";
		return "red";
	}
	if (strcmp(palette, "perl") == 0) {
		if (contains(s, len, "::"))
			return "yellow";
		if (contains(s, len, "Perl") || contains(s, len, ".pl"))
			return "green";
		if (ends_with(s, len, "_[k]"))
			return "orange";
		return "red";
	}
	if (strcmp(palette, "js") == 0) {
		if (ends_with(s, len, "_[j]"))
			return memchr(s, '/', len) ? "green" : "aqua";
		if (contains(s, len, "::"))
			return "yellow";
		if (js_source_path(s, len))
			return "green";
		if (memchr(s, ':', len))
			return "aqua";
		if (len == 1 && s[0] == ' ')
			return "green";
		if (contains(s, len, "_[k]"))
			return "orange";
		return "red";
	}
	if (strcmp(palette, "wakeup") == 0)
		return "aqua";
	if (strcmp(palette, "chain") == 0)
		return contains(s, len, "_[w]") ? "aqua" : "blue";
	if (strcmp(palette, "kind") == 0) {  /* record's graphs: by what ran there */
		switch (profile_frame_kind__of_name(s, len)) {
		case PROFILE_FRAME_KERNEL: return "orange";
		case PROFILE_FRAME_JIT: return "green";
		case PROFILE_FRAME_INTERPRETED: return "aqua";
		case PROFILE_FRAME_INLINED: return "purple";
		case PROFILE_FRAME_NATIVE:
		case PROFILE_FRAME_PROCESS: break;
		}
		return "red";
	}
	if (strcmp(palette, "hotcold") == 0)  /* record --all-time: off-CPU frames blue */
		return contains(s, len, "_[o]") ? "blue" : "hot";
	return palette;
}

bool svg_color__known_palette(const char *palette)
{
	static const char *const known[] = { "hot", "mem", "io", "java", "js", "perl", "wakeup",
					     "chain", "hotcold", "kind", "red", "green", "blue", "aqua", "yellow",
					     "purple", "orange" };
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(palette, known[i]) == 0)
			return true;
	return false;
}

void svg_color__frame(const char *palette, struct svg_color_source *source,
		      const char *name, size_t len, char out[SVG_COLOR_SIZE])
{
	double v1, v2, v3;
	if (source->variation == SVG_COLOR_HASH) {
		size_t n;
		uint32_t *chars = decode_name(name, len, &n);
		v1 = name_hash(chars, n);
		for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
			uint32_t t = chars[i];
			chars[i] = chars[j - 1];
			chars[j - 1] = t;
		}
		v2 = v3 = name_hash(chars, n);
		free(chars);
	} else if (source->variation == SVG_COLOR_RANDOM) {
		v1 = erand48(source->random_state);
		v2 = erand48(source->random_state);
		v3 = erand48(source->random_state);
	} else {
		v1 = v2 = v3 = perl_seeded_rand(code_point_sum(name, len));
	}

	int r, g, b;
	if (strcmp(palette, "hotcold") == 0 && strcmp(flat_palette(palette, name, len), "hot") == 0)
		palette = "hot";
	if (strcmp(palette, "hot") == 0) {
		r = 205 + (int)(50 * v3), g = (int)(230 * v1), b = (int)(55 * v2);
	} else if (strcmp(palette, "mem") == 0) {
		r = 0, g = 190 + (int)(50 * v2), b = (int)(210 * v1);
	} else if (strcmp(palette, "io") == 0) {
		r = g = 80 + (int)(60 * v1), b = 190 + (int)(55 * v2);
	} else {
		const char *flat = flat_palette(palette, name, len);
		if (strcmp(flat, "red") == 0)
			r = 200 + (int)(55 * v1), g = b = 50 + (int)(80 * v1);
		else if (strcmp(flat, "green") == 0)
			g = 200 + (int)(55 * v1), r = b = 50 + (int)(60 * v1);
		else if (strcmp(flat, "blue") == 0)
			b = 205 + (int)(50 * v1), r = g = 80 + (int)(60 * v1);
		else if (strcmp(flat, "yellow") == 0)
			r = g = 175 + (int)(55 * v1), b = 50 + (int)(20 * v1);
		else if (strcmp(flat, "purple") == 0)
			r = b = 190 + (int)(65 * v1), g = 80 + (int)(60 * v1);
		else if (strcmp(flat, "aqua") == 0)
			r = 50 + (int)(60 * v1), g = b = 165 + (int)(55 * v1);
		else if (strcmp(flat, "orange") == 0)
			r = 190 + (int)(65 * v1), g = 90 + (int)(65 * v1), b = 0;
		else
			r = g = b = 0;
	}
	snprintf(out, SVG_COLOR_SIZE, "rgb(%d,%d,%d)", r, g, b);
}

void svg_color__difference(double delta, double max_delta, bool negate, bool colorblind,
			   char out[SVG_COLOR_SIZE])
{
	int r = 255, g = 255, b = 255;
	if (negate)
		delta = -delta;
	if (colorblind) {
		/* orange (grew) and blue (shrank): told apart without red/green vision */
		if (delta > 0) {
			g = 255 - (int)(100 * delta / max_delta);
			b = (int)(255 * (max_delta - delta) / max_delta);
		} else if (delta < 0) {
			r = (int)(255 * (max_delta + delta) / max_delta);
			g = 255 - (int)(135 * -delta / max_delta);
		}
	} else if (delta > 0) {
		g = b = (int)(210 * (max_delta - delta) / max_delta);
	} else if (delta < 0) {
		r = g = (int)(210 * (max_delta + delta) / max_delta);
	}
	snprintf(out, SVG_COLOR_SIZE, "rgb(%d,%d,%d)", r, g, b);
}

bool svg_color__background(const char *bgcolors, const char *palette,
			   const char **start, const char **stop)
{
	if (!bgcolors || !*bgcolors) {
		if (strcmp(palette, "mem") == 0)
			bgcolors = "green";
		else if (strcmp(palette, "io") == 0 || strcmp(palette, "wakeup") == 0 ||
			 strcmp(palette, "chain") == 0)
			bgcolors = "blue";
		else if (strcmp(palette, "hot") != 0 && strcmp(palette, "java") != 0 &&
			 strcmp(palette, "js") != 0 && strcmp(palette, "perl") != 0 &&
			 strcmp(palette, "kind") != 0 &&
			 svg_color__known_palette(palette))
			bgcolors = "grey";
		else
			bgcolors = "yellow";
	}
	static const struct { const char *name, *start, *stop; } gradients[] = {
		{ "yellow", "#eeeeee", "#eeeeb0" },
		{ "blue", "#eeeeee", "#e0e0ff" },
		{ "green", "#eef2ee", "#e0ffe0" },
		{ "grey", "#f8f8f8", "#e8e8e8" },
	};
	for (size_t i = 0; i < sizeof(gradients) / sizeof(gradients[0]); i++)
		if (strcmp(bgcolors, gradients[i].name) == 0) {
			*start = gradients[i].start;
			*stop = gradients[i].stop;
			return true;
		}
	/* a flat colour: "#" and six characters, as the Perl tool checks it */
	if (bgcolors[0] == '#' && strlen(bgcolors) == 7 && !strchr(bgcolors, '\n')) {
		*start = *stop = bgcolors;
		return true;
	}
	return false;
}

/* --- palette map ---------------------------------------------------------- */

struct palette_entry {
	char *name;
	size_t len;
	char *color;
};

struct palette_map {
	struct palette_entry *entries;  /* sorted by name after read; new ones appended */
	size_t count, cap;
	size_t sorted;                  /* entries[0..sorted) are sorted */
};

static int compare_names(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}

static int compare_entries(const void *a, const void *b)
{
	const struct palette_entry *x = a, *y = b;
	return compare_names(x->name, x->len, y->name, y->len);
}

static struct palette_entry *find_entry(struct palette_map *m, const char *name, size_t len)
{
	size_t lo = 0, hi = m->sorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = compare_names(m->entries[mid].name, m->entries[mid].len, name, len);
		if (c == 0)
			return &m->entries[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = m->sorted; i < m->count; i++)
		if (m->entries[i].len == len && memcmp(m->entries[i].name, name, len) == 0)
			return &m->entries[i];
	return NULL;
}

/* Sets name's colour (a later line for the same name wins, as in Perl). */
static void put_entry(struct palette_map *m, const char *name, size_t len, const char *color)
{
	struct palette_entry *e = find_entry(m, name, len);
	if (e) {
		free(e->color);
		e->color = fk_strdup(color);
		return;
	}
	m->entries = fk_grow(m->entries, &m->cap, m->count + 1, sizeof(*m->entries));
	e = &m->entries[m->count++];
	e->name = fk_malloc(len + 1);
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->len = len;
	e->color = fk_strdup(color);
}

static void sort_entries(struct palette_map *m)
{
	qsort(m->entries, m->count, sizeof(*m->entries), compare_entries);
	m->sorted = m->count;
}

struct palette_map *palette_map__read(const char *path)
{
	struct palette_map *m = fk_calloc(1, sizeof(*m));
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return m;
		error("cannot read palette map %s: %s", path, strerror(errno));
		free(m);
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)n;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		/* "name->colour"; like Perl's split("->"), a third field is dropped */
		char *arrow = memmem(line, len, "->", 2);
		if (!arrow) {
			put_entry(m, line, len, "");
			continue;
		}
		char *color = arrow + 2;
		char *more = strstr(color, "->");
		if (more)
			*more = '\0';
		put_entry(m, line, (size_t)(arrow - line), color);
		if (m->count % 1024 == 0)
			sort_entries(m);
	}
	bool failed = ferror(f);
	free(line);
	fclose(f);
	if (failed) {
		error("cannot read palette map %s", path);
		palette_map__free(m);
		return NULL;
	}
	sort_entries(m);
	return m;
}

const char *palette_map__color(struct palette_map *m, const char *palette,
			       struct svg_color_source *source, const char *name, size_t len)
{
	struct palette_entry *e = find_entry(m, name, len);
	if (e)
		return e->color;
	char color[SVG_COLOR_SIZE];
	svg_color__frame(palette, source, name, len, color);
	put_entry(m, name, len, color);
	/* keep lookups logarithmic: sort again once the unsorted tail grows */
	if (m->count - m->sorted > 64)
		sort_entries(m);
	e = find_entry(m, name, len);
	return e->color;
}

int palette_map__write(struct palette_map *m, const char *path)
{
	sort_entries(m);
	struct output *out;
	if (output__open(&out, path) < 0)
		return -1;
	FILE *f = output__stream(out);
	for (size_t i = 0; i < m->count; i++) {
		fwrite(m->entries[i].name, 1, m->entries[i].len, f);
		fprintf(f, "->%s\n", m->entries[i].color);
	}
	return output__commit(out);
}

void palette_map__free(struct palette_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++) {
		free(m->entries[i].name);
		free(m->entries[i].color);
	}
	free(m->entries);
	free(m);
}
