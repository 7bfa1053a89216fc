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

#ifdef __cplusplus
}
#endif
#endif
