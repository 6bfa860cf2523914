/*
 * Reading another process's memory (process_vm_readv: one system call for
 * many pieces, no stop of the process). The process may change the memory
 * while it is read, or exit: callers check what they read (a type pointer,
 * a back pointer) before trusting it.
 *
 *	if (process_memory__read(pid, address, &value, sizeof(value)) == 0) ...
 */
#ifndef FLAMEKIT_INTERP_PROCESS_MEMORY_H
#define FLAMEKIT_INTERP_PROCESS_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* 0 when all len bytes at address were read, -1 (errno set) otherwise. */
int process_memory__read(uint32_t pid, uint64_t address, void *out, size_t len);
/* A 64-bit word; 0 when it cannot be read. */
uint64_t process_memory__word(uint32_t pid, uint64_t address);

#endif
