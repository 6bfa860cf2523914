#include "python.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../bpf/record.h"
#include "../lib/index_table.h"
#include "../lib/pid_table.h"
#include "../lib/xalloc.h"
#include "../symbolize/elf_exports.h"
#include "process_memory.h"
#include "python_layouts.h"

#define NO_OFFSET RECORD_PYTHON_NO_OFFSET
#define MAX_INTERPRETERS 16
#define MAX_THREADS 4096         /* a thread list longer than this is not believed */
#define MAX_NAME_BYTES 1024      /* of a qualname or a file name */
#define MAX_LINETABLE (1 << 20)
#define UNKNOWN_CODE "[unknown:python-code]"  /* a frame whose code could not be read */

/* The start of _PyRuntime from 3.13 on, _Py_DebugOffsets, as 3.13 lays it
 * out: sections of 64-bit offsets, each led by its structure's size. */
struct debug_offsets_313 {
	char cookie[8];
	uint64_t version, free_threaded;
	struct { uint64_t size, finalizing, interpreters_head; } runtime;
	struct { uint64_t size, id, next, threads_head, gc, imports_modules, sysdict, builtins,
		 ceval_gil, gil_runtime_state, gil_enabled, gil_locked, gil_holder; } interp;
	struct { uint64_t size, prev, next, interp, current_frame, thread_id, native_thread_id,
		 datastack_chunk, status; } tstate;
	struct { uint64_t size, previous, executable, instr_ptr, localsplus, owner; } frame;
	struct { uint64_t size, filename, name, qualname, linetable, firstlineno, argcount,
		 localsplusnames, localspluskinds, co_code_adaptive; } code;
	struct { uint64_t size, ob_type; } object;
	struct { uint64_t size, tp_name, tp_repr, tp_flags; } type;
	struct { uint64_t size, ob_item, ob_size; } tuple, list;
	struct { uint64_t size, ma_keys, ma_values; } dict;
	struct { uint64_t size, ob_fval; } float_;
	struct { uint64_t size, lv_tag, ob_digit; } long_;
	struct { uint64_t size, ob_size, ob_sval; } bytes;
	struct { uint64_t size, state, length, asciiobject_size; } unicode;
};

#define PY_OB_TYPE 8              /* PyObject: ob_type, in every version here */
#define PY_TP_BASICSIZE 32        /* PyTypeObject's, stable ABI */
#define PY_TP_MEMBERS 240

/* A code object as read: "qualname (file" and what lines need. */
struct code_info {
	uint64_t address;
	int32_t first_line;
	uint64_t filename, qualname;    /* the str objects it pointed to */
	char *prefix;                   /* NULL: not a code object (any more) */
	uint8_t *linetable;
	size_t linetable_len;
	unsigned generation;            /* read again this often: another object there */
};

/* A named frame word, named from its code's generation. */
struct word_name {
	uint64_t word;
	char *name;
	unsigned generation;
};

/* Looks at a process whose frames or thread states were not what its
 * layout says before it is refused (at the turns interp.c gives a runtime
 * not started: milliseconds apart, then longer). */
#define PYTHON_UNSURE_LOOKS 3

struct py_process {
	uint32_t pid;
	bool attached;
	struct python_layout layout;
	uint64_t runtime, code_type, unicode_type;
	bool own_pid_namespace;         /* tids inside differ from ours */
	unsigned unsure_looks;          /* attaches whose frames or threads looked wrong */
	struct code_info *codes;
	size_t code_count, code_cap;
	struct index_table code_index;
	struct word_name *words;
	size_t word_count, word_cap;
	struct index_table word_index;
	char **retired;                 /* names of words whose code changed */
	size_t retired_count, retired_cap;
};

struct python {
	struct interp_options options;
	int procs_fd, threads_fd;
	struct pid_table processes;
	struct buf scratch;
};

/* --- reading the process ------------------------------------------------ */

static uint64_t read_word(const struct py_process *p, uint64_t address)
{
	return process_memory__word(p->pid, address);
}

/* A str object as UTF-8 into out (reset first); false if it is not one. */
static bool read_unicode(const struct py_process *p, uint64_t object, struct buf *out)
{
	const struct python_layout *l = &p->layout;
	uint8_t header[128];
	uint8_t data[MAX_NAME_BYTES * 4];

	buf__reset(out);
	if (l->unicode_compact_size > sizeof(header) ||
	    process_memory__read(p->pid, object, header, l->unicode_compact_size) < 0)
		return false;
	uint64_t type, length;
	uint32_t state;
	memcpy(&type, header + PY_OB_TYPE, sizeof(type));
	memcpy(&length, header + l->unicode_length, sizeof(length));
	memcpy(&state, header + l->unicode_state, sizeof(state));
	unsigned kind = (state >> 2) & 7, compact = (state >> 5) & 1, ascii = (state >> 6) & 1;
	if ((p->unicode_type && type != p->unicode_type) || !compact ||
	    (kind != 1 && kind != 2 && kind != 4) || length > MAX_NAME_BYTES)
		return false;
	uint64_t at = object + (ascii ? l->unicode_ascii_size : l->unicode_compact_size);
	if (length && process_memory__read(p->pid, at, data, length * kind) < 0)
		return false;
	for (uint64_t i = 0; i < length; i++) {
		uint32_t c = kind == 1 ? data[i] : kind == 2 ? ((uint16_t *)data)[i] :
			((uint32_t *)data)[i];
		char utf8[4];
		size_t n;
		if (c < 0x80) {
			utf8[0] = (char)c, n = 1;
		} else if (c < 0x800) {
			utf8[0] = (char)(0xc0 | c >> 6), utf8[1] = (char)(0x80 | (c & 63)), n = 2;
		} else if (c < 0x10000) {
			utf8[0] = (char)(0xe0 | c >> 12), utf8[1] = (char)(0x80 | ((c >> 6) & 63));
			utf8[2] = (char)(0x80 | (c & 63)), n = 3;
		} else {
			utf8[0] = (char)(0xf0 | (c >> 18 & 7)), utf8[1] = (char)(0x80 | ((c >> 12) & 63));
			utf8[2] = (char)(0x80 | ((c >> 6) & 63)), utf8[3] = (char)(0x80 | (c & 63)), n = 4;
		}
		buf__append(out, utf8, n);
	}
	return true;
}

/* The part of a file name worth showing: below site-packages,
 * dist-packages or lib/pythonX.Y, else the basename. */
static const char *short_file(const char *path)
{
	static const char *const roots[] = { "/site-packages/", "/dist-packages/" };
	const char *best = NULL;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		const char *at = strstr(path, roots[i]);
		for (const char *next; at && (next = strstr(at + 1, roots[i])) != NULL;)
			at = next;
		if (at && (!best || at > best))
			best = at + strlen(roots[i]);
	}
	if (best)
		return best;
	const char *lib = strstr(path, "/lib/python");
	if (lib) {
		const char *slash = strchr(lib + strlen("/lib/python"), '/');
		if (slash && slash[1])
			return slash + 1;
	}
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* --- code objects ------------------------------------------------------- */

static uint64_t code_hash_of(const void *items, size_t index)
{
	return index_table__mix(((const struct code_info *)items)[index].address);
}

static uint64_t word_hash_of(const void *items, size_t index)
{
	return index_table__mix(((const struct word_name *)items)[index].word);
}

/* Reads the code object at address into info (prefix NULL: not one). */
static void read_code(struct python *py, struct py_process *p, uint64_t address,
		      struct code_info *info)
{
	const struct python_layout *l = &p->layout;
	uint8_t code[512];
	struct buf *text = &py->scratch;

	info->address = address;
	/* gone (the process exited): what was read before stays the best
	 * there is, for the frames that named it while it lived */
	if (l->code_bytecode > sizeof(code) ||
	    process_memory__read(p->pid, address, code, l->code_bytecode) < 0)
		return;
	free(info->prefix);
	free(info->linetable);
	*info = (struct code_info){ .address = address, .generation = info->generation + 1 };
	uint64_t type, filename, qualname, linetable;
	memcpy(&type, code + PY_OB_TYPE, sizeof(type));
	memcpy(&filename, code + l->code_filename, sizeof(filename));
	memcpy(&qualname, code + l->code_qualname, sizeof(qualname));
	memcpy(&linetable, code + l->code_linetable, sizeof(linetable));
	memcpy(&info->first_line, code + l->code_firstlineno, sizeof(info->first_line));
	if (type != p->code_type)
		return;  /* freed and something else made there: no name rather than a wrong one */
	info->filename = filename;
	info->qualname = qualname;
	struct buf file = BUF_INIT;
	if (!read_unicode(p, filename, &file) || !read_unicode(p, qualname, text)) {
		buf__free(&file);
		return;
	}
	buf__printf(text, " (%s", short_file(file.data));
	buf__free(&file);
	info->prefix = fk_memdup(text->data, text->len);
	uint64_t size = 0;
	if (py->options.lines && process_memory__read(p->pid, linetable + l->bytes_size,
						      &size, sizeof(size)) == 0 &&
	    size <= MAX_LINETABLE) {
		info->linetable = fk_malloc(size + 1);
		info->linetable_len = size;
		if (process_memory__read(p->pid, linetable + l->bytes_data, info->linetable, size) < 0) {
			free(info->linetable);
			info->linetable = NULL;
			info->linetable_len = 0;
		}
	}
}

/* Whether the code object at info's address is still the one read: the
 * same type, names and first line (a freed one's address is used again). */
static bool code_unchanged(struct py_process *p, const struct code_info *info)
{
	const struct python_layout *l = &p->layout;
	uint8_t code[512];
	uint64_t type, filename, qualname;
	int32_t first_line;

	if (l->code_bytecode > sizeof(code) ||
	    process_memory__read(p->pid, info->address, code, l->code_bytecode) < 0)
		return true;  /* gone: what was read stays the best there is */
	memcpy(&type, code + PY_OB_TYPE, sizeof(type));
	memcpy(&filename, code + l->code_filename, sizeof(filename));
	memcpy(&qualname, code + l->code_qualname, sizeof(qualname));
	memcpy(&first_line, code + l->code_firstlineno, sizeof(first_line));
	return info->prefix ? type == p->code_type && filename == info->filename &&
		qualname == info->qualname && first_line == info->first_line :
		type != p->code_type;
}

/* The code object at address, read now if not known; read again if it is
 * not the one read before, looked at when its first line is not the one the
 * BPF side saw (check: tag + 1, or 0 for none) or with revalidate. */
static const struct code_info *code_at(struct python *py, struct py_process *p,
				       uint64_t address, uint32_t check, bool revalidate)
{
	uint64_t hash = index_table__mix(address);
	size_t slot = index_table__first(&p->code_index, hash);
	for (uint32_t at; (at = p->code_index.slots[slot]) != 0;
	     slot = index_table__next(&p->code_index, slot)) {
		struct code_info *info = &p->codes[at - 1];
		if (info->address != address)
			continue;
		if (((check && ((uint32_t)info->first_line & 0xffff) + 1 != check) || revalidate) &&
		    !code_unchanged(p, info))
			read_code(py, p, address, info);  /* a newer code object there */
		return info;
	}
	p->codes = fk_grow(p->codes, &p->code_cap, p->code_count + 1, sizeof(*p->codes));
	struct code_info *info = &p->codes[p->code_count];
	memset(info, 0, sizeof(*info));
	read_code(py, p, address, info);
	index_table__insert(&p->code_index, slot, p->code_count++, code_hash_of, p->codes);
	return info;
}

static uint64_t read_varint(const uint8_t *t, size_t len, size_t *at)
{
	uint64_t value = 0;
	unsigned shift = 0;
	while (*at < len) {
		uint8_t b = t[(*at)++];
		value |= (uint64_t)(b & 63) << shift;
		shift += 6;
		if (!(b & 64) || shift > 60)
			break;
	}
	return value;
}

static int64_t read_signed_varint(const uint8_t *t, size_t len, size_t *at)
{
	uint64_t u = read_varint(t, len, at);
	return u & 1 ? -(int64_t)(u >> 1) : (int64_t)(u >> 1);
}

/* The line of the instruction `unit` code units into the code: CPython's
 * location table (3.11+: entries of a header byte 1CCCCLLL, LLL+1 units of
 * code C, then C's data); -1 where it has none. */
static int64_t line_at(const struct code_info *info, uint64_t unit)
{
	const uint8_t *t = info->linetable;
	size_t len = info->linetable_len, at = 0;
	int64_t line = info->first_line;
	uint64_t start = 0;

	while (at < len) {
		uint8_t header = t[at++];
		unsigned code = (header >> 3) & 15, units = (header & 7) + 1;
		int64_t delta = 0;
		if (code == 15) {
			delta = 0;
		} else if (code == 14) {
			delta = read_signed_varint(t, len, &at);
			for (int i = 0; i < 3; i++)
				read_varint(t, len, &at);
		} else if (code == 13) {
			delta = read_signed_varint(t, len, &at);
		} else if (code >= 10) {
			delta = code - 10;
			at += 2;
		} else {
			at += 1;
		}
		line += delta;
		if (unit < start + units)
			return code == 15 ? -1 : line;
		start += units;
	}
	return -1;
}

/* --- the runtime's interface -------------------------------------------- */

static bool python_wanted(const struct interp_options *o)
{
	return o->python;
}

static void *python_open(const struct interp_options *o)
{
	struct python *py = fk_calloc(1, sizeof(*py));
	py->options = *o;
	py->procs_fd = o->map_fd ? o->map_fd(o->map_arg, "python_procs") : -1;
	py->threads_fd = o->map_fd ? o->map_fd(o->map_arg, "python_threads") : -1;
	pid_table__init(&py->processes);
	return py;
}

static void free_process(void *record)
{
	struct py_process *p = record;
	for (size_t i = 0; i < p->code_count; i++) {
		free(p->codes[i].prefix);
		free(p->codes[i].linetable);
	}
	free(p->codes);
	index_table__release(&p->code_index);
	for (size_t i = 0; i < p->word_count; i++)
		free(p->words[i].name);
	free(p->words);
	index_table__release(&p->word_index);
	for (size_t i = 0; i < p->retired_count; i++)
		free(p->retired[i]);
	free(p->retired);
	free(p);
}

static void python_close(void *runtime)
{
	struct python *py = runtime;
	pid_table__release(&py->processes, free_process);
	buf__free(&py->scratch);
	free(py);
}

/* A process's own tid for a tid inside its pid namespace (the same
 * without one); 0: no such thread. */
static uint32_t host_tid(const struct py_process *p, uint32_t inner)
{
	char path[320], line[256];

	if (!p->own_pid_namespace)
		return inner;
	snprintf(path, sizeof(path), "/proc/%u/task", p->pid);
	DIR *dir = opendir(path);
	uint32_t found = 0;
	for (struct dirent *d; dir && !found && (d = readdir(dir)) != NULL;) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%u/task/%s/status", p->pid, d->d_name);
		FILE *f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f)) {
			if (strncmp(line, "NSpid:", 6) != 0)
				continue;
			char *last = strrchr(line, '\t');
			if (last && strtoul(last + 1, NULL, 10) == inner)
				found = (uint32_t)strtoul(d->d_name, NULL, 10);
			break;
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return found;
}

static bool in_own_pid_namespace(uint32_t pid)
{
	char path[64], line[256];
	bool nested = false;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "NSpid:", 6) == 0)
			nested = strchr(line + 7, '\t') != NULL;  /* more than one id */
	if (f)
		fclose(f);
	return nested;
}

/* Walks the interpreters' thread lists, telling the BPF side each thread's
 * state; returns how many; -1 when a list is not what the layout says. */
static int fill_threads(struct python *py, struct py_process *p)
{
	const struct python_layout *l = &p->layout;
	uint64_t interp = read_word(p, p->runtime + l->interpreters_head);
	int count = 0;

	for (int i = 0; interp && i < MAX_INTERPRETERS; i++) {
		uint64_t tstate = read_word(p, interp + l->interp_threads_head);
		for (int t = 0; tstate && t < MAX_THREADS; t++) {
			if (read_word(p, tstate + l->tstate_interp) != interp)
				return -1;
			uint32_t native = (uint32_t)read_word(p, tstate + l->tstate_native_id);
			uint32_t tid = native ? host_tid(p, native) : 0;
			struct record_python_thread value = { .tstate = tstate, .native_id = native };
			if (tid && py->threads_fd >= 0)
				bpf_map_update_elem(py->threads_fd, &tid, &value, BPF_ANY);
			count += tid != 0;
			tstate = read_word(p, tstate + l->tstate_next);
		}
		interp = read_word(p, interp + l->interp_next);
	}
	return count;
}

/* The binary of pid that defines _PyRuntime, opened; its name and the
 * load bias of its mapping. -1: none; 0 with *named_python when a file
 * named python is mapped but defines none (a libpython still to come). */
static int find_runtime_binary(uint32_t pid, char *name, size_t name_size, uint64_t *bias,
			       uint64_t values[4], bool *named_python)
{
	static const char *const symbols[] = { "_PyRuntime", "Py_Version", "PyCode_Type",
					       "PyUnicode_Type" };
	char path[96], line[4096];
	int result = -1;

	*named_python = false;
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	FILE *maps = fopen(path, "r");
	uint64_t tried_inode = 0;
	while (maps && result < 0 && fgets(line, sizeof(line), maps)) {
		unsigned long long start, end, offset, inode;
		int file_at = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %llu %n", &start, &end, &offset, &inode,
			   &file_at) < 4 || !file_at || !inode || offset != 0 || inode == tried_inode)
			continue;
		char *file = line + file_at;
		file[strcspn(file, "\n")] = 0;
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		if (strncmp(base, "python", 6) != 0 && strncmp(base, "libpython", 9) != 0)
			continue;
		*named_python = true;
		tried_inode = inode;
		snprintf(path, sizeof(path), "/proc/%u/map_files/%llx-%llx", pid, start, end);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
		if (elf && elf_exports__find(elf, symbols, values, 4) && values[0]) {
			*bias = start - elf_exports__first_load(elf);
			snprintf(name, name_size, "%s", base);
			result = 0;
		}
		if (elf)
			elf_end(elf);
		if (fd >= 0)
			close(fd);
	}
	if (maps)
		fclose(maps);
	return result;
}

static bool version_known(const struct python *py, unsigned minor)
{
	const char *known = py->options.known_versions;
	char want[16];

	if (!known)
		return true;
	snprintf(want, sizeof(want), "3.%u", minor);
	for (const char *at = known; (at = strstr(at, want)) != NULL; at++) {
		char after = at[strlen(want)];
		if ((at == known || at[-1] == ',') && (after == 0 || after == ','))
			return true;
	}
	return false;
}

/* 3.13+: the layout from _Py_DebugOffsets; false (why set) if it is not
 * what 3.13 publishes. */
static bool layout_from_debug_offsets(struct py_process *p, unsigned minor, struct buf *why,
				      const char *binary)
{
	struct debug_offsets_313 d;
	struct python_layout *l = &p->layout;

	if (process_memory__read(p->pid, p->runtime, &d, sizeof(d)) < 0 ||
	    memcmp(d.cookie, "xdebugpy", 8) != 0) {
		buf__printf(why, "are in CPython 3.%u (%s), whose _PyRuntime does not begin with "
			    "its debug offsets", minor, binary);
		return false;
	}
	if (((d.version >> 16) & 0xff) != minor || minor != 13) {
		buf__printf(why, "are in CPython 3.%u (%s): flamekit reads the debug offsets of "
			    "CPython 3.13 only", minor, binary);
		return false;
	}
	if (d.free_threaded) {
		buf__printf(why, "are in a free-threaded CPython 3.%u (%s), whose frames "
			    "flamekit does not walk", minor, binary);
		return false;
	}
	*l = (struct python_layout){
		.minor = minor, .interpreters_head = d.runtime.interpreters_head,
		.interp_next = d.interp.next, .interp_threads_head = d.interp.threads_head,
		.tstate_next = d.tstate.next, .tstate_interp = d.tstate.interp,
		.tstate_native_id = d.tstate.native_thread_id,
		.tstate_frame = d.tstate.current_frame, .cframe_frame = NO_OFFSET,
		.frame_code = d.frame.executable, .frame_previous = d.frame.previous,
		.frame_instr = d.frame.instr_ptr, .frame_is_entry = NO_OFFSET,
		.frame_owner = d.frame.owner, .owner_cstack = 3,
		.code_filename = d.code.filename, .code_qualname = d.code.qualname,
		.code_firstlineno = d.code.firstlineno, .code_linetable = d.code.linetable,
		.code_bytecode = d.code.co_code_adaptive,
		.unicode_length = d.unicode.length, .unicode_state = d.unicode.state,
		.unicode_ascii_size = d.unicode.asciiobject_size,
		/* PyCompactUnicodeObject: utf8_length and utf8 after the ASCII header */
		.unicode_compact_size = d.unicode.asciiobject_size + 16,
		.bytes_size = d.bytes.ob_size, .bytes_data = d.bytes.ob_sval,
	};
	return true;
}

/* The code object's field offsets against PyCode_Type's own member list
 * and size: the layout's, or false with why. */
static bool check_code_layout(struct py_process *p, struct buf *why, const char *binary)
{
	const struct python_layout *l = &p->layout;
	struct { const char *name; uint64_t offset; } fields[] = {
		{ "co_filename", l->code_filename }, { "co_qualname", l->code_qualname },
		{ "co_firstlineno", l->code_firstlineno }, { "co_linetable", l->code_linetable },
	};
	size_t checked = 0;
	uint64_t basic_size = read_word(p, p->code_type + PY_TP_BASICSIZE);
	uint64_t members = read_word(p, p->code_type + PY_TP_MEMBERS);

	if (basic_size != l->code_bytecode) {
		buf__printf(why, "are in CPython 3.%u (%s), whose code objects are %" PRIu64
			    " bytes where flamekit expects %" PRIu64 ": an unknown layout",
			    l->minor, binary, basic_size, l->code_bytecode);
		return false;
	}
	/* PyMemberDef: name, type (int), offset, flags (int), doc: 40 bytes */
	for (int i = 0; members && i < 64; i++) {
		uint64_t member[5];
		char name[32] = "";
		if (process_memory__read(p->pid, members + 40 * (uint64_t)i, member, sizeof(member)) < 0 ||
		    !member[0])
			break;
		process_memory__read(p->pid, member[0], name, sizeof(name) - 1);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			if (strcmp(name, fields[f].name) != 0)
				continue;
			if (member[2] != fields[f].offset) {
				buf__printf(why, "are in CPython 3.%u (%s), whose %s is at %" PRIu64
					    " where flamekit expects %" PRIu64 ": an unknown layout",
					    l->minor, binary, name, member[2], fields[f].offset);
				return false;
			}
			checked++;
		}
	}
	if (checked != sizeof(fields) / sizeof(fields[0])) {
		buf__printf(why, "are in CPython 3.%u (%s), whose code type does not list its "
			    "fields as flamekit expects", l->minor, binary);
		return false;
	}
	return true;
}

/* Threads running Python now: their frame's code object must be one.
 * false (why set) when a frame's is not. */
static bool check_frames(struct py_process *p, struct buf *why, const char *binary)
{
	const struct python_layout *l = &p->layout;
	uint64_t interp = read_word(p, p->runtime + l->interpreters_head);
	uint64_t tstate = read_word(p, interp + l->interp_threads_head);
	int bad = 0, good = 0;

	for (int t = 0; tstate && t < 64; t++) {
		uint64_t frame = read_word(p, tstate + l->tstate_frame);
		if (frame && l->cframe_frame != NO_OFFSET)
			frame = read_word(p, frame + l->cframe_frame);
		for (int depth = 0; frame && depth < 4; depth++) {
			uint8_t owner = 0;
			process_memory__read(p->pid, frame + l->frame_owner, &owner, 1);
			uint64_t code = read_word(p, frame + l->frame_code);
			if (owner != l->owner_cstack) {
				if (read_word(p, code + PY_OB_TYPE) == p->code_type)
					good++;
				else
					bad++;
			}
			frame = read_word(p, frame + l->frame_previous);
		}
		tstate = read_word(p, tstate + l->tstate_next);
	}
	/* a frame may change while read; a layout that is wrong is wrong in all */
	if (bad && !good) {
		buf__printf(why, "are in CPython 3.%u (%s), whose frames do not hold code objects "
			    "where flamekit expects them: an unknown layout", l->minor, binary);
		return false;
	}
	return true;
}

static void tell_bpf(struct python *py, struct py_process *p)
{
	const struct python_layout *l = &p->layout;
	struct record_python_proc value = {
		.version = 0x0300 | l->minor,
		.tstate_frame = (__u16)l->tstate_frame,
		.cframe_frame = (__u16)l->cframe_frame,
		.tstate_native_id = (__u16)l->tstate_native_id,
		.frame_code = (__u16)l->frame_code,
		.frame_previous = (__u16)l->frame_previous,
		.frame_instr = (__u16)l->frame_instr,
		.frame_is_entry = (__u16)l->frame_is_entry,
		.frame_owner = (__u16)l->frame_owner,
		.code_firstlineno = (__u16)l->code_firstlineno,
		.code_bytecode = (__u16)l->code_bytecode,
		.owner_cstack = (__u8)l->owner_cstack,
	};
	if (py->procs_fd >= 0)
		bpf_map_update_elem(py->procs_fd, &p->pid, &value, BPF_ANY);
}

static enum interp_attach python_attach(void *runtime, uint32_t pid, struct buf *why)
{
	struct python *py = runtime;
	char binary[256];
	uint64_t bias = 0, values[4];
	bool named_python;

	if (find_runtime_binary(pid, binary, sizeof(binary), &bias, values, &named_python) < 0)
		return named_python ? INTERP_LATER : INTERP_NOT_MINE;
	struct py_process *p = pid_table__get(&py->processes, pid, sizeof(*p), NULL);
	if (!p->code_index.slots) {
		index_table__init(&p->code_index, 256);
		index_table__init(&p->word_index, 256);
	}
	p->attached = false;
	p->runtime = bias + values[0];
	p->code_type = values[2] ? bias + values[2] : 0;
	p->unicode_type = values[3] ? bias + values[3] : 0;
	uint64_t version = values[1] ? read_word(p, bias + values[1]) : 0;
	unsigned major = (unsigned)(version >> 24) & 0xff, minor = (unsigned)(version >> 16) & 0xff;
	if (!values[1] || major != 3 || minor < 11) {
		const char *digits = strpbrk(binary, "0123456789");
		buf__printf(why, "are in CPython %.*s (%s): flamekit names the frames of CPython "
			    "3.11 and later", digits ? (int)strspn(digits, "0123456789.") : 1,
			    digits ? digits : "?", binary);
		return INTERP_REFUSED;
	}
	if (!version_known(py, minor)) {
		buf__printf(why, "are in CPython 3.%u (%s), not among FLAMEKIT_PYTHON_KNOWN=%s",
			    minor, binary, py->options.known_versions);
		return INTERP_REFUSED;
	}
	if (minor >= 13) {
		if (!layout_from_debug_offsets(p, minor, why, binary))
			return INTERP_REFUSED;
	} else {
		p->layout = python_known_layouts[minor - 11];
	}
	if (!p->code_type) {
		buf__printf(why, "are in CPython 3.%u (%s), which does not export PyCode_Type",
			    minor, binary);
		return INTERP_REFUSED;
	}
	if (!read_word(p, p->runtime + p->layout.interpreters_head))
		return INTERP_LATER;  /* not initialised yet */
	if (!check_code_layout(p, why, binary))
		return INTERP_REFUSED;
	/* Frames and thread states change while they are read (a frame pushed
	 * as its code is set, a thread being made): what looks wrong once is
	 * looked at again later; a layout that is wrong stays wrong. */
	p->own_pid_namespace = in_own_pid_namespace(pid);
	int threads = check_frames(p, why, binary) ? fill_threads(py, p) : -2;
	if (threads == -1)
		buf__printf(why, "are in CPython 3.%u (%s), whose thread states do not point back "
			    "to their interpreter where flamekit expects: an unknown layout",
			    minor, binary);
	if (threads < 0)
		return ++p->unsure_looks < PYTHON_UNSURE_LOOKS ? INTERP_LATER : INTERP_REFUSED;
	if (threads == 0)
		return INTERP_LATER;  /* no thread yet */
	tell_bpf(py, p);
	p->attached = true;
	return INTERP_ATTACHED;
}

static void python_detach(void *runtime, uint32_t pid)
{
	struct python *py = runtime;
	struct py_process *p = pid_table__get(&py->processes, pid, 0, NULL);

	if (p)
		p->attached = false;
	if (py->procs_fd >= 0)
		bpf_map_delete_elem(py->procs_fd, &pid);
}

/* The name of a frame word (a code address and tag), made once per
 * generation of its code; revalidate: check that the code object there is
 * still the one read (when a new stack has just been seen with it). */
static const char *word_name(struct python *py, struct py_process *p, uint64_t word,
			     bool revalidate)
{
	uint64_t address = word & RECORD_PYTHON_ADDRESS_MASK;
	uint32_t tag = (uint32_t)(word >> RECORD_PYTHON_TAG_SHIFT);
	const struct code_info *info = code_at(py, p, address, py->options.lines || !tag ? 0 :
					       tag + 1, revalidate);
	uint64_t hash = index_table__mix(word);
	size_t slot = index_table__first(&p->word_index, hash);
	struct word_name *named = NULL;
	for (uint32_t at; (at = p->word_index.slots[slot]) != 0;
	     slot = index_table__next(&p->word_index, slot)) {
		if (p->words[at - 1].word == word) {
			named = &p->words[at - 1];
			break;
		}
	}
	if (named && named->generation == info->generation)
		return named->name;
	/* no code object there now (freed as the process winds down, its
	 * memory reused; a late event's re-read meets that): the name read
	 * while it lived stays */
	if (named && !info->prefix && strcmp(named->name, UNKNOWN_CODE) != 0)
		return named->name;
	/* a word of the code object that was at this address before the one
	 * read now (its first line is not the word's): its name was right */
	if (named && !py->options.lines && tag && ((uint32_t)info->first_line & 0xffff) != tag)
		return named->name;

	struct buf name = BUF_INIT;
	/* tag 0: the BPF side could not read the first line (the code
	 * object's page was not in memory then): not a guard */
	if (!info->prefix || (!py->options.lines && tag &&
			      ((uint32_t)info->first_line & 0xffff) != tag)) {
		buf__printf(&name, UNKNOWN_CODE);
	} else if (py->options.lines) {
		int64_t line = tag == RECORD_PYTHON_NO_OFFSET ? -1 : line_at(info, tag);
		if (line >= 0)
			buf__printf(&name, "%s:%" PRId64 ")", info->prefix, line);
		else
			buf__printf(&name, "%s)", info->prefix);
	} else {
		buf__printf(&name, "%s)", info->prefix);
	}
	if (named) {  /* the old name stays valid: a profile may hold it */
		p->retired = fk_grow(p->retired, &p->retired_cap, p->retired_count + 1,
				     sizeof(*p->retired));
		p->retired[p->retired_count++] = named->name;
		named->name = name.data;
		named->generation = info->generation;
		return name.data;
	}
	p->words = fk_grow(p->words, &p->word_cap, p->word_count + 1, sizeof(*p->words));
	p->words[p->word_count] = (struct word_name){ word, name.data, info->generation };
	index_table__insert(&p->word_index, slot, p->word_count++, word_hash_of, p->words);
	return name.data;
}

static bool python_event(void *runtime, const void *data, size_t size)
{
	struct python *py = runtime;
	struct record_interp_event e;

	if (size < offsetof(struct record_interp_event, hash))
		return false;
	memcpy(&e, data, size < sizeof(e) ? size : sizeof(e));
	struct py_process *p = pid_table__get(&py->processes, e.pid, 0, NULL);
	if (!p || !p->attached)
		return true;
	if (e.kind == RECORD_INTERP_THREAD) {
		fill_threads(py, p);
	} else if (e.kind == RECORD_INTERP_STACK &&
		   size >= offsetof(struct record_interp_event, stack.ips)) {
		size_t depth = (size - offsetof(struct record_interp_event, stack.ips)) / sizeof(__u64);
		if (depth > e.stack.depth)
			depth = e.stack.depth;
		for (size_t i = 0; i < depth; i++)
			if (e.stack.ips[i] >= RECORD_PYTHON_MARKERS)
				word_name(py, p, e.stack.ips[i], true);
	}
	return true;
}

static struct interp_frame python_name_frame(void *runtime, uint32_t pid, uint64_t word)
{
	struct python *py = runtime;

	switch (word) {
	case RECORD_PYTHON_ENTRY:
		return (struct interp_frame){ NULL, false, false };
	case RECORD_PYTHON_DEEP:
		return (struct interp_frame){ "[python: deeper frames not kept]", true, false };
	case RECORD_PYTHON_LOOP:
		return (struct interp_frame){ "[python: frame chain loops]", true, false };
	case RECORD_PYTHON_UNREADABLE:
		return (struct interp_frame){ "[python: frame unreadable]", true, false };
	}
	struct py_process *p = pid_table__get(&py->processes, pid, 0, NULL);
	const char *name = p && word >= RECORD_PYTHON_MARKERS ? word_name(py, p, word, false) : NULL;
	if (!name || strcmp(name, UNKNOWN_CODE) == 0)
		return (struct interp_frame){ UNKNOWN_CODE, false, true };
	return (struct interp_frame){ name, false, false };
}

static bool python_runs_frames(const char *name)
{
	static const char loop[] = "_PyEval_EvalFrameDefault";
	size_t n = sizeof(loop) - 1;
	/* its .cold part (GCC's split of unlikely code) too */
	return strncmp(name, loop, n) == 0 && (name[n] == 0 || name[n] == '.');
}

const struct interp_runtime python_runtime = {
	.name = "python",
	.wanted = python_wanted,
	.open = python_open,
	.close = python_close,
	.attach = python_attach,
	.detach = python_detach,
	.event = python_event,
	.name_frame = python_name_frame,
	.runs_frames = python_runs_frames,
};
