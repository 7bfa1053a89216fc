// SPDX-License-Identifier: LGPL-2.1
/*
 * The one rule for a caller's option structs (AUXTRACE_OPTS in auxtrace/core.h): sized by
 * their first field, older callers' smaller structs taken as they are, newer callers'
 * larger ones only when they ask for nothing this library does not know.
 */
#include <stdio.h>
#include <string.h>

#include <internal/lib.h>
#include <internal/opts.h>

/* The first byte at or past `from` that is not 0, or `to` when there is none. */
static size_t bytes__first_set(const unsigned char *p, size_t from, size_t to)
{
	while (from < to && !p[from])
		from++;
	return from;
}

__printf(4, 5)
static int opts__refuse(const char *type, char *why, size_t why_size, const char *fmt, ...)
{
	char msg[512];
	int len;
	va_list ap;

	len = snprintf(msg, sizeof(msg), "struct %s: ", type);
	va_start(ap, fmt);
	vsnprintf(msg + len, sizeof(msg) - len, fmt, ap);
	va_end(ap);
	pr_err("%s\n", msg);
	if (why && why_size)
		snprintf(why, why_size, "%s", msg);
	return libauxtrace__err(-EINVAL);
}

int libauxtrace__opts_copy(const char *type, void *dst, size_t dst_sz, const void *src,
			   char *why, size_t why_size)
{
	size_t sz, set;

	memset(dst, 0, dst_sz);
	if (src) {
		memcpy(&sz, src, sizeof(sz));
		if (sz < sizeof(sz))
			return opts__refuse(type, why, why_size,
					    "sz is %zu, too small for any version of it: declare it "
					    "with AUXTRACE_OPTS(%s, name, ...), which sets sz", sz, type);
		set = bytes__first_set(src, dst_sz, sz);
		if (set < sz)
			return opts__refuse(type, why, why_size,
					    "byte %zu of its %zu is set, past the %zu this libauxtrace "
					    "(%s) knows: the caller was built against a newer libauxtrace "
					    "and asks for what this one cannot do; run it with the newer "
					    "library", set, sz, dst_sz, libauxtrace_version());
		memcpy(dst, src, sz < dst_sz ? sz : dst_sz);
	}
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	return 0;
}

void libauxtrace__opts_store(void *dst, const void *src, size_t src_sz)
{
	size_t sz;

	memcpy(&sz, dst, sizeof(sz));
	if (sz > src_sz)
		sz = src_sz;
	if (sz > sizeof(sz))
		memcpy((char *)dst + sizeof(sz), (const char *)src + sizeof(sz), sz - sizeof(sz));
}
