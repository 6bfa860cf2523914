#include "jvm_attach.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../lib/procfs.h"
#include "../lib/xalloc.h"

struct jvm_ask {
	uint32_t pid;
	char socket_path[108];     /* sun_path's size */
	char trigger[128];         /* the trigger file made; "" when none */
	int fd;                    /* connected to the listener; -1 before */
	uint64_t deadline;         /* CLOCK_MONOTONIC ms */
	char reply[1024];
	size_t reply_len;
};

bool jvm_attach__is_hotspot(const char *path)
{
	const char *base = strrchr(path, '/');
	return base && strcmp(base + 1, "libjvm.so") == 0;
}

static uint64_t now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
}

/* Does pid catch SIGQUIT (HotSpot does, but with -Xrs)? */
static bool catches_sigquit(uint32_t pid)
{
	char caught[64];

	if (!procfs__status_field(pid, "SigCgt", caught, sizeof caught))
		return false;
	return strtoull(caught, NULL, 16) >> (SIGQUIT - 1) & 1;
}

/* Is option one of pid's arguments? */
static bool has_argument(uint32_t pid, const char *option)
{
	char path[64], args[65536];
	bool found = false;

	snprintf(path, sizeof path, "/proc/%u/cmdline", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, args, sizeof args - 1);
	close(fd);
	if (n <= 0)
		return false;
	args[n] = 0;
	for (ssize_t at = 0; at < n && !found; at += (ssize_t)strlen(args + at) + 1)
		found = strcmp(args + at, option) == 0;
	return found;
}

static bool socket_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Starts the JVM's attach listener: a trigger file its user owns (HotSpot
 * checks the owner) in its working directory, else its /tmp, and a
 * SIGQUIT. */
static int start_listener(struct jvm_ask *a, uint32_t ns_pid, char *why, size_t why_size)
{
	char value[128];
	unsigned uid = 0, gid = 0;

	if (has_argument(a->pid, "-XX:+DisableAttachMechanism")) {
		snprintf(why, why_size, "it was started with -XX:+DisableAttachMechanism");
		return -1;
	}
	if (!catches_sigquit(a->pid)) {
		snprintf(why, why_size, "it does not catch SIGQUIT (started with -Xrs, or still "
			 "starting, or exiting): not signalled");
		return -1;
	}
	if (procfs__status_field(a->pid, "Uid", value, sizeof value))
		sscanf(value, "%*u %u", &uid);
	if (procfs__status_field(a->pid, "Gid", value, sizeof value))
		sscanf(value, "%*u %u", &gid);
	snprintf(a->trigger, sizeof a->trigger, "/proc/%u/cwd/.attach_pid%u", a->pid, ns_pid);
	int fd = open(a->trigger, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(a->trigger, sizeof a->trigger, "/proc/%u/root/tmp/.attach_pid%u", a->pid,
			 ns_pid);
		fd = open(a->trigger, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		snprintf(why, why_size, "cannot make its attach trigger %s: %s", a->trigger,
			 strerror(errno));
		a->trigger[0] = 0;
		return -1;
	}
	if (fchown(fd, uid, gid) != 0) {
		/* HotSpot accepts a trigger of root's too */
	}
	close(fd);
	if (kill((pid_t)a->pid, SIGQUIT) != 0) {
		snprintf(why, why_size, "cannot signal it: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct jvm_ask *jvm_ask__start(uint32_t pid, int timeout_ms, char *why, size_t why_size)
{
	struct jvm_ask *a = fk_calloc(1, sizeof(*a));
	uint32_t ns_pid = procfs__ns_pid(pid);

	a->pid = pid;
	a->fd = -1;
	a->deadline = now_ms() + (uint64_t)timeout_ms;
	snprintf(a->socket_path, sizeof a->socket_path, "/proc/%u/root/tmp/.java_pid%u", pid,
		 ns_pid);
	if (!socket_exists(a->socket_path) && start_listener(a, ns_pid, why, why_size) < 0) {
		jvm_ask__free(a);
		return NULL;
	}
	return a;
}

/* Connects to the listener and sends `jcmd Compiler.perfmap`. */
static int send_request(struct jvm_ask *a, char *why, size_t why_size)
{
	struct sockaddr_un address = { .sun_family = AF_UNIX };
	/* version, command, three arguments: the last two empty (the final NUL
	 * is the string's own) */
	static const char request[] = "1\0jcmd\0Compiler.perfmap\0\0";

	memcpy(address.sun_path, a->socket_path, sizeof a->socket_path);
	a->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (a->fd < 0 || connect(a->fd, (struct sockaddr *)&address, sizeof address) != 0) {
		snprintf(why, why_size, "cannot connect to its attach socket: %s", strerror(errno));
		return -1;
	}
	if (write(a->fd, request, sizeof request) != (ssize_t)sizeof request) {
		snprintf(why, why_size, "cannot send it the command: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The answer, whole: "0\n" and the command's output, or a status and the
 * reason ("java.lang.IllegalArgumentException: Unknown diagnostic command"). */
static enum jvm_ask_state judge_reply(struct jvm_ask *a, char *why, size_t why_size)
{
	char *end;
	long status = strtol(a->reply, &end, 10);
	if (end == a->reply) {
		snprintf(why, why_size, "it answered \"%.60s\"", a->reply);
		return JVM_ASK_FAILED;
	}
	const char *text = end + strspn(end, "\n");
	if (status != 0 || strstr(text, "Unknown diagnostic command")) {
		snprintf(why, why_size, "it refused Compiler.perfmap (JDK 17 or later has it): %.*s",
			 (int)strcspn(text, "\n"), text);
		return JVM_ASK_FAILED;
	}
	return JVM_ASK_DONE;
}

enum jvm_ask_state jvm_ask__step(struct jvm_ask *a, int wait_ms, char *why, size_t why_size)
{
	uint64_t give_up = now_ms() + (uint64_t)wait_ms;

	for (;;) {
		uint64_t now = now_ms();
		if (now >= a->deadline) {
			snprintf(why, why_size, "it did not answer within %s",
				 a->fd < 0 ? "the time its attach listener had to start" : "the time given");
			return JVM_ASK_FAILED;
		}
		int wait = (int)((give_up > now ? give_up : now) - now);
		if (a->fd < 0) {
			if (!socket_exists(a->socket_path)) {
				if (wait == 0)
					return JVM_ASK_PENDING;
				nanosleep(&(struct timespec){ 0, (wait < 10 ? wait : 10) * 1000000L }, NULL);
				continue;
			}
			if (send_request(a, why, why_size) < 0)
				return JVM_ASK_FAILED;
		}
		struct pollfd p = { .fd = a->fd, .events = POLLIN };
		if (poll(&p, 1, wait) <= 0)
			return JVM_ASK_PENDING;
		ssize_t n = read(a->fd, a->reply + a->reply_len, sizeof a->reply - 1 - a->reply_len);
		if (n < 0) {
			snprintf(why, why_size, "cannot read its answer: %s", strerror(errno));
			return JVM_ASK_FAILED;
		}
		a->reply_len += (size_t)n;
		a->reply[a->reply_len] = 0;
		if (n == 0 || a->reply_len + 1 == sizeof a->reply)
			return judge_reply(a, why, why_size);  /* it closes once it has answered */
	}
}

void jvm_ask__free(struct jvm_ask *a)
{
	if (!a)
		return;
	if (a->fd >= 0)
		close(a->fd);
	if (a->trigger[0])
		unlink(a->trigger);
	free(a);
}
