/*
 * bench/interchange.sh's timer: each phase of a conversion timed on its own,
 * in process, with the readers and writers flamekit's commands use (the
 * folded reader in parallel parts on every CPU, as `collapse` reads a large
 * plain file; the writers to a file):
 *
 *	interchange_phases FOLDED OUT_DIR REPS
 *
 * prints "PHASE MEDIAN_SECONDS" for: read-folded, write-folded,
 * write-pprof (encode and gzip), read-pprof (gunzip and decode, the file
 * write-pprof made), and "pprof-bytes N". Built by bench/interchange.sh
 * against build/obj; not part of flamekit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../src/readers/folded.h"
#include "../src/readers/pprof.h"
#include "../src/writers/folded.h"
#include "../src/writers/pprof.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static struct profile *read_with(const struct reader *r, const char *path)
{
	struct input *in;
	if (input__open(&in, path) < 0)
		exit(1);
	struct profile *p = profile__new(1, PROFILE_INTEGER);
	struct read_context ctx = { 0 };
	if (r->read(&ctx, &in, 1, p) < 0)
		exit(1);
	read_context__release(&ctx);
	input__close(in);
	return p;
}

static void write_with(int (*write)(const struct profile *, FILE *, const struct writer_options *),
		       const struct profile *p, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || write(p, f, NULL) < 0 || fclose(f) != 0)
		exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: interchange_phases FOLDED OUT_DIR REPS\n");
		return 2;
	}
	int reps = atoi(argv[3]);
	enum { READ_FOLDED, WRITE_FOLDED, WRITE_PPROF, READ_PPROF, PHASES };
	static const char *const names[] = { "read-folded", "write-folded", "write-pprof", "read-pprof" };
	double *times[PHASES];
	char folded_out[4096], pprof_out[4096];
	snprintf(folded_out, sizeof folded_out, "%s/phases.folded", argv[2]);
	snprintf(pprof_out, sizeof pprof_out, "%s/phases.pb.gz", argv[2]);
	for (int k = 0; k < PHASES; k++)
		times[k] = calloc((size_t)reps, sizeof(double));
	for (int i = 0; i < reps; i++) {
		double t = now();
		struct profile *p = read_with(reader__find("folded"), argv[1]);
		times[READ_FOLDED][i] = now() - t;
		t = now();
		write_with(folded_writer__write, p, folded_out);
		times[WRITE_FOLDED][i] = now() - t;
		t = now();
		write_with(pprof_writer__write, p, pprof_out);
		times[WRITE_PPROF][i] = now() - t;
		t = now();
		struct profile *back = read_with(reader__find("pprof"), pprof_out);
		times[READ_PPROF][i] = now() - t;
		profile__free(back);
		profile__free(p);
	}
	for (int k = 0; k < PHASES; k++) {
		qsort(times[k], (size_t)reps, sizeof(double), compare_doubles);
		printf("%s %.4f\n", names[k], times[k][reps / 2]);
	}
	struct stat st;
	if (stat(pprof_out, &st) == 0)
		printf("pprof-bytes %lld\n", (long long)st.st_size);
	return 0;
}
