/*
 * Function names as people read them: C++ (Itanium ABI, "_Z..."), Rust's
 * legacy scheme ("_ZN...17h<hash>E", the hash dropped) and Rust v0
 * ("_R..."), by libiberty's cplus_demangle() as binutils and gdb use it.
 * Crate disambiguators ("std[e28293b1aa0f68bd]") are left out, as Rust's
 * own backtraces and perf leave them out.
 */
#ifndef FLAMEKIT_SYMBOLIZE_DEMANGLE_H
#define FLAMEKIT_SYMBOLIZE_DEMANGLE_H

/* The readable form of a mangled name (malloc'd, the caller frees it), or
 * NULL when name is not mangled or not valid in its scheme. */
char *demangle(const char *name);

#endif
