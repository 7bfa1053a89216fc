/* SPDX-License-Identifier: LGPL-2.1 */
/* Private helpers shared by every room of the library. Not installed. */
#ifndef AUXTRACE_INTERNAL_LIB_H
#define AUXTRACE_INTERNAL_LIB_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
#include <auxtrace/core.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#define __printf(a, b) __attribute__((format(printf, a, b)))

/*
 * libauxtrace__log() hands a message to the callback libauxtrace_set_print() installed, if
 * any; errno is left as it was.
 */
AUXTRACE_PRIVATE void libauxtrace__log(enum libauxtrace_print_level level, const char *fmt, ...) __printf(2, 3);

#define pr_err(fmt, ...)   libauxtrace__log(LIBAUXTRACE_ERR, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)  libauxtrace__log(LIBAUXTRACE_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  libauxtrace__log(LIBAUXTRACE_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) libauxtrace__log(LIBAUXTRACE_DEBUG, fmt, ##__VA_ARGS__)

/* Library convention: int functions return -errno and also leave it in errno. */
static inline int libauxtrace__err(int err)
{
	if (err < 0)
		errno = -err;
	return err;
}

/* Pointer functions return NULL with errno set. */
static inline void *libauxtrace__ptr_err(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/* The system's page size: the unit of every mmap'd ring. */
static inline size_t libauxtrace__page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static inline bool libauxtrace__is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* The smallest power of two >= x (x > 0), 0 when it does not fit an unsigned int. */
static inline unsigned int libauxtrace__roundup_pow2(uint64_t x)
{
	uint64_t p = 1;

	while (p < x)
		p <<= 1;
	return p > 0x80000000u ? 0 : (unsigned int)p;
}

/*
 * libauxtrace__tracing_dir() returns the tracefs mount point (or debugfs' tracing
 * directory), found once per process, static; or NULL + errno ENODEV (none mounted) or
 * EACCES (mounted, but not for this user).
 */
AUXTRACE_PRIVATE const char *libauxtrace__tracing_dir(void);
/*
 * libauxtrace__no_tracing_dir_why() returns what to tell a user when
 * libauxtrace__tracing_dir() failed with err (EACCES or not, either sign), with the fix: a
 * static string.
 */
AUXTRACE_PRIVATE const char *libauxtrace__no_tracing_dir_why(int err);

/*
 * Log why an option string is refused: "<what> '<str>': at byte N ('c'): <why>", the byte
 * shown as 'c', byte 0xNN (not printable) or the end. at points into str.
 */
void libauxtrace__parse_error(const char *what, const char *str, const char *at,
			      const char *fmt, va_list ap) __printf(4, 0);

/* The mounted sysfs root ("/sys"), or the fake tree named by AUXTRACE_SYSFS for tests. */
const char *libauxtrace__sysfs_root(void);

/*
 * libauxtrace__read_full() reads fd until len bytes or the end of the file, retrying EINTR.
 * Returns bytes (fewer than len only at the end) or -errno of read(2).
 */
AUXTRACE_PRIVATE ssize_t libauxtrace__read_full(int fd, void *buf, size_t len);

/* Read a small text file into buf (NUL-terminated, trailing newline kept). Returns bytes or -errno. */
int libauxtrace__read_file(const char *path, char *buf, size_t size);

/*
 * libauxtrace__read_u64() reads a file holding one unsigned number (decimal or 0x hex) into
 * *val. Returns 0, or -errno: the open or read's, or -EINVAL when it holds no number.
 */
AUXTRACE_PRIVATE int libauxtrace__read_u64(const char *path, unsigned long long *val);

/* The per-CPU allowance for perf mmaps, /proc/sys/kernel/perf_event_mlock_kb; dflt when unreadable. */
unsigned long long libauxtrace__perf_mlock_kb(unsigned long long dflt);

/* /proc/sys/kernel/perf_event_paranoid; the kernel's default, 2, when unreadable. */
int libauxtrace__perf_paranoid(void);

/* RLIMIT_MEMLOCK, the rest of the locked-memory budget, as a message says it: "N KiB",
 * "unlimited" or "unknown". */
void libauxtrace__memlock_rlimit(char *buf, size_t size);

#endif
