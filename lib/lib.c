// SPDX-License-Identifier: LGPL-2.1
/* What internal/lib.h declares for every room: the log callback, version, small file helpers. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <internal/lib.h>

static libauxtrace_print_fn_t libauxtrace_print;

libauxtrace_print_fn_t libauxtrace_set_print(libauxtrace_print_fn_t fn)
{
	libauxtrace_print_fn_t old = libauxtrace_print;

	libauxtrace_print = fn;
	return old;
}

const char *libauxtrace_version(void)
{
	return LIBAUXTRACE_VERSION;
}

void libauxtrace__log(enum libauxtrace_print_level level, const char *fmt, ...)
{
	libauxtrace_print_fn_t fn = libauxtrace_print;
	int saved = errno;	/* a logger must not clobber the errno the caller reports */
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}

const char *libauxtrace__sysfs_root(void)
{
	const char *root = getenv("AUXTRACE_SYSFS");

	return root && *root ? root : "/sys";
}

ssize_t libauxtrace__read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

int libauxtrace__read_file(const char *path, char *buf, size_t size)
{
	ssize_t got;
	int fd;

	if (!size)
		return libauxtrace__err(-EINVAL);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return libauxtrace__err(-errno);
	got = libauxtrace__read_full(fd, buf, size - 1);
	close(fd);
	if (got < 0)
		return libauxtrace__err((int)got);
	buf[got] = '\0';
	return (int)got;
}

int libauxtrace__read_u64(const char *path, unsigned long long *val)
{
	int saved = errno;	/* strtoull needs errno cleared; a success must not leave it so */
	char buf[64], *end;
	int n = libauxtrace__read_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n'))
		return libauxtrace__err(-EINVAL);
	errno = saved;
	return 0;
}

unsigned long long libauxtrace__perf_mlock_kb(unsigned long long dflt)
{
	unsigned long long kb = dflt;

	libauxtrace__read_u64("/proc/sys/kernel/perf_event_mlock_kb", &kb);
	return kb;
}

int libauxtrace__perf_paranoid(void)
{
	char buf[32];

	if (libauxtrace__read_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) <= 0)
		return 2;
	return (int)strtol(buf, NULL, 10);
}

void libauxtrace__memlock_rlimit(char *buf, size_t size)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		snprintf(buf, size, "unknown");
	else if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
}
