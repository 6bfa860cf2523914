/* fk-blocks: built with frame pointers (cc -O2 -fno-omit-frame-pointer),
 * three functions that block in libc's wrappers, which keep no frame
 * pointers:
 *
 *	nap()     in usleep(): 2 ms
 *	diskio()  in read() of FILE opened O_DIRECT (the disk, not the page cache)
 *	piper()   in read() of a pipe its child writes a byte to 2 ms later
 *
 * A frame-pointer walk from inside libc loses the wrapper's caller (the
 * libc function leaves rbp as its caller set it, so the walk goes from the
 * wrapper straight to main), and the three blocks look alike; a walk from
 * the unwind tables names them apart.
 *
 *	fk-blocks SECONDS FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int to_child[2], from_child[2];
static int disk = -1;
static void *block;

__attribute__((noinline, noclone)) void nap(void)
{
	usleep(2000);
	__asm__ volatile("" ::: "memory");  /* no tail call */
}

__attribute__((noinline, noclone)) void diskio(void)
{
	if (pread(disk, block, 4096, 0) < 0)
		exit(1);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, noclone)) void piper(void)
{
	char c = 0;
	if (write(to_child[1], &c, 1) != 1 || read(from_child[0], &c, 1) != 1)
		exit(1);
	__asm__ volatile("" ::: "memory");
}

static void child(void)
{
	char c;
	/* its own copy of the write end would keep the pipe open after the
	 * parent's exit: no end of file, a child left running */
	close(to_child[1]);
	close(from_child[0]);
	while (read(to_child[0], &c, 1) == 1) {
		usleep(2000);
		if (write(from_child[1], &c, 1) != 1)
			break;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	double seconds = atof(argv[1]);
	if (posix_memalign(&block, 4096, 4096))
		return 1;
	memset(block, 'x', 4096);
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, block, 4096) != 4096 || fsync(fd) || close(fd))
		return 1;
	disk = open(argv[2], O_RDONLY | O_DIRECT);
	if (disk < 0)
		disk = open(argv[2], O_RDONLY);  /* a file system without O_DIRECT */
	if (disk < 0 || pipe(to_child) || pipe(from_child))
		return 1;
	if (fork() == 0)
		child();
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		nap();
		diskio();
		piper();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	close(to_child[1]);
	return 0;
}
