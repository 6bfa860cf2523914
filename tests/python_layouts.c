/*
 * Checks flamekit's table of CPython layouts (src/interp/python_layouts.h)
 * against the installed CPython's own internal headers (Debian's
 * libpython3.N-dev ships them): every offset record reads, by offsetof().
 * Built and run by tests/record_python.sh; prints each difference and
 * exits 1, or prints "layout 3.N ok".
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>

#include <stddef.h>
#include <stdio.h>

#include "../src/interp/python_layouts.h"

static int differences;

static void check(const char *what, uint64_t table, size_t actual)
{
	if (table != actual) {
		printf("%s: table %llu, headers %zu\n", what, (unsigned long long)table, actual);
		differences++;
	}
}

#define CHECK(field, expr) check(#field, l->field, expr)

int main(void)
{
	const struct python_layout *l = NULL;
	for (size_t i = 0; i < sizeof(python_known_layouts) / sizeof(python_known_layouts[0]); i++)
		if (python_known_layouts[i].minor == PY_MINOR_VERSION)
			l = &python_known_layouts[i];
	if (!l) {
		printf("no table for 3.%d (it publishes _Py_DebugOffsets)\n", PY_MINOR_VERSION);
		return PY_MINOR_VERSION >= 13 ? 0 : 1;
	}
	CHECK(interpreters_head, offsetof(_PyRuntimeState, interpreters.head));
	CHECK(interp_next, offsetof(PyInterpreterState, next));
	CHECK(interp_threads_head, offsetof(PyInterpreterState, threads.head));
	CHECK(tstate_next, offsetof(PyThreadState, next));
	CHECK(tstate_interp, offsetof(PyThreadState, interp));
	CHECK(tstate_native_id, offsetof(PyThreadState, native_thread_id));
	CHECK(tstate_frame, offsetof(PyThreadState, cframe));
	CHECK(cframe_frame, offsetof(_PyCFrame, current_frame));
	CHECK(frame_code, offsetof(_PyInterpreterFrame, f_code));
	CHECK(frame_previous, offsetof(_PyInterpreterFrame, previous));
	CHECK(frame_instr, offsetof(_PyInterpreterFrame, prev_instr));
	CHECK(frame_owner, offsetof(_PyInterpreterFrame, owner));
#if PY_MINOR_VERSION == 11
	CHECK(frame_is_entry, offsetof(_PyInterpreterFrame, is_entry));
	check("owner_cstack", l->owner_cstack, 0xff);
#else
	check("frame_is_entry", l->frame_is_entry, PYTHON_LAYOUT_NONE);
	check("owner_cstack", l->owner_cstack, FRAME_OWNED_BY_CSTACK);
#endif
	CHECK(code_filename, offsetof(PyCodeObject, co_filename));
	CHECK(code_qualname, offsetof(PyCodeObject, co_qualname));
	CHECK(code_firstlineno, offsetof(PyCodeObject, co_firstlineno));
	CHECK(code_linetable, offsetof(PyCodeObject, co_linetable));
	CHECK(code_bytecode, offsetof(PyCodeObject, co_code_adaptive));
	CHECK(unicode_length, offsetof(PyASCIIObject, length));
	CHECK(unicode_state, offsetof(PyASCIIObject, state));
	CHECK(unicode_ascii_size, sizeof(PyASCIIObject));
	CHECK(unicode_compact_size, sizeof(PyCompactUnicodeObject));
	CHECK(bytes_size, offsetof(PyVarObject, ob_size));
	CHECK(bytes_data, offsetof(PyBytesObject, ob_sval));
	if (differences)
		return 1;
	printf("layout 3.%d ok\n", PY_MINOR_VERSION);
	return 0;
}
