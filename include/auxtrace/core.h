/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef AUXTRACE_CORE_H
#define AUXTRACE_CORE_H

#include <stdarg.h>

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
 * The library never prints: its diagnostics go to this callback (none by default).
 * Returns the previous callback. Not thread-safe against concurrent logging; set it once
 * at start-up.
 */
AUXTRACE_API libauxtrace_print_fn_t libauxtrace_set_print(libauxtrace_print_fn_t fn);

/* "0.1.0" */
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
