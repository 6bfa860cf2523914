/*
 * record --push URL: a sender thread that drains the spool (spool.h) to a
 * profiling backend over HTTP(S) with libcurl, oldest window first, and
 * deletes a window only once the backend acknowledged it (2xx). The
 * sampling thread only ever writes the spool and wakes the sender: it never
 * waits on the network.
 *
 * The URL's path picks the protocol (push__protocol_of()):
 *   .../ingest                  Pyroscope: POST ?name=&from=&until=&format=pprof
 *                               [&sampleRate=], the window's pprof as the body
 *   .../v1development/profiles  OTLP/HTTP: the window's ExportProfilesServiceRequest,
 *                               Content-Type application/x-protobuf
 *
 * Delivery: connection errors, timeouts, 5xx and 429 are retried with
 * backoff (1 s doubling to 30 s), the window staying first in line; any
 * other status refuses the push: one line naming the status and the first
 * line of the body, and push__failed() turns true (the caller ends the
 * recording). pusher__finish() gives the windows left at most `timeout`
 * seconds, then stops the sender (a request in flight is cut short); what
 * is left stays in the spool for the next run.
 *
 *	struct pusher *p;
 *	if (pusher__start(&options, spool, &p) < 0) ...
 *	... spool__add(spool, ...); pusher__wake(p); ...   // each window
 *	pusher__finish(p, 10.0);                            // at exit: joins the thread
 *	pusher__free(p);
 *
 * The options' strings must outlive the pusher; the spool is the caller's
 * and must outlive it too.
 */
#ifndef FLAMEKIT_PUSH_PUSH_H
#define FLAMEKIT_PUSH_PUSH_H

#include <stdbool.h>

#include "spool.h"

enum push_protocol {
	PUSH_NONE,
	PUSH_PYROSCOPE,
	PUSH_OTLP,
};

struct push_options {
	const char *url;
	enum push_protocol protocol;
	const char *authorization;   /* the Authorization header's value; NULL: none */
};

/* The protocol a URL's scheme and path ask for; PUSH_NONE when neither
 * (only http:// and https:// URLs). */
enum push_protocol push__protocol_of(const char *url);
/* The spool format of a protocol's windows: "pprof" or "otlp". */
const char *push__format(enum push_protocol protocol);

struct pusher;

/* Starts the sender thread (signals stay blocked in it as in the caller).
 * 0, or -1 after an error line. */
int pusher__start(const struct push_options *options, struct spool *spool, struct pusher **out);
/* A window was spooled: the sender looks now, not at its next retry. */
void pusher__wake(struct pusher *p);
/* The backend refused a window (a 4xx other than 429): the push is over. */
bool pusher__failed(struct pusher *p);
/* Delivers what it can within timeout seconds, then stops the thread. */
void pusher__finish(struct pusher *p, double timeout);
void pusher__free(struct pusher *p);

#endif
