/*
 * libFuzzer target: the SVG writer, with arbitrary bytes wherever a user's
 * text reaches the SVG, and every output checked by libxml2.
 *
 * Input: FLAG_BYTES bytes of options (below), then parts cut at NUL bytes,
 * in this order (a missing part keeps the default):
 *
 *	stacks      folded lines "frame;frame;... [BEFORE] COUNT" (a line
 *	            without a count counts 1), so names hold any byte but
 *	            NUL, '\n' and ';' (which no reader puts in a name)
 *	title, subtitle, notes, countname, nametype, fonttype
 *	nameattr    the content of a --nameattr file
 *	palette     the content of a --cp palette.map
 *	bgcolor     6 bytes for a flat --bgcolors "#......" (any bytes but
 *	            '\n' pass flamegraph.pl's check)
 *
 * The output must be well-formed, namespace-well-formed XML whose elements
 * are exactly the ones the writer draws, in its order (checked below), one
 * frame group per frame drawn; the title, subtitle and notes must come back
 * as the bytes given, with what XML cannot hold as U+FFFD. A violation
 * prints what was wrong and aborts, which libFuzzer reports as a crash.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../../src/lib/buf.h"
#include "../../src/writers/svg.h"
#include "../../src/writers/svg_name_attributes.h"

#define FLAG_BYTES 6
#define MAX_DEPTH 512
#define SVG_NS "http://www.w3.org/2000/svg"

enum part { STACKS, TITLE, SUBTITLE, NOTES, COUNTNAME, NAMETYPE, FONTTYPE, NAMEATTR, PALETTE, BGCOLOR,
	    PARTS };

static const char *const palettes[16] = {
	"hot", "mem", "io", "java", "js", "perl", "wakeup", "chain",
	"red", "green", "blue", "aqua", "yellow", "purple", "orange", "diff-cb",
};

static const char *svg_text;  /* the SVG of the current input, for messages */

static void violation(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("svg fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (svg_text && getenv("FUZZ_SVG_PRINT"))
		fprintf(stderr, "--- the SVG ---\n%s\n---\n", svg_text);
	abort();
}

static void ignore_error(void *context, const char *fmt, ...)
{
	(void)context, (void)fmt;
}

/* The parser's first error, for the message: later ones follow from it. */
static char first_error[256];

static void keep_first_error(void *context, xmlErrorPtr error)
{
	(void)context;
	if (!first_error[0] && error->level >= XML_ERR_ERROR)
		snprintf(first_error, sizeof(first_error), "line %d: %s", error->line,
			 error->message ? error->message : "?");
}

/* --- what the writer should make of a string --------------------------------- */

/* A strict UTF-8 decoder (no surrogates, no overlong forms): the bytes of
 * the character at s, or 0 when s[0] starts no valid sequence. */
static size_t utf8_char(const unsigned char *s, size_t len, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xC0 && s[0] < 0xE0 ? 2 : s[0] >= 0xE0 && s[0] < 0xF0 ? 3
		 : s[0] >= 0xF0 && s[0] < 0xF8 ? 4 : 0;
	if (n == 0 || n > len)
		return 0;
	uint32_t c = n == 1 ? s[0] : s[0] & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

/* Which control characters a context keeps. */
enum keep { KEEP_TAB, KEEP_LINES, KEEP_CONTROLS };

/* The text as XML should hold it: printable characters as they are, U+FFFD
 * for each control character (but tab, and line breaks in a comment, all in
 * a JSON string, which escapes them), non-character U+FFFE/U+FFFF and byte
 * that starts no valid UTF-8 sequence. */
static void expected_text(struct buf *out, const char *text, enum keep keep)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text);
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = utf8_char(s + i, len - i, &cp);
		bool control = cp < 0x20 && cp != '\t' && (cp != '\n' || keep == KEEP_TAB) &&
			       keep != KEEP_CONTROLS;
		if (n == 0 || control || cp == 0xFFFE || cp == 0xFFFF) {
			buf__append(out, "\xEF\xBF\xBD", 3);
			i += n ? n : 1;
		} else {
			buf__append(out, s + i, n);
			i += n;
		}
	}
}

/* A comment's text: as above, and a space after a '-' before another or at
 * the end ("--" may not appear in a comment, nor may it end in '-'). */
static void expected_comment(struct buf *out, const char *text)
{
	struct buf plain = BUF_INIT;
	expected_text(&plain, text, KEEP_LINES);
	for (size_t i = 0; i < plain.len; i++) {
		buf__append_char(out, plain.data[i]);
		if (plain.data[i] == '-' && (i + 1 == plain.len || plain.data[i + 1] == '-'))
			buf__append_char(out, ' ');
	}
	buf__free(&plain);
}

/* Decodes the JSON string at *s (after its opening quote) into out; moves
 * *s past its closing quote. */
static void decode_json_string(const char **s, struct buf *out)
{
	const char *p = *s;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			violation("a raw control character in a JSON string");
		if (*p != '\\') {
			buf__append_char(out, *p);
			continue;
		}
		p++;
		const char *simple = strchr("\"\\/bfnrt", *p);
		if (*p && simple) {
			buf__append_char(out, "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"]);
			continue;
		}
		unsigned cp;
		if (*p != 'u' || sscanf(p + 1, "%4x", &cp) != 1 || strspn(p + 1, "0123456789abcdefABCDEF") < 4 ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			violation("a bad escape in a JSON string: \\%.5s", p);
		char utf8[3];
		size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
		if (n == 1)
			utf8[0] = (char)cp;
		else if (n == 2)
			utf8[0] = (char)(0xC0 | cp >> 6), utf8[1] = (char)(0x80 | (cp & 0x3F));
		else
			utf8[0] = (char)(0xE0 | cp >> 12), utf8[1] = (char)(0x80 | (cp >> 6 & 0x3F)),
			utf8[2] = (char)(0x80 | (cp & 0x3F));
		buf__append(out, utf8, n);
		p += 4;
	}
	*s = p + 1;
}

/* The script's configuration starts {"nametype":"...","countname":"...",
 * with the strings as given (control characters escaped); without a count
 * name, the writer names the profile's unit. */
static void check_config(const char *script, const struct svg_options *o,
			 const struct profile *profile)
{
	static const char *const keys[2] = { "{\"nametype\":\"", ",\"countname\":\"" };
	const char *given[2] = { o->name_type,
				 o->count_name ? o->count_name
					       : profile_unit__name(profile__unit(profile)) };
	const char *p = strstr(script, "var flamekit_config = ");
	if (!p)
		violation("no flamekit_config in the script");
	p += strlen("var flamekit_config = ");
	for (int i = 0; i < 2; i++) {
		if (strncmp(p, keys[i], strlen(keys[i])) != 0)
			violation("flamekit_config: no %s at \"%.20s\"", keys[i], p);
		p += strlen(keys[i]);
		struct buf got = BUF_INIT, want = BUF_INIT;
		decode_json_string(&p, &got);
		expected_text(&want, given[i], KEEP_CONTROLS);
		if (got.len != want.len || (got.len && memcmp(got.data, want.data, got.len) != 0))
			violation("flamekit_config's %s is \"%s\", expected \"%s\"", keys[i], got.data,
				  want.data);
		buf__free(&got);
		buf__free(&want);
	}
}

/* --- the check ----------------------------------------------------------------- */

static bool is_element(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The next child that is not white space between elements. */
static const xmlNode *skip_space(const xmlNode *n)
{
	while (n && n->type == XML_TEXT_NODE && strspn((const char *)n->content, " \t\n") ==
						      strlen((const char *)n->content))
		n = n->next;
	return n;
}

static const char *attr(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0 && a->children &&
		    a->children->type == XML_TEXT_NODE)
			return (const char *)a->children->content;
	return NULL;
}

/* Every element in the SVG namespace, with no namespace declared below the root. */
static void check_namespaces(const xmlNode *n, bool root)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!n->ns || strcmp((const char *)n->ns->href, SVG_NS) != 0)
			violation("<%s> outside the SVG namespace", n->name);
		if (n->nsDef && !root)
			violation("<%s> declares a namespace", n->name);
		check_namespaces(n->children, false);
	}
}

/* An element holding nothing but character data (no child element, no
 * comment, no CDATA); returns the text, "" when empty. */
static const char *only_text(const xmlNode *n, const char *what)
{
	const xmlNode *c = n->children;
	if (!c)
		return "";
	if (c->type != XML_TEXT_NODE || c->next)
		violation("%s holds more than text (a node of type %d)", what, (int)c->type);
	return (const char *)c->content;
}

static void expect_text(const xmlNode *n, const char *id, const char *given)
{
	if (!is_element(n, "text") || !attr(n, "id") || strcmp(attr(n, "id"), id) != 0)
		violation("expected <text id=\"%s\">, got <%s>", id, n ? (const char *)n->name : "nothing");
	if (!given)
		return;
	struct buf want = BUF_INIT;
	expected_text(&want, given, KEEP_TAB);
	const char *got = only_text(n, id);
	if (strcmp(got, want.data ? want.data : "") != 0)
		violation("#%s is \"%s\", expected \"%s\"", id, got, want.data ? want.data : "");
	buf__free(&want);
}

/* One frame: <g> or <a>, then <title>, <rect> and maybe a <text> label. */
static void check_frame(const xmlNode *n)
{
	if (!is_element(n, "g") && !is_element(n, "a"))
		violation("<%s> among the frames", n->type == XML_ELEMENT_NODE ? (const char *)n->name : "(not an element)");
	const xmlNode *c = n->children;
	if (!is_element(c, "title"))
		violation("a frame starts with %s, not <title>", c ? (const char *)c->name : "nothing");
	only_text(c, "a frame's <title>");
	c = c->next;
	if (!is_element(c, "rect") || c->children)
		violation("a frame's <title> is not followed by an empty <rect>");
	c = c->next;
	if (c) {
		if (!is_element(c, "text"))
			violation("<%s> in a frame", c->name);
		only_text(c, "a frame's label");
		if (c->next)
			violation("a frame holds more than <title>, <rect> and <text>");
	}
}

static void check_svg(const char *svg, size_t len, const struct svg_options *o,
		      const struct profile *profile, int status, const struct svg_result *result)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	first_error[0] = '\0';
	xmlDocPtr doc = xmlCtxtReadMemory(ctxt, svg, (int)len, "fuzz.svg", NULL, XML_PARSE_NONET);
	if (!doc || !ctxt->wellFormed || !ctxt->nsWellFormed)
		violation("not well-formed XML: %s", first_error);
	const xmlNode *root = xmlDocGetRootElement(doc);
	if (!is_element(root, "svg"))
		violation("the root is not <svg>");
	check_namespaces(root, true);
	for (const xmlNode *n = doc->children; n; n = n->next)
		if (n->type != XML_ELEMENT_NODE && n->type != XML_DTD_NODE)
			violation("a node of type %d beside <svg>", (int)n->type);

	/* two comments, the second the notes */
	const xmlNode *c = root->children;
	const xmlNode *comment[2];
	for (int i = 0; i < 2; i++) {
		c = skip_space(c);
		if (!c || c->type != XML_COMMENT_NODE)
			violation("comment %d missing", i + 1);
		comment[i] = c;
		c = c->next;
	}
	struct buf want = BUF_INIT;
	buf__append(&want, " NOTES: ", 8);
	expected_comment(&want, o->notes ? o->notes : "");
	buf__append(&want, " ", 1);
	if (strcmp((const char *)comment[1]->content, want.data) != 0)
		violation("the notes are \"%s\", expected \"%s\"", comment[1]->content, want.data);
	buf__free(&want);

	c = skip_space(c);
	if (status == 1) {
		/* the empty graph: one message */
		if (!is_element(c, "text"))
			violation("the empty graph has no <text>");
		only_text(c, "the message");
		if (skip_space(c->next))
			violation("the empty graph has more than its message");
		goto done;
	}
	if (!is_element(c, "defs"))
		violation("no <defs>");
	const xmlNode *d = skip_space(c->children);
	if (!is_element(d, "linearGradient") || skip_space(d->next))
		violation("<defs> holds more than the <linearGradient>");
	const xmlNode *stop = skip_space(d->children);
	for (int i = 0; i < 2; i++, stop = skip_space(stop->next))
		if (!is_element(stop, "stop") || stop->children)
			violation("the gradient's stop %d", i + 1);
	if (stop)
		violation("more than two stops");
	c = skip_space(c->next);
	if (!is_element(c, "style"))
		violation("no <style>");
	only_text(c, "<style>");
	c = skip_space(c->next);
	if (!is_element(c, "script"))
		violation("no <script>");
	if (!c->children || c->children->type != XML_CDATA_SECTION_NODE || skip_space(c->children->next))
		violation("the <script> is not one CDATA section");
	check_config((const char *)c->children->content, o, profile);
	c = skip_space(c->next);
	if (!is_element(c, "rect") || c->children)
		violation("no background <rect>");
	c = skip_space(c->next);
	expect_text(c, "title", o->title);
	if (o->subtitle && *o->subtitle) {
		c = skip_space(c->next);
		expect_text(c, "subtitle", o->subtitle);
	}
	static const char *const texts[] = { "details", "unzoom", "search", "ignorecase", "matched" };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		c = skip_space(c->next);
		expect_text(c, texts[i], NULL);
	}
	c = skip_space(c->next);
	if (!is_element(c, "g") || !attr(c, "id") || strcmp(attr(c, "id"), "frames") != 0)
		violation("no <g id=\"frames\">");
	uint64_t frames = 0;
	for (const xmlNode *f = skip_space(c->children); f; f = skip_space(f->next), frames++)
		check_frame(f);
	if (frames != result->frames)
		violation("%llu frame groups for %llu frames drawn", (unsigned long long)frames,
			  (unsigned long long)result->frames);
	if (skip_space(c->next))
		violation("something after the frames");
done:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
}

/* --- the input ------------------------------------------------------------------- */

/* A file holding data[0..len), named by path (the readers take paths). */
static const char *file_with(int *fd, const char *data, size_t len, char path[static 32])
{
	if (*fd < 0 && (*fd = memfd_create("svg-fuzz", 0)) < 0) {
		perror("memfd_create");
		abort();
	}
	if (ftruncate(*fd, 0) < 0 || pwrite(*fd, data, len, 0) != (ssize_t)len) {
		perror("memfd");
		abort();
	}
	snprintf(path, 32, "/proc/self/fd/%d", *fd);
	return path;
}

/* Cuts the trailing " NUMBER" off line[0..*len); false when there is none. */
static bool cut_count(const char *line, size_t *len, double *value)
{
	size_t i = *len;
	while (i > 0 && ((line[i - 1] >= '0' && line[i - 1] <= '9') || line[i - 1] == '.'))
		i--;
	if (i == *len || i == 0 || line[i - 1] != ' ' || *len - i > 24)
		return false;
	char text[32];
	memcpy(text, line + i, *len - i);
	text[*len - i] = '\0';
	*value = strtod(text, NULL);
	if (*value > 1e18)
		*value = 1e18;  /* a uint64_t holds it */
	*len = i - 1;
	return true;
}

static void add_stacks(struct profile *p, const char *text, size_t len)
{
	frame_id frames[MAX_DEPTH];
	bool integer = profile__value_type(p) == PROFILE_INTEGER;
	unsigned columns = profile__columns(p);
	for (const char *line = text, *end = text + len; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		double after = 1, before;
		if (cut_count(line, &n, &after)) {
			if (columns == 1 || !cut_count(line, &n, &before))
				before = after;
		} else {
			before = after;
		}
		uint32_t depth = 0;
		for (size_t i = 0; n > 0 && i <= n && depth < MAX_DEPTH;) {
			const char *semi = memchr(line + i, ';', n - i);
			size_t k = semi ? (size_t)(semi - line) : n;
			frames[depth++] = profile__intern(p, line + i, k - i);
			i = k + 1;
		}
		union profile_value v[2];
		if (integer) {
			v[0].integer = (uint64_t)before;
			v[1].integer = (uint64_t)after;
		} else {
			v[0].decimal = before;
			v[1].decimal = after;
		}
		if (columns == 1)
			v[0] = v[1];
		profile__add(p, frames, depth, NULL, v);
		line = nl ? nl + 1 : end;
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int nameattr_fd = -1, palette_fd = -1;
	static bool quiet;
	if (!quiet) {
		/* only violation() speaks */
		xmlSetGenericErrorFunc(NULL, ignore_error);
		xmlSetStructuredErrorFunc(NULL, keep_first_error);
		quiet = true;
	}
	unsigned char flag[FLAG_BYTES] = { 0 };
	size_t skip = size < FLAG_BYTES ? size : FLAG_BYTES;
	memcpy(flag, data, skip);

	/* the parts, as NUL-terminated copies */
	char *copy = malloc(size - skip + 1);
	memcpy(copy, data + skip, size - skip);
	copy[size - skip] = '\0';
	const char *part[PARTS] = { 0 };
	size_t part_len[PARTS] = { 0 };
	char *s = copy, *end = copy + (size - skip);
	for (int i = 0; i < PARTS && s <= end; i++) {
		part[i] = s;
		part_len[i] = strlen(s);
		s += part_len[i] + 1;
	}

	struct svg_options o;
	svg_options__init(&o);
	o.colors = palettes[flag[0] & 15];
	o.color_source.variation = (flag[0] >> 4 & 3) == 1 ? SVG_COLOR_HASH
				 : (flag[0] >> 4 & 3) == 2 ? SVG_COLOR_RANDOM : SVG_COLOR_SEEDED;
	o.color_source.random_state[0] = flag[2];
	o.inverted = flag[0] & 64;
	o.flamechart = flag[0] & 128;
	bool two_columns = flag[1] & 1;
	o.negate = flag[1] & 2;
	bool decimal = flag[1] & 4;
	o.minwidth_percent = flag[1] & 8;
	static const char *const bgcolors[4] = { NULL, "blue", "grey", "#a0b1c2" };
	o.bgcolors = bgcolors[flag[1] >> 6];
	char flat[8] = "#";
	if (part[BGCOLOR] && (flag[1] >> 6) == 3) {
		snprintf(flat + 1, sizeof(flat) - 1, "%-6.6s", part[BGCOLOR]);
		for (char *c = flat; *c; c++)
			if (*c == '\n')
				*c = ' ';
		o.bgcolors = flat;
	}
	o.width = 21 + flag[2] * 8u;
	o.frame_height = 1 + (flag[3] & 31);
	o.font_size = 1 + (flag[3] >> 5) * 4;
	o.minwidth = (flag[4] & 15) * 0.25;
	o.font_width = 0.3 + (flag[4] >> 4) * 0.1;
	static const double factors[4] = { 1, -1, 0.5, 1e9 };
	static const double totals[4] = { 0, 1, 3.5, 1e9 };
	o.factor = factors[flag[5] & 3];
	o.total = totals[flag[5] >> 2 & 3];
	o.title = part[TITLE];
	o.subtitle = part[SUBTITLE];
	o.notes = part[NOTES];
	if (part[COUNTNAME])
		o.count_name = part[COUNTNAME];
	if (part[NAMETYPE])
		o.name_type = part[NAMETYPE];
	if (part[FONTTYPE])
		o.font_type = part[FONTTYPE];

	struct svg_name_attributes *attributes = NULL;
	char path[32];
	if (part[NAMEATTR] && (flag[1] & 32)) {
		attributes = svg_name_attributes__read(
			file_with(&nameattr_fd, part[NAMEATTR], part_len[NAMEATTR], path));
		o.name_attributes = attributes;
	}
	if (part[PALETTE] && (flag[1] & 16)) {
		o.palette_map = palette_map__read(
			file_with(&palette_fd, part[PALETTE], part_len[PALETTE], path));
		if (!o.palette_map)
			abort();  /* a missing or unreadable file only */
	}

	struct profile *p = profile__new(two_columns ? 2 : 1, decimal ? PROFILE_DECIMAL : PROFILE_INTEGER);
	o.differential = two_columns && (flag[5] & 16);
	if (o.flamechart)
		profile__set_order(p, PROFILE_KEEP_RUNS);
	add_stacks(p, part[STACKS] ? part[STACKS] : "", part_len[STACKS]);

	char *svg = NULL;
	size_t svg_len = 0;
	FILE *out = open_memstream(&svg, &svg_len);
	struct svg_result result;
	int status = svg_writer__write_graph(p, out, &o, &result);
	if (fclose(out) != 0)
		abort();
	svg_text = svg;
	if (status < 0)
		violation("the writer refused options that flamegraph accepts");
	check_svg(svg, svg_len, &o, p, status, &result);
	svg_text = NULL;

	free(svg);
	profile__free(p);
	palette_map__free(o.palette_map);
	svg_name_attributes__free(attributes);
	free(copy);
	return 0;
}
