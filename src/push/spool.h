/*
 * record --push's disk spool: the windows not yet delivered, one file each,
 * so that nothing is lost while the backend is down, and a run killed (even
 * by SIGKILL) leaves them for the next run with the same spool, which sends
 * them first, in order.
 *
 * An entry is DIR/wSTART.fkw, START the window's start in Unix nanoseconds
 * written with 20 digits, so that names sort by time: a small text head
 * ("flamekit-window 1", then "KEY VALUE" lines: format, from, until, rate,
 * name; an empty line) and the body as it is to be sent. Entries are written
 * through lib/output (a hidden temporary file renamed over the name), so an
 * entry is whole or absent; temporaries a killed run left are removed at
 * open. DIR/lock, held with flock(), keeps two runs off one spool.
 *
 * The spool holds at most max_bytes of entries: adding one past that drops
 * the oldest first (never the one being sent), and counts them. An entry
 * that cannot be written (a full disk) is counted as dropped too, and said.
 *
 *	struct spool *s;
 *	if (spool__open(dir, max_bytes, &s) < 0) ...        // with the options
 *	spool__add(s, start_ns, head, body, len);            // each window (sampling thread)
 *	struct spool_entry e;
 *	while (spool__take(s, "pprof", &e) == 1) {          // sender thread
 *		... send e.body; then spool__delivered(s, &e) or spool__put_back(s, &e) ...
 *	}
 *	spool__close(s);
 *
 * Threads: every function but open and close may be called from any thread;
 * a mutex inside keeps the list. Entries of another format (another --push
 * URL's protocol) are left where they are and counted as spooled. Memory:
 * a name and a size per entry, and the one entry being sent.
 */
#ifndef FLAMEKIT_PUSH_SPOOL_H
#define FLAMEKIT_PUSH_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"

/* What a window says of itself, for the request that sends it. */
struct spool_head {
	char format[16];       /* "pprof" or "otlp" */
	uint64_t from, until;  /* Unix seconds */
	unsigned rate;         /* samples a second; 0: none */
	char name[1024];       /* Pyroscope's APP.TYPE{LABELS}; "" for OTLP */
};

struct spool_entry {
	struct spool_head head;
	struct buf body;
	uint64_t start_ns;     /* which entry (its name) */
};

struct spool_counts {
	uint64_t delivered, dropped;  /* by this run */
	uint64_t pending;             /* in the spool now, of any format */
	uint64_t found;               /* in the spool at open */
};

struct spool;

/* Makes dir if missing, locks it, lists its entries. 0, or -1 after an
 * error line (another run holds it, or it cannot be made or written). */
int spool__open(const char *dir, uint64_t max_bytes, struct spool **out);
/* Writes a window's entry; drops the oldest beyond max_bytes. 0, or -1
 * after a line saying the window was dropped (counted). */
int spool__add(struct spool *s, uint64_t start_ns, const struct spool_head *head,
	       const void *body, size_t len);
/* The oldest entry of `format` not being sent, read whole into *e (which
 * the caller zeroed once; its body is reused): 1, or 0 when there is none.
 * An unreadable entry is dropped (counted) and the next one tried. */
int spool__take(struct spool *s, const char *format, struct spool_entry *e);
/* The backend acknowledged *e: its file goes. */
void spool__delivered(struct spool *s, const struct spool_entry *e);
/* *e was not delivered: it stays, to be taken again. */
void spool__put_back(struct spool *s, const struct spool_entry *e);
void spool__counts(struct spool *s, struct spool_counts *counts);
const char *spool__dir(const struct spool *s);
void spool__close(struct spool *s);

#endif
