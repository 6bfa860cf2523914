#include "perf_lines.h"

#include <string.h>

/*
 * /^(\S.+?)\s+(\d+)[/]*(\d+)*\s+/ — a sample header (\/ written [/] here). The lazy comm takes the
 * first whitespace run (from offset 2 on) after which digits, optional
 * slashes and digits, and whitespace follow. All positions inside one
 * whitespace run behave alike, so each run is tried once.
 */
bool perf_line__header(const char *s, size_t n, struct span *comm, struct span *pid,
			 struct span *tid)
{
	if (n < 2 || is_space((unsigned char)s[0]))
		return false;
	size_t i = 2;
	while (i < n) {
		if (!is_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t ws_end = i;
		while (ws_end < n && is_space((unsigned char)s[ws_end]))
			ws_end++;
		size_t d = ws_end;
		while (d < n && is_digit((unsigned char)s[d]))
			d++;
		if (d > ws_end && d < n) {
			if (is_space((unsigned char)s[d])) {
				*comm = (struct span){ s, i };
				*pid = (struct span){ s + ws_end, d - ws_end };
				*tid = (struct span){ NULL, 0 };
				return true;
			}
			if (s[d] == '/') {
				size_t m = d;
				while (m < n && s[m] == '/')
					m++;
				size_t t = m;
				while (t < n && is_digit((unsigned char)s[t]))
					t++;
				if (t < n && is_space((unsigned char)s[t])) {
					*comm = (struct span){ s, i };
					*pid = (struct span){ s + ws_end, d - ws_end };
					*tid = t > m ? (struct span){ s + m, t - m } : (struct span){ NULL, 0 };
					return true;
				}
			}
		}
		i = ws_end;
	}
	return false;
}

/*
 * /:\s*(\d+)*\s+(\S+):\s*$/ — the period and event name. The event is the
 * last word when it ends in ':'; before it: whitespace, optional digits
 * (the period), optional whitespace, and a ':'.
 */
bool perf_line__event(const char *s, size_t n, struct span *period, struct span *event)
{
	size_t e = n;
	while (e > 0 && is_space((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return false;
	size_t t = e - 1;
	while (t > 0 && !is_space((unsigned char)s[t - 1]))
		t--;
	if (t == e - 1 || t == 0)
		return false; /* (\S+) needs a character, \s+ before it */
	size_t a = t;
	while (a > 0 && is_space((unsigned char)s[a - 1]))
		a--;
	size_t b = a;
	while (b > 0 && is_digit((unsigned char)s[b - 1]))
		b--;
	size_t c = b;
	if (b < a) /* the whitespace before the digits is \s*, may be empty */
		while (c > 0 && is_space((unsigned char)s[c - 1]))
			c--;
	if (c == 0 || s[c - 1] != ':')
		return false;
	*period = (struct span){ s + b, a - b };
	*event = (struct span){ s + t, e - 1 - t };
	return true;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/ — a stack line: pc, function, module. The
 * greedy (.+) ends at the last " (" that still has a ')' after it, and (.*)
 * runs to the last ')'. If the function would be empty, Perl backtracks into
 * the whitespace and then into the address; the arithmetic below picks the
 * same split.
 */
bool perf_line__frame(const char *s, size_t n, struct span *pc, struct span *func,
			struct span *mod)
{
	size_t st = 0;
	while (st < n && is_space((unsigned char)s[st]))
		st++;
	size_t w = st;
	while (w < n && is_word((unsigned char)s[w]))
		w++;
	if (w == st)
		return false;
	const char *close = memrchr(s, ')', n);
	if (!close)
		return false;
	size_t r = (size_t)(close - s);
	/* the last " (" with q + 2 <= r: the last '(' before r preceded by ' ' */
	size_t q = 0;
	bool found = false;
	for (size_t limit = r; limit > 1;) {
		const char *open = memrchr(s + 1, '(', limit - 1);
		if (!open)
			break;
		size_t k = (size_t)(open - s);
		if (s[k - 1] == ' ') {
			q = k - 1;
			found = true;
			break;
		}
		limit = k;
	}
	if (!found)
		return false;
	size_t ws = w;
	while (ws < n && is_space((unsigned char)s[ws]))
		ws++;
	size_t fstart;
	size_t pc_end = w;
	if (ws + 1 <= q) {
		fstart = ws;
	} else if (w + 1 <= q) {
		fstart = q - 1;
	} else if (q >= st + 2) {
		pc_end = q - 1;
		fstart = q - 1;
	} else {
		return false;
	}
	*pc = (struct span){ s + st, pc_end - st };
	*func = (struct span){ s + fstart, q - fstart };
	*mod = (struct span){ s + q + 2, r - (q + 2) };
	return true;
}

/* s/\+0x[\da-f]+$// */
struct span perf_frame__strip_offset(struct span f)
{
	const char *plus = memrchr(f.p, '+', f.len);
	if (!plus)
		return f;
	size_t at = (size_t)(plus - f.p);
	if (at + 3 >= f.len + 0 || f.p[at + 1] != '0' || f.p[at + 2] != 'x')
		return f;
	for (size_t i = at + 3; i < f.len; i++) {
		unsigned char c = (unsigned char)f.p[i];
		if (!is_digit(c) && !(c >= 'a' && c <= 'f'))
			return f;
	}
	return (struct span){ f.p, at };
}

/* $mod =~ m:/tmp/perf-\d+\.map: */
bool perf_module__is_jit(struct span mod)
{
	const char *p = mod.p, *end = mod.p + mod.len;
	while ((p = find_bytes(p, (size_t)(end - p), "/tmp/perf-", 10)) != NULL) {
		const char *d = p + 10, *q = d;
		while (q < end && is_digit((unsigned char)*q))
			q++;
		if (q > d && end - q >= 4 && memcmp(q, ".map", 4) == 0)
			return true;
		p++;
	}
	return false;
}

/* $mod =~ m/(^\[|vmlinux$)/ && $mod !~ /unknown/ */
bool perf_module__is_kernel(struct span mod)
{
	bool looks = (mod.len > 0 && mod.p[0] == '[') ||
		     (mod.len >= 7 && memcmp(mod.p + mod.len - 7, "vmlinux", 7) == 0);
	return looks && !find_bytes(mod.p, mod.len, "unknown", 7);
}

/* $mod !~ m/(perf-\d+.map|kernel\.|\[[^\]]+\])/ — modules --inline may open */
bool perf_module__inline_applies(struct span mod)
{
	const char *end = mod.p + mod.len;
	for (const char *p = mod.p; p < end; p++) {
		if (end - p >= 5 && memcmp(p, "perf-", 5) == 0) {
			const char *q = p + 5;
			while (q < end && is_digit((unsigned char)*q))
				q++;
			/* \d+ may give back digits, but "." must then be a digit
			 * followed by "map", which a digit run cannot hold */
			if (q > p + 5 && end - q >= 4 && memcmp(q + 1, "map", 3) == 0)
				return false;
		}
		if (end - p >= 7 && memcmp(p, "kernel.", 7) == 0)
			return false;
		if (*p == '[' && p + 1 < end && p[1] != ']') {
			const char *c = memchr(p + 1, ']', (size_t)(end - p - 1));
			if (c)
				return false;
		}
	}
	return true;
}


/*
 * The sample's time: the first word after the pid (from `from` on) that is
 * "SECONDS.FRACTION:", perf script's time field (6 decimals, 9 with --ns),
 * looked for before the event name, the first other word ending in ':'.
 * Not an expression of the Perl tool's, which ignores time.
 */
bool perf_line__time(const char *s, size_t n, size_t from, uint64_t *ns)
{
	size_t i = from;
	while (i < n) {
		while (i < n && is_space((unsigned char)s[i]))
			i++;
		size_t w = i;
		while (i < n && !is_space((unsigned char)s[i]))
			i++;
		if (i == w || s[i - 1] != ':')
			continue;
		uint64_t seconds = 0, fraction = 0;
		size_t d = w, digits = 0, decimals = 0;
		for (; d < i - 1 && is_digit((unsigned char)s[d]) && digits < 10; d++, digits++)
			seconds = seconds * 10 + (uint64_t)(s[d] - '0');
		if (!digits || d >= i - 1 || s[d] != '.')
			return false;
		for (d++; d < i - 1 && is_digit((unsigned char)s[d]) && decimals < 9; d++, decimals++)
			fraction = fraction * 10 + (uint64_t)(s[d] - '0');
		if (!decimals || d != i - 1)
			return false;
		for (; decimals < 9; decimals++)
			fraction *= 10;
		*ns = seconds * 1000000000 + fraction;
		return true;
	}
	return false;
}
