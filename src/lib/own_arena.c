#include "own_arena.h"

#include <pthread.h>

struct own_arena_job {
	int (*work)(void *arg);
	void *arg;
	int result;
};

static void *run_job(void *arg)
{
	struct own_arena_job *job = arg;
	job->result = job->work(job->arg);
	return NULL;
}

int own_arena__run(int (*work)(void *arg), void *arg)
{
	struct own_arena_job job = { work, arg, 0 };
	pthread_t thread;

	/* (the thread starts with the caller's signal mask: record's stop
	 * signals, blocked, still wait for the caller) */
	if (pthread_create(&thread, NULL, run_job, &job) != 0)
		return work(arg);
	pthread_join(thread, NULL);
	return job.result;
}
