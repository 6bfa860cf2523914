#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

struct workload {
	char **argv;
	pid_t pid;
	bool reaped;
	int go_fd;      /* write a byte: exec now */
	int error_fd;   /* exec's errno, or EOF once it succeeded */
};

int workload__start(struct workload **out, char **argv, const sigset_t *original_mask)
{
	int go[2], err[2];

	*out = NULL;
	if (pipe2(go, O_CLOEXEC) < 0)
		return error("cannot start %s: %s", argv[0], strerror(errno));
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		return error("cannot start %s: %s", argv[0], strerror(e));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return error("cannot start %s: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		char byte;
		sigprocmask(SIG_SETMASK, original_mask, NULL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &byte, 1) != 1)
			_exit(127);  /* flamekit gave up before sampling began */
		execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	struct workload *w = fk_calloc(1, sizeof(*w));
	*w = (struct workload){ .argv = argv, .pid = pid, .go_fd = go[1], .error_fd = err[0] };
	*out = w;
	return 0;
}

uint32_t workload__pid(const struct workload *w)
{
	return (uint32_t)w->pid;
}

int workload__release(struct workload *w)
{
	int e = 0;
	ssize_t got;

	if (write(w->go_fd, "g", 1) != 1)
		return error("cannot start %s: %s", w->argv[0], strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	got = read(w->error_fd, &e, sizeof e);
	close(w->error_fd);
	w->error_fd = -1;
	if (got == (ssize_t)sizeof e) {
		waitpid(w->pid, NULL, 0);
		w->reaped = true;
		return error("cannot run %s: %s", w->argv[0], strerror(e));
	}
	return 0;
}

bool workload__exited(struct workload *w)
{
	if (!w->reaped && waitpid(w->pid, NULL, WNOHANG) == w->pid)
		w->reaped = true;
	return w->reaped;
}

void workload__signal(struct workload *w, int sig)
{
	if (!workload__exited(w) && w->go_fd < 0)
		kill(w->pid, sig);
}

void workload__free(struct workload *w)
{
	if (!w)
		return;
	if (w->go_fd >= 0) {
		close(w->go_fd);  /* the child reads EOF and exits */
		waitpid(w->pid, NULL, 0);
	} else {
		workload__exited(w);  /* reaped if it has exited (a signal passed on) */
	}
	if (w->error_fd >= 0)
		close(w->error_fd);
	free(w);
}
