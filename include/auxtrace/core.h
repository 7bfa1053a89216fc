/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef AUXTRACE_CORE_H
#define AUXTRACE_CORE_H

#include <stdarg.h>

/*
 * How every exported function is documented (tests/scripts/test-api-doc.sh checks the
 * first and last points): a comment of its own directly above its declaration, which
 * - starts with the function's name and "()", then says what it does;
 * - says who owns what: a pointer argument is borrowed (the caller keeps it) unless the
 *   comment says the function takes it over or keeps a reference; a returned pointer is
 *   "borrowed" (valid while the object it came from lives, never freed by the caller) or
 *   the caller's, freed with the function named;
 * - unless the function returns void, says what it returns and how it fails: "-errno" (a
 *   negative errno value) or "NULL + errno" (NULL, the errno value in errno), naming the
 *   values a caller can act on. A function whose comment names no failure cannot fail.
 * A comment over a group of declarations says what they share; each still has its own.
 */
/* Every exported symbol carries this mark; the build hides everything else. */
#define AUXTRACE_API __attribute__((visibility("default")))
/*
 * libauxtrace's internals that libauxtrace-tracefs, built on it, calls: exported under the
 * version node LIBAUXTRACE_PRIVATE_0, declared in the uninstalled internal headers only, and
 * no API: their signatures may change with any release of the pair.
 */
#define AUXTRACE_PRIVATE __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

enum libauxtrace_print_level {
	LIBAUXTRACE_ERR,	/* an operation failed: the message names the cause and the fix */
	LIBAUXTRACE_WARN,	/* data may be incomplete, the operation went on */
	LIBAUXTRACE_INFO,
	LIBAUXTRACE_DEBUG,	/* e.g. "idx 0: mmapping fd 5", "idx 0: set output fd 6 -> 5" */
};

typedef int (*libauxtrace_print_fn_t)(enum libauxtrace_print_level level,
				      const char *fmt, va_list ap);

/*
 * libauxtrace_set_print() sends the library's diagnostics to fn (NULL: nowhere, the
 * default): the library never prints. Returns the previous callback; cannot fail. Not
 * thread-safe against concurrent logging: set it once at start-up.
 */
AUXTRACE_API libauxtrace_print_fn_t libauxtrace_set_print(libauxtrace_print_fn_t fn);

/* libauxtrace_version() returns the library's version, "0.1.0": a static string. */
AUXTRACE_API const char *libauxtrace_version(void);

/*
 * Option structs. Every struct *_opts starts with `size_t sz`, its size as the caller was
 * compiled, and only ever grows at its end, so that a program built against one release
 * runs with the library of another:
 * - a smaller sz (built against an older libauxtrace) works: the fields it lacks are 0;
 * - a larger sz (built against a newer one) works when every byte past the struct this
 *   library knows is 0; otherwise the caller asks for something this library cannot do,
 *   and the call fails with -EINVAL and a logged error naming the struct;
 * - an sz too small to hold sz itself (0: never set) fails with -EINVAL.
 * AUXTRACE_OPTS declares `struct TYPE NAME` with sz set, the fields given as designated
 * initializers, and every other byte 0 -- padding too, which a newer library reads as
 * fields:
 *
 *	AUXTRACE_OPTS(ring_set_opts, opts, .pass_done = round_done, .round_ms = 10);
 */
#define AUXTRACE_OPTS(TYPE, NAME, ...)						\
	struct TYPE NAME = ({							\
		__builtin_memset(&NAME, 0, sizeof(struct TYPE));		\
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };	\
	})

#ifdef __cplusplus
}
#endif
#endif
