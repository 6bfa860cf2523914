/*
 * Where CPython keeps what record reads, per version (bytes into each
 * structure), for the versions that do not publish it themselves. Included
 * by python.c, and by tests/python_layouts.c, which compiles it against
 * CPython's own internal headers and compares with offsetof().
 */
#ifndef FLAMEKIT_INTERP_PYTHON_LAYOUTS_H
#define FLAMEKIT_INTERP_PYTHON_LAYOUTS_H

#include <stdint.h>

#include "../bpf/record.h"

#define PYTHON_LAYOUT_NONE RECORD_PYTHON_NO_OFFSET

/* Where things are in one CPython version's structures (bytes). */
struct python_layout {
	unsigned minor;                 /* 3.minor */
	uint64_t interpreters_head;     /* _PyRuntimeState */
	uint64_t interp_next, interp_threads_head;
	uint64_t tstate_next, tstate_interp, tstate_native_id;
	uint64_t tstate_frame, cframe_frame;   /* cframe_frame: PYTHON_LAYOUT_NONE from 3.13 */
	uint64_t frame_code, frame_previous, frame_instr, frame_is_entry, frame_owner;
	unsigned owner_cstack;          /* 0xff: none */
	uint64_t code_filename, code_qualname, code_firstlineno, code_linetable, code_bytecode;
	uint64_t unicode_length, unicode_state, unicode_ascii_size, unicode_compact_size;
	uint64_t bytes_size, bytes_data;
};

/* 3.11 and 3.12, as CPython's internal headers lay them out on x86-64
 * (tests/python_layouts.c checks the installed version's against its
 * headers with offsetof()); 3.13 and later describe themselves
 * (_Py_DebugOffsets). */
static const struct python_layout python_known_layouts[] = {
	{
		.minor = 11, .interpreters_head = 40, .interp_next = 0, .interp_threads_head = 16,
		.tstate_next = 8, .tstate_interp = 16, .tstate_native_id = 160,
		.tstate_frame = 56, .cframe_frame = 8,
		.frame_code = 32, .frame_previous = 48, .frame_instr = 56, .frame_is_entry = 68,
		.frame_owner = 69, .owner_cstack = 0xff,
		.code_filename = 112, .code_qualname = 128, .code_firstlineno = 72,
		.code_linetable = 136, .code_bytecode = 184,
		.unicode_length = 16, .unicode_state = 32, .unicode_ascii_size = 48,
		.unicode_compact_size = 72, .bytes_size = 16, .bytes_data = 32,
	},
	{
		.minor = 12, .interpreters_head = 40, .interp_next = 0, .interp_threads_head = 72,
		.tstate_next = 8, .tstate_interp = 16, .tstate_native_id = 144,
		.tstate_frame = 56, .cframe_frame = 0,
		.frame_code = 0, .frame_previous = 8, .frame_instr = 56, .frame_is_entry = PYTHON_LAYOUT_NONE,
		.frame_owner = 70, .owner_cstack = 3,
		.code_filename = 112, .code_qualname = 128, .code_firstlineno = 68,
		.code_linetable = 136, .code_bytecode = 192,
		.unicode_length = 16, .unicode_state = 32, .unicode_ascii_size = 40,
		.unicode_compact_size = 56, .bytes_size = 16, .bytes_data = 32,
	},
};

#endif
