/*
 * Error and warning messages, in one voice.
 *
 * Every message goes to stderr as "flamekit: <text>\n". Text is lowercase,
 * has no full stop, names the bad value and says what to do (see STYLE.md).
 * error() returns -1 so that callers can write `return error(...)`.
 */
#ifndef FLAMEKIT_ERROR_H
#define FLAMEKIT_ERROR_H

#include <stddef.h>

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Sends the messages error() and warning() make on the calling thread (each
 * a whole line, "flamekit: ...\n", not NUL-terminated) to sink(arg, ...)
 * instead of stderr, until called again with sink NULL. Other threads are
 * not affected. For work whose messages must come out later, in order: the
 * parts of a parallel read (readers/parallel.h).
 */
typedef void (*error_sink)(void *arg, const char *message, size_t len);
void error__redirect(error_sink sink, void *arg);
/* The sink that drops them: for work whose failure is said again later by
 * the thread that owns it. */
void error__discard(void *unused, const char *message, size_t len);

/*
 * Writes up to max bytes of a line for a message: printable ASCII as is,
 * everything else as \xNN, "..." when cut. Returns out.
 */
char *quote_for_message(char *out, size_t out_size, const char *line, size_t len);

#endif
