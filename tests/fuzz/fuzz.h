/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the fuzz targets (tests/fuzz/fuzz-<name>.c, `make fuzz`) share: the library's
 * messages formatted and dropped, the input as a C string, and a check that aborts, which
 * libFuzzer reports as a finding with its input.
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <auxtrace/core.h>

static int fuzz__print(enum libauxtrace_print_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	(void)level;
	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

/* Every message is formatted (a bad argument shows under ASan), none is printed. */
static inline void fuzz__log_quietly(void)
{
	libauxtrace_set_print(fuzz__print);
}

/* The input as a NUL-terminated string to free(); NULL when it holds a NUL (no C string). */
static inline char *fuzz__string(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, '\0', size))
		return NULL;
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Read len bytes at p (NULL: nothing), so that a bound the library did not check shows up
 * under ASan as a read out of bounds. */
static volatile uint64_t fuzz__sink __attribute__((unused));

static inline void fuzz__touch(const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; p && i < len; i++)
		fuzz__sink += b[i];
}

static inline void fuzz__touch_str(const char *s)
{
	if (s)
		fuzz__touch(s, strlen(s));
}

/*
 * libtraceevent 1.7 leaks what its format parser allocated when it gives up on a print fmt
 * (an error path of its own): a target that parses formats tells LeakSanitizer to look past
 * allocations made inside it, with this line at file scope.
 */
#define FUZZ_LSAN_IGNORE_LIBTRACEEVENT()					\
	const char *__lsan_default_suppressions(void);				\
	const char *__lsan_default_suppressions(void)				\
	{									\
		return "leak:libtraceevent.so\n";				\
	}

#define fuzz__check(cond)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: fuzz check failed: %s\n",	\
				__FILE__, __LINE__, #cond);			\
			abort();						\
		}								\
	} while (0)

#endif
