#include "svg.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/perl_number.h"
#include "../lib/utf8.h"
#include "../lib/xalloc.h"
#include "flame_layout.h"
#include "svg_name_attributes.h"
#include "svg_assets.h"  /* generated: svg_script_js[], svg_style_css[] */

#define XPAD 10          /* left and right padding, px */
#define FRAME_PAD 1      /* vertical gap between frames, px */
#define FLUSH_BYTES (256u << 10)  /* the SVG is built in memory this much at a time */

void svg_options__init(struct svg_options *o)
{
	*o = (struct svg_options){
		.width = 1200,
		.frame_height = 16,
		.minwidth = 0.1,
		.font_type = "Verdana",
		.font_size = 12,
		.font_width = 0.59,
		.name_type = "Function:",
		.colors = "hot",
		.factor = 1,
		.error_text = "ERROR: No valid input provided to flamegraph.pl.",
	};
}

/* --- numbers as Perl prints them (lib/perl_number.h) ------------------------ */

static void put_fixed(struct buf *out, double x, int decimals)
{
	char text[PERL_NUMBER_SIZE];
	buf__append(out, text, perl_number__fixed(text, x, decimals, NULL));
}

static void put_number(struct buf *out, double x)
{
	char text[PERL_NUMBER_SIZE];
	buf__append(out, text, perl_number__string(text, x));
}

/* Digits ("%.0f" of a count) with commas every three. */
static void format_count(char *out, size_t size, const char *digits)
{
	const char *d = digits;
	size_t n = 0;
	if (*d == '-' || *d == '+')
		out[n++] = *d++;
	size_t len = strlen(d);
	for (size_t i = 0; i < len && n + 2 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			out[n++] = ',';
		out[n++] = d[i];
	}
	out[n] = '\0';
}

/* --- escaping ----------------------------------------------------------------- */

static inline void buf__append_string(struct buf *b, const char *s)
{
	buf__append(b, s, strlen(s));
}

/*
 * Whether XML can hold the character at s[0..len) (len > 0), whose bytes
 * go to *n: not a control character but tab, not U+FFFE or U+FFFF, not a
 * surrogate, and valid UTF-8 (a byte that starts no sequence is one
 * character that XML cannot hold).
 */
static inline bool xml_char(const char *s, size_t len, size_t *n)
{
	uint32_t cp;
	*n = utf8__decode(s, len, &cp);
	if (cp >= 0xD800 && cp <= 0xDFFF) {
		/* utf8__decode takes them, as Perl does; UTF-8 has none */
		*n = 1;
		return false;
	}
	if (*n == 1 && cp >= 0x80)
		return false;
	return (cp >= 0x20 || cp == '\t') && cp != 0xFFFE && cp != 0xFFFF;
}

/* Where text goes: what must be escaped differs. */
enum xml_context {
	XML_TEXT,       /* & < > as references */
	XML_ATTRIBUTE,  /* a "-quoted value: " too */
	XML_COMMENT,    /* nothing, but "--" may not appear nor a '-' end it;
			   line breaks kept */
};

/* An ASCII character that goes out as it is. */
static inline bool plain_ascii(unsigned char c, enum xml_context context)
{
	if (c < 0x20 || c >= 0x80)
		return false;
	if (context == XML_COMMENT)
		return c != '-';
	return c != '&' && c != '<' && c != '>' && (c != '"' || context != XML_ATTRIBUTE);
}

/*
 * Writes s[0..len) for the context, and what XML cannot hold at all
 * (control characters, bytes that are not UTF-8, see xml_char) as U+FFFD,
 * so that no name can end an element, open one, or make the file unreadable.
 */
static void put_xml(struct buf *out, const char *s, size_t len, enum xml_context context)
{
	size_t plain = 0;
	for (size_t i = 0; i < len;) {
		/* the common case first: a run of printable ASCII that needs nothing */
		while (i < len && plain_ascii((unsigned char)s[i], context))
			i++;
		if (i == len)
			break;
		unsigned char c = (unsigned char)s[i];
		const char *replacement = NULL;
		size_t n = 1;
		if (c == '&') {
			replacement = "&amp;";
		} else if (c == '<') {
			replacement = "&lt;";
		} else if (c == '>') {
			replacement = "&gt;";
		} else if (c == '"') {
			replacement = "&quot;";
		} else if (c == '-') {
			if (i + 1 == len || s[i + 1] == '-')
				replacement = "- ";
		} else if (c == '\n' && context == XML_COMMENT) {
			/* kept */
		} else if (!xml_char(s + i, len - i, &n)) {
			replacement = "\xEF\xBF\xBD";
		}
		if (replacement) {
			buf__append(out, s + plain, i - plain);
			buf__append_string(out, replacement);
			plain = i + n;
		}
		i += n;
	}
	buf__append(out, s + plain, len - plain);
}

/* Character data. */
static void put_escaped(struct buf *out, const char *s, size_t len)
{
	put_xml(out, s, len, XML_TEXT);
}

static void put_escaped_string(struct buf *out, const char *s)
{
	put_xml(out, s, strlen(s), XML_TEXT);
}

/* An attribute value, for between double quotes. */
static void put_attribute(struct buf *out, const char *s)
{
	put_xml(out, s, strlen(s), XML_ATTRIBUTE);
}

/* A JSON string, safe inside CDATA ("]]>" cannot appear: '>' is escaped),
 * what XML cannot hold as U+FFFD (see xml_char). */
static void put_json_string(struct buf *out, const char *s)
{
	buf__append_char(out, '"');
	for (size_t len = strlen(s), n; len > 0; s += n, len -= n) {
		unsigned char c = (unsigned char)*s;
		n = 1;
		if (c == '"' || c == '\\')
			buf__printf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			buf__printf(out, "\\u%04x", c);
		else if (c < 0x80)
			buf__append_char(out, (char)c);
		else if (xml_char(s, len, &n))
			buf__append(out, s, n);
		else
			buf__append_string(out, "\\ufffd");
	}
	buf__append_char(out, '"');
}

/* --- drawing ---------------------------------------------------------------------- */

struct geometry {
	double ypad1, ypad2, ypad3;
	double image_height;
	double time_max;
	double width_per_time;
	double min_time;
	uint32_t depth_max;
};

/* Names end in an annotation flamegraph.pl hides: _[k] _[w] _[i] _[j]. */
static size_t without_annotation(const char *name, size_t len)
{
	if (len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' && name[len - 1] == ']' &&
	    strchr("kwij", name[len - 2]) && name[len - 2])
		return len - 4;
	return len;
}

static void put_header(struct buf *out, const struct svg_options *o, double height)
{
	buf__append_string(out, "<?xml version=\"1.0\"");
	if (o->encoding) {
		buf__append_string(out, " encoding=\"");
		put_attribute(out, o->encoding);
		buf__append_char(out, '"');
	}
	buf__printf(out, " standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"", o->width);
	put_number(out, height);
	buf__printf(out, "\" onload=\"init(evt)\" viewBox=\"0 0 %u ", o->width);
	put_number(out, height);
	buf__append_string(out, "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	      "<!-- Flame graph stack visualization, made by flamekit. -->\n<!-- NOTES: ");
	if (o->notes)
		put_xml(out, o->notes, strlen(o->notes), XML_COMMENT);
	buf__append_string(out, " -->\n");
}

/* <text id="ID" x="X" y="Y">TEXT</text>, x with two decimals as in Perl. */
static void put_text(struct buf *out, const char *id, double x, double y, const char *text,
		     const char *extra)
{
	buf__append_string(out, "<text");
	if (id)
		buf__printf(out, " id=\"%s\"", id);
	buf__printf(out, " x=\"%.2f\" y=\"", x);
	put_number(out, y);
	buf__append_char(out, '"');
	if (extra)
		buf__printf(out, " %s", extra);
	buf__append_char(out, '>');
	put_escaped_string(out, text);
	buf__append_string(out, "</text>\n");
}

static void write_error_svg(struct buf *out, const struct svg_options *o)
{
	put_header(out, o, o->font_size * 5);
	put_text(out, NULL, (double)(o->width / 2), o->font_size * 2, o->error_text, NULL);
	buf__append_string(out, "</svg>\n");
}

static void put_preamble(struct buf *out, const struct svg_options *o, const struct geometry *g,
			 const char *bg_start, const char *bg_stop)
{
	buf__printf(out, "<defs>\n\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\" >\n"
		"\t\t<stop stop-color=\"");
	put_attribute(out, bg_start);
	buf__append_string(out, "\" offset=\"5%\" />\n\t\t<stop stop-color=\"");
	put_attribute(out, bg_stop);
	buf__append_string(out, "\" offset=\"95%\" />\n\t</linearGradient>\n</defs>\n"
	      "<style type=\"text/css\">\n\ttext { font-family:");
	put_escaped_string(out, o->font_type);
	buf__append_string(out, "; font-size:");
	put_number(out, o->font_size);
	buf__append_string(out, "px; fill:rgb(0,0,0); }\n\t#title { text-anchor:middle; font-size:");
	put_number(out, o->font_size + 5);
	buf__append_string(out, "px; }\n\t#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n");
	buf__append_string(out, svg_style_css);
	buf__append_string(out, "</style>\n<script type=\"text/ecmascript\"><![CDATA[\nvar flamekit_config = {\"nametype\":");
	put_json_string(out, o->name_type);
	buf__append_string(out, ",\"countname\":");
	put_json_string(out, o->count_name);
	buf__append_string(out, ",\"fontsize\":");
	put_number(out, o->font_size);
	buf__append_string(out, ",\"fontwidth\":");
	put_number(out, o->font_width);
	buf__printf(out, ",\"xpad\":%d,\"frameheight\":%u,\"inverted\":%s,\"width\":%u,"
		"\"searchcolor\":\"rgb(230,0,230)\"};\n",
		XPAD, o->frame_height, o->inverted ? "true" : "false", o->width);
	buf__append_string(out, svg_script_js);
	buf__append_string(out, "]]></script>\n");

	buf__printf(out, "<rect x=\"0.0\" y=\"0\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#background)\"/>\n",
		(double)o->width, g->image_height);
	const char *title = o->title;
	if (!title)
		title = o->flamechart ? "Flame Chart" : o->inverted ? "Icicle Graph" : "Flame Graph";
	double middle = (double)(o->width / 2);
	put_text(out, "title", middle, o->font_size * 2, title, NULL);
	if (o->subtitle && *o->subtitle)
		put_text(out, "subtitle", middle, o->font_size * 4, o->subtitle, NULL);
	double bottom_line = g->image_height - g->ypad2 / 2;
	put_text(out, "details", XPAD, bottom_line, " ", NULL);
	put_text(out, "unzoom", XPAD, o->font_size * 2, "Reset Zoom", "class=\"hide\"");
	put_text(out, "search", o->width - XPAD - 100.0, o->font_size * 2, "Search", NULL);
	put_text(out, "ignorecase", o->width - XPAD - 16.0, o->font_size * 2, "ic", NULL);
	put_text(out, "matched", o->width - XPAD - 100.0, bottom_line, " ", NULL);
}

/* name="value": a space, then name (a checked name) and value escaped. */
static void put_named_attribute(struct buf *out, const char *name, const char *value)
{
	buf__printf(out, " %s=\"", name);
	put_attribute(out, value);
	buf__append_char(out, '"');
}

/* The start of a frame's group: <g>, or what --nameattr asks for. */
static void put_group_start(struct buf *out, const struct svg_frame_attributes *na, const char *href)
{
	const char *id = svg_frame_attributes__get(na, "id");
	const char *class = svg_frame_attributes__get(na, "class");
	if (href) {
		const char *target = svg_frame_attributes__get(na, "target");
		buf__append_string(out, "<a");
		put_named_attribute(out, "xlink:href", href);
		put_named_attribute(out, "target", target && *target ? target : "_top");
		for (size_t i = 0; i < na->a_extra_count; i++)
			put_named_attribute(out, na->a_extra[i].key, na->a_extra[i].value);
	} else {
		buf__append_string(out, "<g");
	}
	if (id)
		put_named_attribute(out, "id", id);
	if (class)
		put_named_attribute(out, "class", class);
	for (size_t i = 0; na && i < na->g_extra_count; i++)
		put_named_attribute(out, na->g_extra[i].key, na->g_extra[i].value);
	buf__append_char(out, '>');
}

struct frame_colors {
	char (*colors)[SVG_COLOR_SIZE];  /* per frame id, "" until computed */
	char root[SVG_COLOR_SIZE];
};

static const char *frame_color(const struct profile *p, const struct svg_options *o,
			       struct svg_color_source *source, struct frame_colors *cache,
			       const struct flame_frame *f, double max_delta)
{
	static const char dark_grey[] = "rgb(160,160,160)", grey[] = "rgb(200,200,200)";
	size_t len = 0;
	const char *name = f->frame == FLAME_LAYOUT_ROOT ? "" : profile__frame_name(p, f->frame, &len);
	if (len == 2 && memcmp(name, "--", 2) == 0)
		return dark_grey;
	if (len == 1 && name[0] == '-')
		return grey;
	if (o->differential) {
		svg_color__difference(f->delta, max_delta, o->negate,
				      strcmp(o->colors, "diff-cb") == 0, cache->root);
		return cache->root;
	}
	if (o->palette_map)
		return palette_map__color(o->palette_map, o->colors, source, name, len);
	if (source->variation == SVG_COLOR_RANDOM) {
		svg_color__frame(o->colors, source, name, len, cache->root);
		return cache->root;
	}
	char *slot = f->frame == FLAME_LAYOUT_ROOT ? cache->root : cache->colors[f->frame];
	if (!slot[0] || f->frame == FLAME_LAYOUT_ROOT)
		svg_color__frame(o->colors, source, name, len, slot);
	return slot;
}

static void draw_frames(struct buf *out, FILE *stream, const struct svg_options *o,
			const struct flame_layout *l, const struct geometry *g, struct svg_result *result)
{
	const struct profile *p = l->profile;
	struct svg_color_source source = o->color_source;
	struct frame_colors cache = {
		.colors = fk_calloc(profile__frame_count(p) + 1, SVG_COLOR_SIZE),
	};
	const double char_width = o->font_size * o->font_width;
	const double total_shown = g->time_max * o->factor;

	buf__append_string(out, "<g id=\"frames\">\n");
	for (size_t i = 0; i < l->count; i++) {
		const struct flame_frame *f = &l->frames[i];
		if (f->end - f->start < g->min_time)
			continue;
		result->frames++;
		bool root = f->frame == FLAME_LAYOUT_ROOT;
		double end = root ? g->time_max : f->end;
		double x1 = XPAD + f->start * g->width_per_time;
		double x2 = XPAD + end * g->width_per_time;
		double y1, y2;
		if (!o->inverted) {
			y1 = g->image_height - g->ypad2 - (f->depth + 1.0) * o->frame_height + FRAME_PAD;
			y2 = g->image_height - g->ypad2 - (double)f->depth * o->frame_height;
		} else {
			y1 = g->ypad1 + (double)f->depth * o->frame_height;
			y2 = g->ypad1 + (f->depth + 1.0) * o->frame_height - FRAME_PAD;
		}
		size_t len = 0;
		const char *name = root ? "" : profile__frame_name(p, f->frame, &len);
		size_t shown_len = without_annotation(name, len);

		char samples_text[64], rounded[PERL_NUMBER_SIZE];
		double samples_shown;
		perl_number__fixed(rounded, (end - f->start) * o->factor, 0, &samples_shown);
		format_count(samples_text, sizeof(samples_text), rounded);

		const struct svg_frame_attributes *na =
			root ? NULL : svg_name_attributes__find(o->name_attributes, name, len);
		const char *href = svg_frame_attributes__get(na, "href");
		put_group_start(out, na, href && *href ? href : NULL);
		buf__append_string(out, "<title>");
		const char *title = svg_frame_attributes__get(na, "title");
		if (title && *title) {
			put_escaped_string(out, title);
		} else if (root) {
			buf__append_string(out, "all (");
			buf__append_string(out, samples_text);
			buf__append_char(out, ' ');
			put_escaped_string(out, o->count_name);
			buf__append_string(out, ", 100%)");
		} else {
			put_escaped(out, name, shown_len);
			buf__append_string(out, " (");
			buf__append_string(out, samples_text);
			buf__append_char(out, ' ');
			put_escaped_string(out, o->count_name);
			buf__append_string(out, ", ");
			put_fixed(out, 100 * samples_shown / total_shown, 2);
			buf__append_char(out, '%');
			if (o->differential) {
				double d = o->negate ? -f->delta : f->delta;
				if (d == 0)
					d = 0;  /* Perl's -0 is 0: no "-0.00%" */
				buf__printf(out, "; %s%.2f%%", d > 0 ? "+" : "", 100 * d / total_shown);
			}
			buf__append_char(out, ')');
		}
		buf__append_string(out, "</title>");

		/* widths as Perl gets them: from the two rounded edges */
		char x1_text[PERL_NUMBER_SIZE], x2_text[PERL_NUMBER_SIZE];
		double x1_shown, x2_shown;
		perl_number__fixed(x1_text, x1, 1, &x1_shown);
		perl_number__fixed(x2_text, x2, 1, &x2_shown);
		buf__append_string(out, "<rect x=\"");
		buf__append_string(out, x1_text);
		buf__append_string(out, "\" y=\"");
		put_number(out, y1);
		buf__append_string(out, "\" width=\"");
		put_fixed(out, x2_shown - x1_shown, 1);
		buf__append_string(out, "\" height=\"");
		put_fixed(out, y2 - y1, 1);
		buf__append_string(out, "\" fill=\"");
		/* escaped: a palette.map (--cp) may hold any text as a colour */
		put_attribute(out, frame_color(p, o, &source, &cache, f, l->max_delta));
		buf__append_string(out, "\" rx=\"2\" ry=\"2\"/>");
		/* A label only where one fits: an empty <text> per frame would cost
		 * the browser as much as the rest of a large graph (the script makes
		 * one when a zoom gives a frame room) */
		double fit = (x2 - x1) / char_width;
		if (fit >= 3 && shown_len > 0) {
			buf__append_string(out, "<text x=\"");
			put_fixed(out, x1 + 3, 2);
			buf__append_string(out, "\" y=\"");
			put_number(out, 3 + (y1 + y2) / 2);
			buf__append_string(out, "\">");
			size_t chars = fit < 1e9 ? (size_t)fit : (size_t)1e9;
			size_t cut = utf8__offset(name, shown_len, chars);
			if (cut < shown_len) {
				size_t keep = utf8__offset(name, shown_len, chars - 2);
				put_escaped(out, name, keep);
				buf__append_string(out, "..");
			} else {
				put_escaped(out, name, shown_len);
			}
			buf__append_string(out, "</text>");
		}
		buf__append_string(out, href && *href ? "</a>\n" : "</g>\n");
		if (out->len >= FLUSH_BYTES) {
			fwrite(out->data, 1, out->len, stream);
			buf__reset(out);
		}
	}
	buf__append_string(out, "</g>\n");
	free(cache.colors);
}

int svg_options__check(const struct svg_options *o)
{
	const char *bg_start, *bg_stop;
	if (!svg_color__background(o->bgcolors, o->colors, &bg_start, &bg_stop))
		return error("unknown --bgcolors '%s': use yellow, blue, green, grey or #rrggbb",
			     o->bgcolors);
	if (o->width <= 2 * XPAD)
		return error("--width %u leaves no room for frames: use more than %d", o->width,
			     2 * XPAD);
	return 0;
}

int svg_writer__write_graph(const struct profile *profile, FILE *out,
			    const struct svg_options *o, struct svg_result *result)
{
	*result = (struct svg_result){ 0 };
	struct svg_options labelled = *o;
	if (!labelled.count_name)
		labelled.count_name = profile_unit__name(profile__unit(profile));
	o = &labelled;
	const char *bg_start, *bg_stop;
	if (svg_options__check(o) < 0)
		return -1;
	svg_color__background(o->bgcolors, o->colors, &bg_start, &bg_stop);

	struct flame_layout_options layout_options = {
		.differential = o->differential,
		.chain = strcmp(o->colors, "chain") == 0 && !o->differential && !o->chain_marked,
	};
	struct flame_layout *l = flame_layout__new(profile, &layout_options);
	struct buf text = BUF_INIT;
	result->total = l->total;

	int status = 0;
	if (l->total == 0) {
		write_error_svg(&text, o);
		status = 1;
		goto done;
	}

	struct geometry g = {
		.ypad1 = o->font_size * 3,
		.ypad2 = o->font_size * 2 + 10,
		.ypad3 = o->font_size * 2,
		.time_max = l->total,
	};
	if (o->total > 0 && o->total < l->total) {
		result->total_ignored = o->total / l->total > 0.02;
	} else if (o->total > 0) {
		g.time_max = o->total;
	}
	g.width_per_time = (o->width - 2.0 * XPAD) / g.time_max;
	g.min_time = o->minwidth_percent ? g.time_max * o->minwidth / 100
					 : o->minwidth / g.width_per_time;
	for (size_t i = 0; i < l->count; i++)
		if (l->frames[i].end - l->frames[i].start >= g.min_time && l->frames[i].depth > g.depth_max)
			g.depth_max = l->frames[i].depth;
	g.image_height = (g.depth_max + 1.0) * o->frame_height + g.ypad1 + g.ypad2;
	if (o->subtitle && *o->subtitle)
		g.image_height += g.ypad3;

	put_header(&text, o, g.image_height);
	put_preamble(&text, o, &g, bg_start, bg_stop);
	draw_frames(&text, out, o, l, &g, result);
	buf__append_string(&text, "</svg>\n");
done:
	fwrite(text.data, 1, text.len, out);
	buf__free(&text);
	flame_layout__free(l);
	return status;
}

int svg_writer__write(const struct profile *profile, FILE *out,
		      const struct writer_options *options)
{
	struct svg_options o;
	struct svg_result unwanted;
	if (options && options->format)
		o = *(const struct svg_options *)options->format;
	else
		svg_options__init(&o);
	if (options && options->title)
		o.title = options->title;
	if (options && options->count_name)
		o.count_name = options->count_name;
	if (options && options->empty_text)
		o.error_text = options->empty_text;
	return svg_writer__write_graph(profile, out, &o, o.result ? o.result : &unwanted);
}
