/*
 * CPython 3.11 and later, as an interpreter runtime of record (interp.h).
 *
 * Recognising: a process that maps a file named python* or libpython*
 * whose symbols define _PyRuntime (Debian's stripped python3.11 still
 * exports it in .dynsym, as it does Py_Version, PyCode_Type and
 * PyUnicode_Type). The file is read through /proc/PID/map_files, so a
 * process in another mount namespace (a container) or running a deleted
 * binary works; its memory with process_vm_readv.
 *
 * Layouts: the version is Py_Version's; 3.13 and later publish their own
 * offsets at the start of _PyRuntime (_Py_DebugOffsets, checked by its
 * cookie and version); 3.11 and 3.12 come from a table here. Either is
 * checked against the running process before the BPF side may use it: the
 * code object's fields against PyCode_Type's own member list (tp_members)
 * and size, the thread states' back pointers to their interpreter and
 * their native ids against the process's threads, and, where a thread is
 * running Python, its frame's code object type. A version or layout not
 * known, or a check that fails, refuses the process with a reason for the
 * end-of-run report: no Python frames rather than wrong ones.
 *
 * Threads: user space fills the BPF side's tid -> thread state map from the
 * interpreter's thread list (native_thread_id; translated from the
 * process's pid namespace), when the process is attached and whenever the
 * BPF side meets a thread it does not know.
 *
 * Naming: a frame is its code object's "qualname (file)", or with lines
 * "qualname (file:line)", file shortened to its path below site-packages,
 * dist-packages or lib/pythonX.Y (else its basename). Code objects are read
 * when the BPF side first stores a stack, while the process lives, and kept
 * per (pid, code address, tag); the tag (the code's first line, mod 65536)
 * must match what is read, so a code object freed and another made at its
 * address is not given the old name.
 */
#ifndef FLAMEKIT_INTERP_PYTHON_H
#define FLAMEKIT_INTERP_PYTHON_H

#include "interp.h"

extern const struct interp_runtime python_runtime;

#endif
