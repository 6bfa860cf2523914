/*
 * bcc profile's default report (bcc's Python tool and libbpf-tools alike):
 *
 *	    read_zero                  <- kernel frames, leaf first ("    NAME")
 *	    vfs_read
 *	    --                         <- with -d: between kernel and user stacks
 *	    burn_loop                  <- user frames, leaf first
 *	    main
 *	    -                fk-burn (17114)     <- "    %-16s %s (%d)", "-", comm, pid
 *	        20                     <- the count
 *
 * Each entry becomes the line `profile -f` prints for it: comm, then the
 * frames root first (user, "-" where the report has "--", kernel), so the
 * result is the profile of bcc's folded output (which may repeat a line for
 * stacks that symbolise alike; the profile sums them). Annotations (-a's
 * "_[k]") and "[Missed User Stack]" placeholders are frames like any other.
 * Lines outside entries that are bcc's own messages are skipped. The comm
 * is a process-name frame and the pid the entry's (profile.h), for the
 * formats that keep processes apart (pprof, speedscope, OTLP).
 */
#include "bcc.h"

#include "perl_text.h"
#include "stack_builder.h"

/* "    -                comm (pid)": the "-" padded to 16, a space, comm,
 * " (", digits, ")". */
static bool match_process(struct span line, struct span *comm, uint32_t *pid)
{
	static const char lead[] = "    -                ";
	size_t n = sizeof(lead) - 1;
	if (line.len < n + 4 || memcmp(line.p, lead, n) != 0 || line.p[line.len - 1] != ')')
		return false;
	size_t k = line.len - 1;
	while (k > n && is_digit((unsigned char)line.p[k - 1]))
		k--;
	if (k == line.len - 1 || k < n + 2 || line.p[k - 1] != '(' || line.p[k - 2] != ' ')
		return false;
	*comm = (struct span){ line.p + n, k - 2 - n };
	uint64_t number = 0;
	for (size_t i = k; i < line.len - 1 && number <= UINT32_MAX; i++)
		number = number * 10 + (uint64_t)(line.p[i] - '0');
	*pid = number <= UINT32_MAX ? (uint32_t)number : 0;
	return true;
}

/* bcc's messages around the report: not data. */
static bool is_bcc_message(struct span line)
{
	static const char *const starts[] = { "Sampling at ", "Tracing ", "WARNING: ",
					      "Hit Ctrl-C", "failed to get syms", NULL };
	for (const char *const *s = starts; *s; s++)
		if (line.len >= strlen(*s) && memcmp(line.p, *s, strlen(*s)) == 0)
			return true;
	return false;
}

int bcc_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line, comm;
	unsigned entries = 0, frames = 0, other = 0;
	uint64_t n;
	uint32_t pid;
	while (next_head_line(&p, end, &line)) {
		if (line.len == 0 || is_bcc_message(line) || perl_count_line(line, &n))
			continue;
		if (match_process(line, &comm, &pid))
			entries++;
		else if (line.len > 4 && memcmp(line.p, "    ", 4) == 0)
			frames++;
		else
			other++;
	}
	if (entries == 0 || other > entries)
		return 0;
	return 90;
}

int bcc_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		     struct profile *profile)
{
	struct stack_builder sb;
	stack_builder__init(&sb, profile);
	bool have_comm = false;
	struct line_stream ls = { inputs, count, 0, 0 };
	struct span line, comm;
	struct profile_key key = { 0 };
	while (line_stream__next(&ls, &line)) {
		uint64_t n;
		if (line.len == 0 || is_bcc_message(line))
			continue;
		if (match_process(line, &comm, &key.pid)) {
			/* the frames so far are leaf first: the comm is the root */
			stack_builder__unshift(&sb, comm.p, comm.len);
			stack_builder__group_kind(&sb, PROFILE_FRAME_PROCESS);
			have_comm = true;
		} else if (have_comm && perl_count_line(line, &n)) {
			/* the pid keeps processes apart for the formats that do */
			stack_builder__commit_keyed(&sb, n, &key);
			have_comm = false;
		} else if (!have_comm && line.len > 4 && memcmp(line.p, "    ", 4) == 0) {
			struct span name = { line.p + 4, line.len - 4 };
			if (span_eq(name, "--"))
				name = (struct span){ "-", 1 }; /* -d: -f prints "-" */
			stack_builder__unshift(&sb, name.p, name.len);
		} else {
			read_context__bad_line(ctx, line_stream__input(&ls), line.p, line.len,
					       "a frame \"    NAME\", \"    -    COMM (PID)\" "
					       "or a count (bcc profile's report)");
		}
	}
	int err = ls.err;
	stack_builder__release(&sb);
	return err;
}
