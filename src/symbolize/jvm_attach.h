/*
 * Asks a HotSpot JVM to write its perf map, as `jcmd PID Compiler.perfmap`
 * does (JDK 17 and later): the JVM then writes /tmp/perf-NSPID.map in its
 * own mount namespace, naming every method its JIT has compiled, with no
 * agent in it.
 *
 * It speaks HotSpot's attach protocol: where the JVM's attach listener is
 * not running yet, a file .attach_pidNSPID in its working directory (else
 * its /tmp) and a SIGQUIT start it; then, over the Unix socket
 * /tmp/.java_pidNSPID, the protocol version, the command and three
 * arguments, each NUL-terminated, and back a status line and the command's
 * output. Paths go through /proc/PID/root and /proc/PID/cwd, so a JVM in
 * another mount namespace (a container) is reached; root may connect to any
 * JVM's socket (HotSpot accepts its own user or root).
 *
 * SIGQUIT is sent only to a JVM that catches it and has the attach mechanism
 * on: to one started with -XX:+DisableAttachMechanism it would print a
 * thread dump, and one that does not catch it (-Xrs) it would end. Such a
 * JVM is left alone, with the reason.
 *
 * An ask advances in steps that wait no longer than the caller says, so a
 * sampling loop can drive it without stalling:
 *
 *	struct jvm_ask *a = jvm_ask__start(pid, why, sizeof why);  // NULL: refused
 *	while ((state = jvm_ask__step(a, 0, why, sizeof why)) == JVM_ASK_PENDING)
 *		... other work ...
 *	jvm_ask__free(a);    // removes what it made (the trigger file)
 */
#ifndef FLAMEKIT_SYMBOLIZE_JVM_ATTACH_H
#define FLAMEKIT_SYMBOLIZE_JVM_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is this mapped file HotSpot's libjvm.so (a mapping's path, as the kernel
 * names it)? A process that maps it is a HotSpot JVM. */
bool jvm_attach__is_hotspot(const char *path);

enum jvm_ask_state {
	JVM_ASK_PENDING,  /* waiting for the listener to start, or for the answer */
	JVM_ASK_DONE,     /* the JVM said it wrote its perf map */
	JVM_ASK_FAILED,   /* why says why */
};

struct jvm_ask;

/* Starts asking pid (its listener is started if need be); NULL and why (a
 * short phrase for the end-of-run report, e.g. "it was started with
 * -XX:+DisableAttachMechanism") when it cannot be asked. The ask fails
 * unless answered within timeout_ms. */
struct jvm_ask *jvm_ask__start(uint32_t pid, int timeout_ms, char *why, size_t why_size);
/* Goes on with the ask, waiting at most wait_ms. */
enum jvm_ask_state jvm_ask__step(struct jvm_ask *a, int wait_ms, char *why, size_t why_size);
void jvm_ask__free(struct jvm_ask *a);

#endif
