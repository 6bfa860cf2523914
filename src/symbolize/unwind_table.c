#include "unwind_table.h"

#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"
#include "../lib/pages.h"
#include "../lib/upper_bound.h"
#include "../lib/xalloc.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16

/* .eh_frame_hdr's pointer encodings GNU ld writes (DW_EH_PE_*). */
#define PE_UDATA4 0x03
#define PE_SDATA4 0x0b
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

/* Rows a builder writing to a file holds before writing them. */
#define BUILDER_BLOCK 8192

struct builder {
	struct record_unwind_row *rows;  /* all of them, or (fd) those not written yet */
	size_t count, cap;
	int fd;                    /* -1: rows kept in memory; else written here, in blocks */
	uint64_t written;          /* rows written to fd */
	int write_err;             /* errno of a failed write */
	bool too_far;              /* an address beyond 32 bits: no table */
};

/* Writes the rows held but the last (which the next may still replace),
 * or all of them (last). */
static void write_rows(struct builder *b, bool last)
{
	size_t n = last ? b->count : b->count - 1;
	if (!b->write_err)
		b->write_err = cache_dir__write_all(b->fd, b->rows, n * sizeof(*b->rows));
	b->written += n;
	memmove(b->rows, b->rows + n, (b->count - n) * sizeof(*b->rows));
	b->count -= n;
}

static void add_row(struct builder *b, uint64_t pc, uint8_t kind, int16_t cfa_off,
		    int8_t rbp_off)
{
	if (pc > UINT32_MAX) {
		b->too_far = true;
		return;
	}
	if (b->count > 0) {
		struct record_unwind_row *last = &b->rows[b->count - 1];
		if (last->kind == kind && last->cfa_off == cfa_off && last->rbp_off == rbp_off)
			return;  /* the same rule goes on */
		if (last->pc == pc) {  /* an empty range: the new rule replaces it */
			*last = (struct record_unwind_row){ (__u32)pc, cfa_off, kind, rbp_off };
			return;
		}
	}
	if (b->fd >= 0 && b->count == BUILDER_BLOCK)
		write_rows(b, false);
	b->rows = fk_grow(b->rows, &b->cap, b->count + 1, sizeof(*b->rows));
	b->rows[b->count++] = (struct record_unwind_row){ (__u32)pc, cfa_off, kind, rbp_off };
}

/* Is ops "CFA + off" (libdw's form of a register's offset(N) rule)? */
static bool at_cfa_plus(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		*off = 0;
		return true;
	}
	if (nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return true;
	}
	return false;
}

/*
 * Is ops GNU ld's CFA rule for .plt entries, rsp + N, plus 8 from the
 * entry's push on: rsp + N + ((rip & 15) >= P ? 8 : 0), written
 * breg7 N; breg16 0; lit15; and; litP; ge; lit3; shl; plus?
 */
static bool plt_rule(const Dwarf_Op *ops, size_t nops, int64_t *cfa, uint8_t *push_at)
{
	static const uint8_t form[] = { DW_OP_breg7, DW_OP_breg16, DW_OP_lit15, DW_OP_and, 0,
					DW_OP_ge, DW_OP_lit3, DW_OP_shl, DW_OP_plus };

	if (nops != sizeof(form))
		return false;
	for (size_t i = 0; i < nops; i++)
		if (i != 4 && ops[i].atom != form[i])
			return false;
	if (ops[1].number != 0 || ops[4].atom < DW_OP_lit0 || ops[4].atom > DW_OP_lit15)
		return false;
	*cfa = (int64_t)ops[0].number;
	*push_at = (uint8_t)(ops[4].atom - DW_OP_lit0);
	return true;
}

/* The row for frame's rule, as record_unwind_row's fields. */
static void frame_rule(Dwarf_Frame *frame, bool signal, uint8_t *kind, int16_t *cfa_off,
		       int8_t *rbp_off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int64_t off;

	*kind = RECORD_UNWIND_FALLBACK;
	*cfa_off = 0;
	*rbp_off = 0;
	if (signal)
		return;  /* the caller's registers are in a ucontext */
	if (dwarf_frame_register(frame, REG_RA, mem, &ops, &nops) != 0)
		return;
	if (nops == 0 && ops == mem) {  /* undefined: the outermost frame */
		*kind = RECORD_UNWIND_END;
		return;
	}
	if (!at_cfa_plus(ops, nops, &off) || off != -8)
		return;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0)
		return;
	uint8_t k, plt_push = 0;
	int64_t cfa;
	if (plt_rule(ops, nops, &cfa, &plt_push)) {
		k = RECORD_UNWIND_CFA_PLT;
	} else if (nops == 1 && ops[0].atom == DW_OP_bregx &&
		   (ops[0].number == REG_RSP || ops[0].number == REG_RBP)) {
		k = ops[0].number == REG_RSP ? RECORD_UNWIND_CFA_RSP : RECORD_UNWIND_CFA_RBP;
		cfa = (int64_t)ops[0].number2;
	} else {
		return;
	}
	if (cfa < INT16_MIN || cfa > INT16_MAX)
		return;
	if (dwarf_frame_register(frame, REG_RBP, mem, &ops, &nops) != 0)
		return;
	if (nops == 0 && ops == NULL) {
		*rbp_off = (int8_t)plt_push;  /* rbp untouched; a PLT row's field is its push */
	} else if (nops == 0 || k == RECORD_UNWIND_CFA_PLT) {
		return;  /* undefined rbp: the walk could not go on by rbp */
	} else if (at_cfa_plus(ops, nops, &off) && off % 8 == 0 && off / 8 >= INT8_MIN &&
		   off / 8 <= INT8_MAX) {
		k |= RECORD_UNWIND_RBP_SAVED;
		*rbp_off = (int8_t)(off / 8);
	} else {
		return;
	}
	*kind = k;
	*cfa_off = (int16_t)cfa;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t strings;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &strings) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n = gelf_getshdr(scn, shdr) ? elf_strptr(elf, strings, shdr->sh_name) : NULL;
		if (n && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The FDEs' first addresses, sorted, from .eh_frame_hdr's search table;
 * 0 when it is not there or not in GNU ld's encoding. */
static size_t fde_starts(Elf *elf, uint64_t **out)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section(elf, ".eh_frame_hdr", &shdr);
	/* lld types it SHT_X86_64_UNWIND (clang, LLVM), GNU ld SHT_PROGBITS */
	Elf_Data *data = scn && (shdr.sh_type == SHT_PROGBITS || shdr.sh_type == SHT_X86_64_UNWIND) ?
		elf_getdata(scn, NULL) : NULL;
	const uint8_t *p = data ? data->d_buf : NULL;

	*out = NULL;
	if (!p || data->d_size < 12 || p[0] != 1)
		return 0;
	/* eh_frame_ptr (4 bytes in the encodings GNU ld uses), fde_count, table */
	if ((p[1] & 0x0f) != PE_SDATA4 && (p[1] & 0x0f) != PE_UDATA4)
		return 0;
	if (p[2] != PE_UDATA4 || p[3] != (PE_DATAREL | PE_SDATA4))
		return 0;
	uint32_t count;
	memcpy(&count, p + 8, sizeof(count));
	if ((uint64_t)count * 8 > data->d_size - 12)
		return 0;
	uint64_t *starts = fk_calloc(count ? count : 1, sizeof(*starts));
	for (uint32_t i = 0; i < count; i++) {
		int32_t rel;
		memcpy(&rel, p + 12 + (size_t)i * 8, sizeof(rel));
		starts[i] = shdr.sh_addr + (int64_t)rel;
	}
	qsort(starts, count, sizeof(*starts), compare_u64);  /* sorted already, by the format */
	*out = starts;
	return count;
}

/* FDEs read between two fresh starts of libdw's CFI: it keeps every FDE
 * it has read until dwarf_cfi_end(), 3 MB of them for cc1's table, and
 * the walk never goes back to one it has passed. */
#define FDES_PER_CFI 1024

/* Does libdw find FDEs through .eh_frame_hdr's table? Only when it meets
 * .eh_frame_hdr before .eh_frame among the sections (GNU ld's order; lld
 * puts it after, as in libLLVM): otherwise it reads .eh_frame from its
 * start up to the FDE asked for, keeping each FDE it reads, and a fresh
 * start (FDES_PER_CFI) would read it all again: libLLVM's table took 43 s
 * instead of 0.2. */
static bool libdw_searches(Elf *elf)
{
	GElf_Shdr shdr;
	Elf_Scn *header = find_section(elf, ".eh_frame_hdr", &shdr);
	Elf_Scn *frames = find_section(elf, ".eh_frame", &shdr);
	return header && (!frames || elf_ndxscn(header) < elf_ndxscn(frames));
}

/* Where .eh_frame and .eh_frame_hdr are in elf's image, when that is a
 * mapping of its file (ELF_C_READ_MMAP), whose pages may be dropped; none
 * when libelf read the file into memory, or copied a section. */
struct frame_pages {
	const void *bytes[2];
	size_t size[2];
};

static void find_frame_pages(Elf *elf, struct frame_pages *out)
{
	static const char *const names[] = { ".eh_frame", ".eh_frame_hdr" };
	size_t image_size;
	const char *image = elf_rawfile(elf, &image_size);

	*out = (struct frame_pages){ { NULL, NULL }, { 0, 0 } };
	if (!image || !pages__in_file_mapping(image))
		return;
	for (size_t i = 0; i < 2; i++) {
		GElf_Shdr shdr;
		Elf_Scn *scn = find_section(elf, names[i], &shdr);
		Elf_Data *data = scn ? elf_rawdata(scn, NULL) : NULL;
		if (data && (const char *)data->d_buf >= image &&
		    (const char *)data->d_buf + data->d_size <= image + image_size) {
			out->bytes[i] = data->d_buf;
			out->size[i] = data->d_size;
		}
	}
}

/* Drops the pages of .eh_frame and .eh_frame_hdr read so far from our
 * resident set (pages.h): the walk goes on past them (a read faults in the
 * few it needs again), and libLLVM's are 5.6 MB. */
static void give_back_frame_pages(const struct frame_pages *pages)
{
	for (size_t i = 0; i < 2; i++)
		if (pages->size[i])
			pages__give_back(pages->bytes[i], pages->size[i]);
}

/* Builds elf's rows into b (kept, or written to b->fd): 0, or -1 when it
 * has no table this can read. */
static int build(Elf *elf, struct builder *b)
{
	uint64_t *starts;
	size_t count = fde_starts(elf, &starts), read = 0;
	Dwarf_CFI *cfi = count ? dwarf_getcfi_elf(elf) : NULL;

	if (!cfi) {
		free(starts);
		return -1;
	}
	uint64_t addr = starts[0];
	size_t next = 0;  /* the first FDE start not yet passed */
	bool start_afresh = libdw_searches(elf);
	struct frame_pages pages;
	find_frame_pages(elf, &pages);
	while (!b->too_far && cfi) {
		while (next < count && starts[next] <= addr)
			next++;
		if (++read % FDES_PER_CFI == 0) {
			give_back_frame_pages(&pages);
			if (start_afresh) {
				dwarf_cfi_end(cfi);
				if (!(cfi = dwarf_getcfi_elf(elf)))
					break;
			}
		}
		Dwarf_Frame *frame;
		Dwarf_Addr start, end;
		bool signal;
		if (dwarf_cfi_addrframe(cfi, addr, &frame) == 0) {
			uint8_t kind;
			int16_t cfa_off;
			int8_t rbp_off;
			if (dwarf_frame_info(frame, &start, &end, &signal) < 0 || end <= addr) {
				free(frame);
				frame = NULL;
			} else {
				frame_rule(frame, signal, &kind, &cfa_off, &rbp_off);
				add_row(b, addr, kind, cfa_off, rbp_off);
				free(frame);
				addr = end;
				continue;
			}
		}
		/* a gap, or CFI libdw could not read: no rule up to the next FDE */
		add_row(b, addr, RECORD_UNWIND_NO_CFI, 0, 0);
		if (next >= count)
			break;
		addr = starts[next];
	}
	free(starts);
	give_back_frame_pages(&pages);
	if (!cfi)
		return -1;
	dwarf_cfi_end(cfi);
	if (b->fd >= 0 && b->count)
		write_rows(b, true);
	return b->too_far || b->written + b->count == 0 ? -1 : 0;
}

int unwind_table__build(Elf *elf, struct unwind_table *out)
{
	struct builder b = { .fd = -1 };

	*out = (struct unwind_table){ NULL, 0, -1 };
	if (build(elf, &b) < 0) {
		free(b.rows);
		return -1;
	}
	out->rows = b.rows;
	out->count = b.count;
	return 0;
}

_Static_assert(offsetof(struct record_unwind_row, pc) == 0, "upper_bound() keys lead their elements");

const struct record_unwind_row *unwind_table__row(const struct unwind_table *t, uint32_t own)
{
	size_t below = upper_bound(t->rows, t->count, sizeof(*t->rows), sizeof(t->rows->pc), own);
	return below ? &t->rows[below - 1] : NULL;
}

void unwind_table__release(struct unwind_table *t)
{
	free(t->rows);
	if (t->fd >= 0)
		close(t->fd);
	t->rows = NULL;
	t->count = 0;
	t->fd = -1;
}

/* A cache file's first bytes; the row count follows, then the rows. The
 * version changes with the rows' form (record.h). */
static const char cache_magic[16] = "flamekit-unw-v2";

/* The cache file of elf's table: DIR/BUILD-ID (hex), or NULL without a build id. */
static char *cache_path(Elf *elf, const char *dir)
{
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);
	struct buf path = BUF_INIT;

	if (len <= 0)
		return NULL;
	buf__printf(&path, "%s/", dir);
	for (ssize_t i = 0; i < len; i++)
		buf__printf(&path, "%02x", ((const unsigned char *)id)[i]);
	return path.data;
}

/* The file's bytes before the rows: the magic and the row count. */
#define CACHE_HEADER (sizeof(cache_magic) + sizeof(uint64_t))

/* The cache file at path, opened, its header checked and its size the
 * rows' it counts (*count): the fd, or -1 (not there, or not whole). */
static int open_cached(const char *path, uint64_t *count)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	char header[CACHE_HEADER];
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && pread(fd, header, sizeof(header), 0) == (ssize_t)sizeof(header) &&
	    memcmp(header, cache_magic, sizeof(cache_magic)) == 0) {
		memcpy(count, header + sizeof(cache_magic), sizeof(*count));
		if (*count > 0 && *count <= (1u << 28) &&
		    (uint64_t)st.st_size == CACHE_HEADER + *count * sizeof(struct record_unwind_row)) {
			cache_dir__used(fd);
			return fd;
		}
	}
	close(fd);
	return -1;
}

static int find_cached(const char *path, struct unwind_table *out)
{
	uint64_t count;
	int fd = open_cached(path, &count);

	if (fd < 0)
		return -1;
	*out = (struct unwind_table){ NULL, count, fd };
	return 0;
}

int unwind_table__read(const struct unwind_table *t, size_t first, struct record_unwind_row *into,
		       size_t n)
{
	if (first > t->count || n > t->count - first)
		return -1;
	if (t->rows) {
		memcpy(into, t->rows + first, n * sizeof(*into));
		return 0;
	}
	ssize_t want = (ssize_t)(n * sizeof(*into));
	return pread(t->fd, into, (size_t)want, (off_t)(CACHE_HEADER + first * sizeof(*into))) ==
		want ? 0 : -1;
}

/* Builds elf's table into the cache's file at path, a block of rows at a
 * time (libz3's 3 MB of rows were held whole before), and opens it there:
 * 0, 1 when the binary has no table (the file is not made), or -1 when
 * the file could not be written. */
static int build_cached(Elf *elf, const char *path, struct unwind_table *out)
{
	struct cache_write w;
	uint64_t count = 0;

	if (cache_dir__begin_file(path, &w) < 0)
		return -1;
	struct builder b = { .fd = w.fd };
	b.write_err = cache_dir__write_all(w.fd, cache_magic, sizeof(cache_magic));
	if (!b.write_err)
		b.write_err = cache_dir__write_all(w.fd, &count, sizeof(count));
	int built = build(elf, &b);
	free(b.rows);
	count = b.written;
	if (!built && !b.write_err &&
	    pwrite(w.fd, &count, sizeof(count), sizeof(cache_magic)) != (ssize_t)sizeof(count))
		b.write_err = errno ? errno : EIO;
	if (cache_dir__end_file(&w, built < 0 ? ENOENT : b.write_err) < 0)
		return built < 0 ? 1 : -1;
	return find_cached(path, out);
}

/* A block's first pc not read yet (no row starts there: the last address
 * of a 4 GB image). */
#define FIRST_UNKNOWN UINT32_MAX

int unwind_table_file__open(Elf *elf, const char *cache_dir, struct unwind_table_file *out)
{
	char *path = cache_dir ? cache_path(elf, cache_dir) : NULL;
	uint64_t count;
	int fd = open_cached(path, &count);

	free(path);
	out->fd = -1;
	out->block_first = NULL;
	if (fd < 0)
		return -1;
	out->fd = fd;
	out->count = count;
	out->blocks = (count + UNWIND_FILE_BLOCK - 1) / UNWIND_FILE_BLOCK;
	out->block_first = fk_malloc(out->blocks * sizeof(*out->block_first));
	for (size_t k = 0; k < out->blocks; k++)
		out->block_first[k] = FIRST_UNKNOWN;
	out->block = SIZE_MAX;
	return 0;
}

/* Block k's first pc into *pc, read now if it was not: false if it cannot be. */
static bool block_first(struct unwind_table_file *f, size_t k, uint32_t *pc)
{
	if (f->block_first[k] == FIRST_UNKNOWN) {
		struct record_unwind_row row;
		off_t at = (off_t)(CACHE_HEADER + k * UNWIND_FILE_BLOCK * sizeof(row));
		if (pread(f->fd, &row, sizeof(row), at) != (ssize_t)sizeof(row))
			return false;
		f->block_first[k] = row.pc;
	}
	*pc = f->block_first[k];
	return true;
}

bool unwind_table_file__row(struct unwind_table_file *f, uint32_t own,
			    struct record_unwind_row *row)
{
	size_t below = 0, above = f->blocks;  /* blocks [0, below) start at or below own */
	while (below < above) {
		size_t mid = below + (above - below) / 2;
		uint32_t first;
		if (!block_first(f, mid, &first))
			return false;
		if (first <= own)
			below = mid + 1;
		else
			above = mid;
	}
	if (below == 0)
		return false;
	size_t block = below - 1, first = block * UNWIND_FILE_BLOCK;  /* the last starting at or below */
	size_t rows = f->count - first < UNWIND_FILE_BLOCK ? f->count - first : UNWIND_FILE_BLOCK;
	if (f->block != block) {
		ssize_t want = (ssize_t)(rows * sizeof(*f->rows));
		f->block = SIZE_MAX;
		if (pread(f->fd, f->rows, (size_t)want,
			  (off_t)(CACHE_HEADER + first * sizeof(*f->rows))) != want)
			return false;
		f->block = block;
	}
	const struct record_unwind_row *found = unwind_table__row(
		&(struct unwind_table){ f->rows, rows, -1 }, own);
	if (!found)
		return false;
	*row = *found;
	return true;
}

void unwind_table_file__close(struct unwind_table_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->block_first);
	f->fd = -1;
	f->block_first = NULL;
}

int unwind_table__get(Elf *elf, const char *cache_dir, struct unwind_table *out)
{
	char *path = cache_dir ? cache_path(elf, cache_dir) : NULL;
	int err = path ? find_cached(path, out) : -1;

	if (err && path)
		err = build_cached(elf, path, out);
	if (err < 0)  /* (no cache, or its file could not be written) */
		err = unwind_table__build(elf, out);
	free(path);
	return err ? -1 : 0;
}
