#include "push.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

#define BACKOFF_FIRST 1.0
#define BACKOFF_MOST 30.0
/* How long one request may take while the run goes on. */
#define REQUEST_TIMEOUT 30.0

/*
 * libcurl, loaded with dlopen() when a push starts: linked in, it and what
 * it links (its TLS, Kerberos and LDAP libraries) take some 6 MB of every
 * flamekit's resident memory, and time at each start, for the one mode
 * that sends anything.
 */
#define CURL_SONAME "libcurl.so.4"

struct curl_calls {
	__typeof__(curl_global_init) *global_init;
	__typeof__(curl_global_cleanup) *global_cleanup;
	__typeof__(curl_easy_init) *easy_init;
	__typeof__(curl_easy_cleanup) *easy_cleanup;
	__typeof__(curl_easy_reset) *easy_reset;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_easy_perform) *easy_perform;
	__typeof__(curl_easy_getinfo) *easy_getinfo;
	__typeof__(curl_easy_strerror) *easy_strerror;
	__typeof__(curl_easy_escape) *easy_escape;
	__typeof__(curl_free) *free;
	__typeof__(curl_slist_append) *slist_append;
	__typeof__(curl_slist_free_all) *slist_free_all;
};

/* 0, or -1 having said what is missing. The library stays loaded: libcurl
 * keeps global state only the process's exit may take away. */
static int curl_calls__load(struct curl_calls *c)
{
	void *library = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!library)
		return error("push: cannot load libcurl, %s (Debian: apt install libcurl4): %s",
			     CURL_SONAME, dlerror());
#define CURL_CALL(field, name) \
	(c->field = (__typeof__(c->field))dlsym(library, name)) != NULL
	if (CURL_CALL(global_init, "curl_global_init") &&
	    CURL_CALL(global_cleanup, "curl_global_cleanup") &&
	    CURL_CALL(easy_init, "curl_easy_init") && CURL_CALL(easy_cleanup, "curl_easy_cleanup") &&
	    CURL_CALL(easy_reset, "curl_easy_reset") && CURL_CALL(easy_setopt, "curl_easy_setopt") &&
	    CURL_CALL(easy_perform, "curl_easy_perform") &&
	    CURL_CALL(easy_getinfo, "curl_easy_getinfo") &&
	    CURL_CALL(easy_strerror, "curl_easy_strerror") &&
	    CURL_CALL(easy_escape, "curl_easy_escape") && CURL_CALL(free, "curl_free") &&
	    CURL_CALL(slist_append, "curl_slist_append") &&
	    CURL_CALL(slist_free_all, "curl_slist_free_all"))
		return 0;
#undef CURL_CALL
	return error("push: %s lacks a function flamekit calls: %s", CURL_SONAME, dlerror());
}

struct pusher {
	struct push_options options;
	struct curl_calls curl;
	struct spool *spool;
	pthread_t thread;
	bool started;
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	bool woken;                   /* a window came, or finish was asked */
	bool finishing;
	double deadline;              /* CLOCK_MONOTONIC seconds, once finishing */
	atomic_bool failed;
	atomic_bool stop_now;         /* the deadline passed: cut a request short */
	bool unreachable;             /* said once until it answers again */
};

static double monotonic(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + now.tv_nsec / 1e9;
}

static bool ends_with(const char *s, size_t len, const char *end)
{
	size_t n = strlen(end);
	return len >= n && memcmp(s + len - n, end, n) == 0;
}

enum push_protocol push__protocol_of(const char *url)
{
	const char *rest;
	if (strncmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncmp(url, "https://", 8) == 0)
		rest = url + 8;
	else
		return PUSH_NONE;
	const char *path = strchr(rest, '/');
	if (!path || path == rest || strpbrk(url, "?#"))
		return PUSH_NONE;
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	if (ends_with(path, len, "/ingest"))
		return PUSH_PYROSCOPE;
	if (ends_with(path, len, "/v1development/profiles"))
		return PUSH_OTLP;
	return PUSH_NONE;
}

const char *push__format(enum push_protocol protocol)
{
	return protocol == PUSH_OTLP ? "otlp" : "pprof";
}

/* The response body's first line, for the message of a refusal. */
struct response {
	char first_line[256];
	size_t len;
	bool line_done;
};

static size_t on_body(char *data, size_t size, size_t count, void *arg)
{
	struct response *r = arg;
	size_t n = size * count;
	for (size_t i = 0; i < n && !r->line_done; i++) {
		if (data[i] == '\n' || data[i] == '\r') {
			r->line_done = r->len > 0;
			continue;
		}
		if (r->len + 1 < sizeof r->first_line)
			r->first_line[r->len++] = data[i];
	}
	r->first_line[r->len] = 0;
	return n;
}

static int on_progress(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	struct pusher *p = arg;
	(void)a, (void)b, (void)c, (void)d;
	return atomic_load(&p->stop_now);  /* non-zero: abort the transfer */
}

enum outcome { SENT, RETRY, REFUSED };

/* POSTs one window. */
static enum outcome post(struct pusher *p, CURL *curl, const struct spool_entry *e,
			 double timeout)
{
	struct buf url = BUF_INIT, auth = BUF_INIT;
	struct curl_slist *headers = NULL;
	struct response response = { .len = 0 };
	enum outcome outcome = RETRY;
	long status = 0;

	buf__printf(&url, "%s", p->options.url);
	if (p->options.protocol == PUSH_PYROSCOPE) {
		char *name = p->curl.easy_escape(curl, e->head.name, 0);
		buf__printf(&url, "?name=%s&from=%" PRIu64 "&until=%" PRIu64 "&format=pprof",
			    name ? name : "", e->head.from, e->head.until);
		if (e->head.rate)
			buf__printf(&url, "&sampleRate=%u", e->head.rate);
		p->curl.free(name);
		headers = p->curl.slist_append(headers, "Content-Type: application/octet-stream");
	} else {
		headers = p->curl.slist_append(headers, "Content-Type: application/x-protobuf");
	}
	if (p->options.authorization) {
		buf__printf(&auth, "Authorization: %s", p->options.authorization);
		headers = p->curl.slist_append(headers, auth.data);
	}
	headers = p->curl.slist_append(headers, "Expect:");  /* no 100-continue round trip */
	p->curl.easy_reset(curl);
	p->curl.easy_setopt(curl, CURLOPT_URL, url.data);
	p->curl.easy_setopt(curl, CURLOPT_POST, 1L);
	p->curl.easy_setopt(curl, CURLOPT_POSTFIELDS, e->body.data ? e->body.data : "");
	p->curl.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)e->body.len);
	p->curl.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	p->curl.easy_setopt(curl, CURLOPT_USERAGENT, "flamekit");
	p->curl.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	p->curl.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	p->curl.easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(timeout * 1000) + 1);
	p->curl.easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	p->curl.easy_setopt(curl, CURLOPT_WRITEDATA, &response);
	p->curl.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
	p->curl.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	p->curl.easy_setopt(curl, CURLOPT_XFERINFODATA, p);
	CURLcode code = p->curl.easy_perform(curl);
	if (code == CURLE_OK)
		p->curl.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (code != CURLE_OK) {
		if (!p->unreachable && code != CURLE_ABORTED_BY_CALLBACK)
			warning("push to %s: %s: windows wait in the spool, retried", p->options.url,
				p->curl.easy_strerror(code));
		p->unreachable = true;
	} else if (status >= 200 && status < 300) {
		if (p->unreachable)
			fprintf(stderr, "flamekit: push to %s: delivering again\n", p->options.url);
		p->unreachable = false;
		outcome = SENT;
	} else if (status >= 500 || status == 429 || status == 408) {
		if (!p->unreachable)
			warning("push to %s: status %ld%s%s: windows wait in the spool, retried",
				p->options.url, status, response.len ? ": " : "",
				response.first_line);
		p->unreachable = true;
	} else {
		error("push to %s refused: status %ld%s%s", p->options.url, status,
		      response.len ? ": " : "", response.first_line);
		outcome = REFUSED;
	}
	p->curl.slist_free_all(headers);
	buf__free(&url);
	buf__free(&auth);
	return outcome;
}

/* Waits until woken or `seconds` passed (with the mutex held). */
static void wait_for(struct pusher *p, double seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	double end = (double)until.tv_sec + until.tv_nsec / 1e9 + seconds;
	until.tv_sec = (time_t)end;
	until.tv_nsec = (long)((end - (double)(time_t)end) * 1e9);
	while (!p->woken)
		if (pthread_cond_timedwait(&p->wake, &p->mutex, &until) == ETIMEDOUT)
			break;
	p->woken = false;
}

static void *sender(void *arg)
{
	struct pusher *p = arg;
	struct spool_entry entry = { .body = BUF_INIT };
	const char *format = push__format(p->options.protocol);
	double backoff = BACKOFF_FIRST;
	CURL *curl = p->curl.easy_init();

	if (!curl) {
		error("push: libcurl could not start");
		atomic_store(&p->failed, true);
		return NULL;
	}
	pthread_mutex_lock(&p->mutex);
	for (;;) {
		bool finishing = p->finishing;
		double deadline = p->deadline;
		if (finishing && monotonic() >= deadline)
			break;
		if (!spool__take(p->spool, format, &entry)) {
			if (finishing)
				break;
			wait_for(p, 1.0);
			continue;
		}
		double timeout = finishing ? deadline - monotonic() : REQUEST_TIMEOUT;
		if (timeout > REQUEST_TIMEOUT)
			timeout = REQUEST_TIMEOUT;
		pthread_mutex_unlock(&p->mutex);
		enum outcome outcome = timeout > 0 ? post(p, curl, &entry, timeout) : RETRY;
		pthread_mutex_lock(&p->mutex);
		/* the body is read again from the spool when tried again: freed,
		 * not kept at the size of the largest window so far */
		buf__free(&entry.body);
		if (outcome == SENT) {
			spool__delivered(p->spool, &entry);
			backoff = BACKOFF_FIRST;
			continue;
		}
		spool__put_back(p->spool, &entry);
		if (outcome == REFUSED) {
			atomic_store(&p->failed, true);
			break;
		}
		double wait = backoff;
		if (p->finishing && p->deadline - monotonic() < wait)
			wait = p->deadline - monotonic();
		if (wait > 0) {
			/* a new window does not cut a backoff short: only finishing does */
			double until = monotonic() + wait;
			while (monotonic() < until && !(p->finishing && monotonic() >= p->deadline))
				wait_for(p, until - monotonic());
		}
		backoff = backoff * 2 > BACKOFF_MOST ? BACKOFF_MOST : backoff * 2;
	}
	pthread_mutex_unlock(&p->mutex);
	buf__free(&entry.body);
	p->curl.easy_cleanup(curl);
	return NULL;
}

int pusher__start(const struct push_options *options, struct spool *spool, struct pusher **out)
{
	struct pusher *p = fk_calloc(1, sizeof(*p));

	*out = NULL;
	if (curl_calls__load(&p->curl) < 0) {
		free(p);
		return -1;
	}
	if (p->curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		free(p);
		return error("push: libcurl could not start");
	}
	p->options = *options;
	p->spool = spool;
	pthread_mutex_init(&p->mutex, NULL);
	pthread_cond_init(&p->wake, NULL);
	atomic_init(&p->failed, false);
	atomic_init(&p->stop_now, false);
	int err = pthread_create(&p->thread, NULL, sender, p);
	if (err) {
		pusher__free(p);
		return error("push: cannot start the sender thread: %s", strerror(err));
	}
	p->started = true;
	*out = p;
	return 0;
}

void pusher__wake(struct pusher *p)
{
	pthread_mutex_lock(&p->mutex);
	p->woken = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->mutex);
}

bool pusher__failed(struct pusher *p)
{
	return p && atomic_load(&p->failed);
}

void pusher__finish(struct pusher *p, double timeout)
{
	if (!p || !p->started)
		return;
	pthread_mutex_lock(&p->mutex);
	p->finishing = true;
	p->deadline = monotonic() + timeout;
	p->woken = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->mutex);
	/* a request still in flight at the deadline is cut short */
	while (pthread_tryjoin_np(p->thread, NULL) == EBUSY) {
		if (monotonic() >= p->deadline)
			atomic_store(&p->stop_now, true);
		struct timespec nap = { 0, 20000000 };
		nanosleep(&nap, NULL);
	}
	p->started = false;
}

void pusher__free(struct pusher *p)
{
	if (!p)
		return;
	pusher__finish(p, 0);
	pthread_mutex_destroy(&p->mutex);
	pthread_cond_destroy(&p->wake);
	p->curl.global_cleanup();
	free(p);
}
