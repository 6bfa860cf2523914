#include "process_memory.h"

#include <errno.h>
#include <sys/uio.h>

int process_memory__read(uint32_t pid, uint64_t address, void *out, size_t len)
{
	struct iovec local = { out, len };
	struct iovec remote = { (void *)(uintptr_t)address, len };

	if (!address) {
		errno = EFAULT;
		return -1;
	}
	ssize_t n = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = EFAULT;  /* part of it: the rest is not mapped */
	return -1;
}

uint64_t process_memory__word(uint32_t pid, uint64_t address)
{
	uint64_t word = 0;
	return process_memory__read(pid, address, &word, sizeof(word)) == 0 ? word : 0;
}
