// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat reader: the file's description, section by section in the order a version 6
 * file has them (the writer's order, trace-dat-meta.c), each size checked against what is
 * left of the file before anything is read from it.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include <event-parse.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include "trace-dat-format.h"
#include "trace-dat-ids.h"
#include "trace-dat-reader-internal.h"

/* More CPUs than any kernel has (CONFIG_NR_CPUS tops out at 8192): a damaged count. */
#define TD_MAX_CPUS	65536
/* A chunk of trace-cmd's is 10 sub-buffers: more than this is a damaged size. */
#define TD_MAX_CHUNK	(64u << 20)
#define TD_LABEL_LEN	10	/* "options  ", "flyrecord", "latency  ", NUL included */
/* Where the page size is: after the magic, "6", the endianness and the long size. */
#define TD_PAGE_SIZE_AT	14

/*
 * The file (or a decompressed section of it), read front to back: every read checks that
 * the bytes are there. pos counts from base; at is base's offset in the file, for messages.
 */
struct td_in {
	const struct trace_dat_reader *r;
	const unsigned char *base;
	uint64_t size;
	uint64_t pos;
	uint64_t section;		/* version 7: the file offset of the section read; 0: none */
};

static int __printf(3, 4) td_in__corrupt(const struct td_in *in, uint64_t at, const char *fmt,
					  ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (in->section)
		pr_err("%s: in the section at offset 0x%llx, at byte 0x%llx of its content: %s: the file is damaged\n",
		       in->r->path, (unsigned long long)in->section, (unsigned long long)at, msg);
	else
		pr_err("%s: at offset 0x%llx: %s: the file is damaged or not a trace.dat of version 6 or 7\n",
		       in->r->path, (unsigned long long)at, msg);
	return libauxtrace__err(-EINVAL);
}

/* len bytes of what at pos, or NULL (logged) when the file ends first. */
static const void *td_in__bytes(struct td_in *in, uint64_t len, const char *what)
{
	const void *p;

	if (len > in->size - in->pos) {
		td_in__corrupt(in, in->pos, "%s needs %llu bytes, the file has %llu left", what,
			       (unsigned long long)len,
			       (unsigned long long)(in->size - in->pos));
		return NULL;
	}
	p = in->base + in->pos;
	in->pos += len;
	return p;
}

static int td_in__read(struct td_in *in, void *dst, size_t len, const char *what)
{
	const void *p = td_in__bytes(in, len, what);

	if (!p)
		return -EINVAL;
	memcpy(dst, p, len);
	return 0;
}

static int td_in__u16(struct td_in *in, uint16_t *v, const char *what)
{
	return td_in__read(in, v, sizeof(*v), what);
}

static int td_in__u32(struct td_in *in, uint32_t *v, const char *what)
{
	return td_in__read(in, v, sizeof(*v), what);
}

static int td_in__u64(struct td_in *in, uint64_t *v, const char *what)
{
	return td_in__read(in, v, sizeof(*v), what);
}

/* A NUL-terminated string in place, or NULL (logged) when the file ends first. */
static const char *td_in__str(struct td_in *in, const char *what)
{
	const char *s = (const char *)in->base + in->pos;
	const char *nul = memchr(s, 0, in->size - in->pos);

	if (!nul) {
		td_in__corrupt(in, in->pos, "%s has no terminating NUL before the end of the file",
			       what);
		return NULL;
	}
	in->pos += (uint64_t)(nul - s) + 1;
	return s;
}

/*
 * A section of width-byte length (4 or 8) and its content: a NUL-terminated copy in *copy
 * (for the text parsers, which want strings) and its length. 0 or -errno.
 */
static int td_in__section(struct td_in *in, int width, const char *what, char **copy,
			  uint64_t *len)
{
	uint32_t len32 = 0;
	const void *p;
	int err;

	if (width == 4) {
		err = td_in__u32(in, &len32, what);
		*len = len32;
	} else {
		err = td_in__u64(in, len, what);
	}
	if (err)
		return err;
	p = td_in__bytes(in, *len, what);
	if (!p)
		return -EINVAL;
	*copy = malloc(*len + 1);
	if (!*copy)
		return -ENOMEM;
	memcpy(*copy, p, *len);
	(*copy)[*len] = '\0';
	return 0;
}

/* Version 7 after the page size: the compression's name and version, the options' offset. */
static int td_reader__v7_head(struct trace_dat_reader *r, struct td_in *in)
{
	const char *name = td_in__str(in, "the compression name");
	const char *version = name ? td_in__str(in, "the compression version") : NULL;

	if (!version || td_in__u64(in, &r->options_at, "the options' offset"))
		return -EINVAL;
	if (!strcmp(name, "zstd")) {
		r->compressed = true;
	} else if (strcmp(name, "none")) {
		pr_err("%s: compressed with '%.16s %.16s': this reader decompresses zstd only (trace-cmd record --compression zstd)\n",
		       r->path, name, version);
		return libauxtrace__err(-EOPNOTSUPP);
	}
	return 0;
}

static int td_reader__head(struct trace_dat_reader *r, struct td_in *in)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	unsigned char endian, long_size;
	const void *head = td_in__bytes(in, sizeof(magic), "the magic");
	const char *version;
	uint32_t page_size;

	if (!head || memcmp(head, magic, sizeof(magic)))
		return head ? td_in__corrupt(in, 0, "no trace.dat magic (\\x17\\x08\\x44tracing)")
			    : -EINVAL;
	version = td_in__str(in, "the version");
	if (!version)
		return -EINVAL;
	/* perf writes its tracing data as "0.6", the same layout as a version 6 file's front */
	if (strcmp(version, "6") && strcmp(version, "7") &&
	    !(r->tracing_data && !strcmp(version, "0.6"))) {
		pr_err("%s: trace.dat version '%.16s': this reader reads versions 6 and 7\n",
		       r->path, version);
		return libauxtrace__err(-EOPNOTSUPP);
	}
	r->file_version = strcmp(version, "7") ? 6 : 7;
	if (td_in__read(in, &endian, 1, "the endianness") ||
	    td_in__read(in, &long_size, 1, "the long size") ||
	    td_in__u32(in, &page_size, "the page size"))
		return -EINVAL;
	if (endian > 1 || (long_size != 4 && long_size != 8))
		return td_in__corrupt(in, in->pos - 6, "endianness %u and long size %u (0 or 1, and 4 or 8 expected)",
				      endian, long_size);
	if (endian != host_big) {
		pr_err("%s: written on a %s-endian machine: this reader reads files of its own machine's byte order only\n",
		       r->path, endian ? "big" : "little");
		return libauxtrace__err(-EOPNOTSUPP);
	}
	/* rb_layout__set_subbuf_size below takes it once header_page says where data starts */
	r->layout.subbuf_size = page_size;
	tep_set_file_bigendian(r->tep, endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, long_size);
	tep_set_page_size(r->tep, (int)page_size);
	return r->file_version == 7 ? td_reader__v7_head(r, in) : 0;
}

/* header_page: the sub-buffer layout (as the tracefs layer reads it from the kernel). */
static int td_reader__header_page(struct trace_dat_reader *r, struct td_in *in)
{
	uint64_t at, len;
	const char *label;
	unsigned int page_size = r->layout.subbuf_size;
	char *text;
	int err;

	at = in->pos;
	label = td_in__str(in, "the header_page label");
	if (!label)
		return -EINVAL;
	if (strcmp(label, "header_page"))
		return td_in__corrupt(in, at, "'header_page' expected, found '%.20s'", label);
	at = in->pos;
	err = td_in__section(in, 8, "header_page", &text, &len);
	if (err)
		return err;
	err = rb_layout__parse(&r->layout, text);
	if (!err && rb_layout__set_subbuf_size(&r->layout, page_size))
		err = td_in__corrupt(in, TD_PAGE_SIZE_AT, "page size %u: a power of two from %u to %u bytes, above the %u-byte sub-buffer header, expected",
				     page_size, RB_SUBBUF_MIN, RB_SUBBUF_MAX, r->layout.data_off);
	else if (err)
		err = td_in__corrupt(in, at, "header_page describes no sub-buffer layout");
	else if (tep_parse_header_page(r->tep, text, (unsigned long)len, (int)r->layout.long_size))
		err = td_in__corrupt(in, at, "libtraceevent cannot parse header_page");
	free(text);
	return err;
}

static int td_reader__header_event(struct td_in *in)
{
	uint64_t at = in->pos, len;
	const char *label = td_in__str(in, "the header_event label");

	if (!label)
		return -EINVAL;
	if (strcmp(label, "header_event"))
		return td_in__corrupt(in, at, "'header_event' expected, found '%.20s'", label);
	/* its content is the old event header, which no version 6 reader needs */
	if (td_in__u64(in, &len, "the header_event size") ||
	    !td_in__bytes(in, len, "header_event"))
		return -EINVAL;
	return 0;
}

/* Remember "system:event" of a recorded event, and where common_type is in payloads. */
static int td_reader__add_event(struct trace_dat_reader *r, const struct tep_event *ev,
				bool recorded)
{
	struct tep_format_field *type = tep_find_common_field((struct tep_event *)ev,
							       "common_type");
	char **events, *name;

	if (!r->type_size && type && (type->size == 1 || type->size == 2 || type->size == 4)) {
		r->type_offset = (unsigned int)type->offset;
		r->type_size = (unsigned int)type->size;
	}
	if (!recorded)
		return 0;
	events = reallocarray(r->events, r->nr_events + 1, sizeof(*events));
	if (!events)
		return -ENOMEM;
	r->events = events;
	if (asprintf(&name, "%s:%s", ev->system, ev->name) < 0)
		return -ENOMEM;
	r->events[r->nr_events++] = name;
	return 0;
}

/* count formats of system: each a u64 size and the text of a tracefs format file. */
static int td_reader__formats(struct trace_dat_reader *r, struct td_in *in, const char *system,
			      bool recorded)
{
	uint32_t count;
	int err;

	if (td_in__u32(in, &count, "a format count"))
		return -EINVAL;
	/* each one takes at least its 8-byte size */
	if (count > (in->size - in->pos) / 8)
		return td_in__corrupt(in, in->pos - 4, "%u formats of system '%s' cannot fit in the %llu bytes left",
				      count, system, (unsigned long long)(in->size - in->pos));
	for (uint32_t i = 0; i < count; i++) {
		uint64_t at = in->pos, len;
		struct tep_event *ev = NULL;
		const char *text, *why;

		if (td_in__u64(in, &len, "a format's size"))
			return -EINVAL;
		text = td_in__bytes(in, len, "an event format");
		if (!text)
			return -EINVAL;
		why = td_format__check(text, (size_t)len);
		if (why) {
			pr_warn("%s: at offset 0x%llx: a format of system '%s' has %s: left out, its events have no name\n",
				r->path, (unsigned long long)at, system, why);
			continue;
		}
		if (tep_parse_format(r->tep, &ev, text, (unsigned long)len, system) || !ev) {
			/* trace-cmd goes on without it too: its events show as unknown */
			pr_warn("%s: at offset 0x%llx: libtraceevent cannot parse a format of system '%s': its events have no name\n",
				r->path, (unsigned long long)at, system);
			continue;
		}
		err = td_reader__add_event(r, ev, recorded);
		if (err)
			return libauxtrace__err(err);
	}
	return 0;
}

static int td_reader__event_systems(struct trace_dat_reader *r, struct td_in *in)
{
	uint32_t nr;

	if (td_in__u32(in, &nr, "the system count"))
		return -EINVAL;
	if (nr > (in->size - in->pos) / 6)	/* a name, its NUL and a count at least */
		return td_in__corrupt(in, in->pos - 4, "%u event systems cannot fit in the %llu bytes left",
				      nr, (unsigned long long)(in->size - in->pos));
	for (uint32_t i = 0; i < nr; i++) {
		const char *system = td_in__str(in, "a system name");
		int err;

		if (!system)
			return -EINVAL;
		err = td_reader__formats(r, in, system, true);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Give back the file's pages in [from, to) once read: what they held went into the tep
 * handle and strings of our own, and a page read again comes back from the file. A hint: a
 * failure costs memory, not data.
 */
static void td_reader__drop(const struct trace_dat_reader *r, uint64_t from, uint64_t to)
{
	uint64_t page = libauxtrace__page_size();

	from = (from + page - 1) & ~(page - 1);
	to &= ~(page - 1);
	if (from < to)
		madvise((void *)(r->map + from), to - from, MADV_DONTNEED);
}

/*
 * kallsyms (which 0), printk formats (1), saved cmdlines (2): text that names addresses and
 * pids. A parser that refuses it costs names in printed events, not events: a warning.
 */
static int td_reader__symbol(struct trace_dat_reader *r, struct td_in *in, int which)
{
	static const struct {
		const char *what;
		int width;
		int (*parse)(struct tep_handle *tep, const char *text);
		const char *(*check)(const char *text, size_t len);
	} sections[] = {
		{ "kallsyms", 4, tep_parse_kallsyms, NULL },
		{ "printk formats", 4, tep_parse_printk_formats, td_printk__check },
		{ "saved cmdlines", 8, tep_parse_saved_cmdlines, NULL },
	};
	uint64_t at = in->pos, len;
	const char *why;
	char *text;
	bool skip;
	int err = td_in__section(in, sections[which].width, sections[which].what, &text, &len);

	if (err)
		return libauxtrace__err(err);
	/* copied: kallsyms are megabytes, mapped and copied would count twice */
	if (in->base == r->map)
		td_reader__drop(r, at, in->pos);
	why = sections[which].check ? sections[which].check(text, (size_t)len) : NULL;
	/* left out, the section is still read: the file's layout goes through it */
	skip = sections[which].parse == tep_parse_kallsyms && r->opts.no_kallsyms;
	if (!why && len && !skip && sections[which].parse(r->tep, text))
		why = "text libtraceevent cannot parse";
	if (why)
		pr_warn("%s: at offset 0x%llx: the %s have %s: events print without them\n",
			r->path, (unsigned long long)(in->section ?: at), sections[which].what, why);
	free(text);
	return 0;
}

static int td_reader__symbols(struct trace_dat_reader *r, struct td_in *in)
{
	int err = 0;

	for (int which = 0; which < 3 && !err; which++)
		err = td_reader__symbol(r, in, which);
	return err;
}

/* "[local] global counter": the selected clock, malloc'ed; the whole word when none is. */
static char *clock__selected(const char *text, size_t len)
{
	const char *open = memchr(text, '[', len), *close;

	if (open && (close = memchr(open, ']', len - (size_t)(open - text))))
		return strndup(open + 1, (size_t)(close - open - 1));
	return strndup(text, strcspn(text, " \n"));
}

/* The file's CPU count, at offset at: the tables per CPU. 0 or -errno. */
static int td_reader__set_cpus(struct trace_dat_reader *r, struct td_in *in, uint64_t at,
			       uint32_t cpus)
{
	if (!cpus || cpus > TD_MAX_CPUS)
		return td_in__corrupt(in, at, "a CPU count of %u (1 to %d)", cpus, TD_MAX_CPUS);
	r->nr_cpus = (int)cpus;
	r->cpus = calloc(cpus, sizeof(*r->cpus));
	r->cpustat = calloc(cpus, sizeof(*r->cpustat));
	if (!r->cpus || !r->cpustat)
		return libauxtrace__err(-ENOMEM);
	return 0;
}

/*
 * CPU cpu's chunks at off in the file (a count, then each chunk's compressed and plain sizes
 * and its zstd frame) decompressed to the end of fd, where *end is. 0 or -errno.
 */
static int td_reader__unzip_cpu(struct trace_dat_reader *r, int cpu, uint64_t off, int fd,
				uint64_t *end)
{
	struct td_in in = { .r = r, .base = r->map, .size = r->size, .pos = off };
	struct trace_dat_cpu_data *d = &r->cpus[cpu];
	unsigned int page = r->layout.subbuf_size;
	void *buf = NULL;
	uint32_t nr = 0;
	int err = td_in__u32(&in, &nr, "a chunk count");

	d->offset = *end;
	for (uint32_t i = 0; i < nr && !err; i++) {
		uint64_t at = in.pos;
		uint32_t zsize, size;
		const void *z;

		if (td_in__u32(&in, &zsize, "a chunk's size") || td_in__u32(&in, &size, "a chunk's size") ||
		    !(z = td_in__bytes(&in, zsize, "a chunk"))) {
			err = -EINVAL;
			break;
		}
		if (!size || size % page || size > TD_MAX_CHUNK) {
			err = td_in__corrupt(&in, at, "CPU %d: a chunk of %u bytes (whole %u-byte sub-buffers, at most %u)",
					     cpu, size, page, TD_MAX_CHUNK);
			break;
		}
		free(buf);
		buf = malloc(size);
		if (!buf) {
			err = -ENOMEM;
			break;
		}
		if (ZSTD_decompress(buf, size, z, zsize) != (size_t)size) {
			err = td_in__corrupt(&in, at, "CPU %d: a chunk does not decompress to its %u bytes",
					     cpu, size);
			break;
		}
		if (pwrite(fd, buf, size, (off_t)*end) != (ssize_t)size) {
			err = -errno ?: -EIO;
			pr_err("%s: cannot keep the decompressed data of CPU %d: %s\n", r->path, cpu,
			       strerror(-err));
			break;
		}
		*end += size;
	}
	free(buf);
	d->size = *end - d->offset;
	return err;
}

/*
 * Version 7: the top buffer's BUFFER option (the flyrecord section's offset, name, clock,
 * page size, and per CPU its id, offset and size). Compressed data goes decompressed into an
 * unnamed temporary file, mapped, which the cursors read as the file's sub-buffers.
 */
static int td_reader__buffer(struct trace_dat_reader *r, struct td_in *opt, uint64_t at,
			     const char *data, uint32_t size)
{
	struct td_in in = { .r = r, .base = (const unsigned char *)data, .size = size,
			    .section = opt->section ?: at };
	uint64_t flyrecord, end = 0;
	uint32_t page, nr;
	const char *clock;
	int fd = -1, err = 0;

	if (td_in__u64(&in, &flyrecord, "the flyrecord offset") || !td_in__str(&in, "the buffer name") ||
	    !(clock = td_in__str(&in, "the buffer clock")) || td_in__u32(&in, &page, "the page size") ||
	    td_in__u32(&in, &nr, "the CPU count"))
		return -EINVAL;
	if (!r->cpus || page != r->layout.subbuf_size || nr > (uint32_t)r->nr_cpus)
		return td_in__corrupt(&in, 0, "a BUFFER of %u CPUs and %u-byte pages in a file of %d CPUs and %u-byte pages",
				      nr, page, r->nr_cpus, r->layout.subbuf_size);
	if (!r->clock && !(r->clock = strdup(clock)))
		return -ENOMEM;
	if (r->compressed) {
		const char *dir = getenv("TMPDIR") ?: "/tmp";

		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0) {
			err = -errno;
			pr_err("%s: no room for its decompressed data in %s: %s (set TMPDIR to a writable directory)\n",
			       r->path, dir, strerror(errno));
			return libauxtrace__err(err);
		}
	}
	for (uint32_t i = 0; i < nr && !err; i++) {
		uint32_t cpu;
		uint64_t off, len;

		if (td_in__u32(&in, &cpu, "a CPU id") || td_in__u64(&in, &off, "a CPU's offset") ||
		    td_in__u64(&in, &len, "a CPU's size"))
			err = -EINVAL;
		else if (cpu >= (uint32_t)r->nr_cpus || off > r->size || len > r->size - off)
			err = td_in__corrupt(&in, in.pos - 20, "CPU %u's data, %llu bytes at 0x%llx, is outside the file's %d CPUs and %llu bytes",
					     cpu, (unsigned long long)len, (unsigned long long)off,
					     r->nr_cpus, (unsigned long long)r->size);
		else if (r->compressed)
			err = td_reader__unzip_cpu(r, (int)cpu, off, fd, &end);
		else if (len % page)
			err = td_in__corrupt(&in, in.pos - 20, "CPU %u's data is not whole %u-byte sub-buffers",
					     cpu, page);
		else
			r->cpus[cpu] = (struct trace_dat_cpu_data){ off, len };
	}
	if (!err && r->compressed && end) {
		void *map = mmap(NULL, (size_t)end, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map == MAP_FAILED)
			err = -errno;
		else
			r->data_map = map, r->data_size = end;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/* An option's text as a string of its own (the file's may lack the NUL). */
static int td_reader__option_text(char **dst, const void *data, uint32_t size)
{
	char *s = strndup(data, size);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

/* "CPU: 3\nentries: ..." : the text after the first line goes to CPU 3. */
static int td_reader__cpustat(struct trace_dat_reader *r, struct td_in *in, uint64_t at,
			      const char *data, uint32_t size)
{
	const char *nl = memchr(data, '\n', size);
	int cpu;

	if (!nl || sscanf(data, "CPU: %d", &cpu) != 1 || cpu < 0 || cpu >= r->nr_cpus)
		return td_in__corrupt(in, at, "a CPUSTAT option that names no CPU of the file's %d",
				      r->nr_cpus);
	return td_reader__option_text(&r->cpustat[cpu], nl + 1, size - (uint32_t)(nl + 1 - data));
}

static int td_reader__option(struct trace_dat_reader *r, struct td_in *in, uint16_t id,
			     uint64_t at, const char *data, uint32_t size)
{
	uint32_t cpus;
	char *text;

	switch (id) {
	case TD_OPT_CPUSTAT:
		return td_reader__cpustat(r, in, at, data, size);
	case TD_OPT_UNAME:
		return td_reader__option_text(&r->uname, data, size);
	case TD_OPT_VERSION:
		return td_reader__option_text(&r->version, data, size);
	case TD_OPT_CPUCOUNT:
		if (size < sizeof(cpus))
			return td_in__corrupt(in, at, "a CPUCOUNT option of %u bytes", size);
		memcpy(&cpus, data, sizeof(cpus));
		if (!r->cpus)	/* version 7: the count is this option */
			return td_reader__set_cpus(r, in, at, cpus);
		if ((int)cpus != r->nr_cpus)
			return td_in__corrupt(in, at, "the CPUCOUNT option says %u CPUs, the header %d",
					      cpus, r->nr_cpus);
		return 0;
	case TD_OPT_DATE:
	case TD_OPT_OFFSET:
		/* a shift of every timestamp, as text: trace-cmd report adds them */
		text = strndup(data, size);
		if (!text)
			return -ENOMEM;
		r->ts_offset += strtoll(text, NULL, 0);
		free(text);
		return 0;
	case TD_OPT_TRACECLOCK:
		if (r->file_version == 7 && size) {
			free(r->clock);
			r->clock = clock__selected(data, size);
			return r->clock ? 0 : -ENOMEM;
		}
		return 0;
	case TD_OPT_HEADER_INFO ... TD_OPT_CMDLINES:
		if (size < sizeof(uint64_t))
			return td_in__corrupt(in, at, "a section offset option of %u bytes", size);
		memcpy(&r->sections[id - TD_OPT_HEADER_INFO], data, sizeof(uint64_t));
		return 0;
	case TD_OPT_BUFFER:
		if (r->file_version == 7 && size > 8 && !data[8])	/* the top buffer */
			return td_reader__buffer(r, in, at, data, size);
		pr_warn("%s: the file also holds the buffer of instance '%.*s': only the top buffer is read\n",
			r->path, size > 8 ? (int)strnlen(data + 8, size - 8) : 0,
			size > 8 ? data + 8 : "");
		return 0;
	default:
		return 0;
	}
}

/* Options up to DONE; version 7 (next not NULL): DONE's offset of the next options section. */
static int td_reader__options(struct trace_dat_reader *r, struct td_in *in, uint64_t *next)
{
	for (;;) {
		uint64_t at = in->pos;
		const char *data;
		uint16_t id;
		uint32_t size;
		int err;

		if (td_in__u16(in, &id, "an option id"))
			return -EINVAL;
		if (id == TD_OPT_DONE && !next)
			return 0;
		if (id == TD_OPT_DONE)
			return td_in__u32(in, &size, "DONE's size") || size != 8 ||
			       td_in__u64(in, next, "the next options' offset") ?
			       td_in__corrupt(in, at, "a DONE option of version 7 holds 8 bytes") : 0;
		if (td_in__u32(in, &size, "an option size"))
			return -EINVAL;
		data = td_in__bytes(in, size, "an option");
		if (!data)
			return -EINVAL;
		err = td_reader__option(r, in, id, at, data, size);
		if (err)
			return libauxtrace__err(err);
	}
}


static int td_reader__flyrecord(struct trace_dat_reader *r, struct td_in *in)
{
	unsigned int page = r->layout.subbuf_size;
	uint64_t len;
	const char *clock;

	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct trace_dat_cpu_data *d = &r->cpus[cpu];
		uint64_t at = in->pos;

		if (td_in__u64(in, &d->offset, "the flyrecord table") ||
		    td_in__u64(in, &d->size, "the flyrecord table"))
			return -EINVAL;
		if (!d->size)
			continue;
		if (d->offset > r->size || d->size > r->size - d->offset)
			return td_in__corrupt(in, at, "CPU %d's data, %llu bytes at 0x%llx, runs past the end of the file (%llu bytes)",
					      cpu, (unsigned long long)d->size,
					      (unsigned long long)d->offset,
					      (unsigned long long)r->size);
		if (d->size % page || d->offset % 8)
			return td_in__corrupt(in, at, "CPU %d's data, %llu bytes at 0x%llx, is not whole %u-byte sub-buffers at an 8-byte boundary",
					      cpu, (unsigned long long)d->size,
					      (unsigned long long)d->offset, page);
	}
	/* the clock follows the table; a file cut right after it just names none */
	if (in->pos == r->size)
		return 0;
	if (td_in__u64(in, &len, "the trace clock's size"))
		return -EINVAL;
	clock = td_in__bytes(in, len, "the trace clock");
	if (!clock)
		return -EINVAL;
	r->clock = clock__selected(clock, (size_t)len);
	return r->clock ? 0 : libauxtrace__err(-ENOMEM);
}

/* CPU count, options, and the flyrecord table: what says where the CPUs' data is. */
static int td_reader__data_sections(struct trace_dat_reader *r, struct td_in *in)
{
	uint32_t cpus;
	int err;

	if (td_in__u32(in, &cpus, "the CPU count"))
		return -EINVAL;
	if (cpus > (in->size - in->pos) / 16)
		return td_in__corrupt(in, in->pos - 4, "a CPU count of %u: 16 bytes of table each do not fit",
				      cpus);
	err = td_reader__set_cpus(r, in, in->pos - 4, cpus);
	if (err)
		return err;
	for (;;) {
		uint64_t at = in->pos;
		const char *label = td_in__bytes(in, TD_LABEL_LEN, "a section label");

		if (!label)
			return -EINVAL;
		if (!memcmp(label, "flyrecord", TD_LABEL_LEN))
			return td_reader__flyrecord(r, in);
		if (!memcmp(label, "latency  ", TD_LABEL_LEN)) {
			pr_err("%s: a latency trace (trace-cmd record of a latency tracer): this reader reads flyrecord data only\n",
			       r->path);
			return libauxtrace__err(-EOPNOTSUPP);
		}
		if (memcmp(label, "options  ", TD_LABEL_LEN))
			return td_in__corrupt(in, at, "'options', 'flyrecord' or 'latency' expected, found '%.9s'",
					      label);
		err = td_reader__options(r, in, NULL);
		if (err)
			return err;
	}
}

/* A version 7 section: its content (decompressed: *buf, freed by the caller) in *in. */
static int td_reader__section(struct trace_dat_reader *r, uint64_t at, uint16_t want,
			      struct td_in *in, void **buf)
{
	struct td_in file = { .r = r, .base = r->map, .size = r->size, .pos = at };
	uint16_t id = 0, flags = 0;
	uint32_t string, zsize = 0, size = 0;
	uint64_t len = 0;
	const unsigned char *p;

	*buf = NULL;
	if (!at)
		return td_in__corrupt(&file, 0, "no section %u: the options do not say where it is",
				      want);
	if (td_in__u16(&file, &id, "a section id") || td_in__u16(&file, &flags, "a section's flags") ||
	    td_in__u32(&file, &string, "a section's name") || td_in__u64(&file, &len, "a section's size") ||
	    !(p = td_in__bytes(&file, len, "a section")))
		return -EINVAL;
	if (id != want)
		return td_in__corrupt(&file, at, "section %u expected, found %u", want, id);
	*in = (struct td_in){ .r = r, .base = p, .size = len, .section = at };
	if (!(flags & 1))
		return 0;
	if (td_in__u32(in, &zsize, "the compressed size") || td_in__u32(in, &size, "the plain size") ||
	    !(p = td_in__bytes(in, zsize, "the compressed block")))
		return -EINVAL;
	*buf = malloc(size ?: 1);
	if (!*buf)
		return -ENOMEM;
	if (ZSTD_decompress(*buf, size, p, zsize) != (size_t)size)
		return td_in__corrupt(in, 0, "the block does not decompress to its %u bytes", size);
	*in = (struct td_in){ .r = r, .base = *buf, .size = size, .section = at };
	return 0;
}

/* Version 7: the options chain from the head's offset, then the sections they point at. */
static int td_reader__read_v7(struct trace_dat_reader *r)
{
	struct td_in top = { .r = r, .base = r->map, .size = r->size }, in;
	uint64_t next = r->options_at;
	void *buf;
	int err = 0;

	for (int n = 0; next && !err; n++) {
		if (n == 64)
			return td_in__corrupt(&top, next, "the options sections run in a circle");
		err = td_reader__section(r, next, TD_OPT_DONE, &in, &buf);
		if (!err)
			err = td_reader__options(r, &in, &next);
		free(buf);
	}
	if (!err && !r->cpus)
		err = td_in__corrupt(&top, r->options_at, "no CPUCOUNT option");
	for (int i = 0; i < 6 && !err; i++) {
		err = td_reader__section(r, r->sections[i], (uint16_t)(TD_OPT_HEADER_INFO + i), &in,
					 &buf);
		if (!err && i == 0)
			err = td_reader__header_page(r, &in) ?: td_reader__header_event(&in);
		else if (!err && i == 1)
			err = td_reader__formats(r, &in, "ftrace", false);
		else if (!err && i == 2)
			err = td_reader__event_systems(r, &in);
		else if (!err)
			err = td_reader__symbol(r, &in, i - 3);
		free(buf);
	}
	return err;
}

static int td_reader__read(struct trace_dat_reader *r)
{
	struct td_in in = { .r = r, .base = r->map, .size = r->size };
	int err;

	r->data_map = r->map;
	err = td_reader__head(r, &in);
	if (!err && r->file_version == 7)
		return td_reader__read_v7(r);
	if (!err)
		err = td_reader__header_page(r, &in);
	if (!err)
		err = td_reader__header_event(&in);
	if (!err)
		err = td_reader__formats(r, &in, "ftrace", false);
	if (!err)
		err = td_reader__event_systems(r, &in);
	if (!err)
		err = td_reader__symbols(r, &in);
	if (!err && !r->tracing_data)
		err = td_reader__data_sections(r, &in);
	return err;
}

static int td_reader__map(struct trace_dat_reader *r)
{
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int err = 0;

	if (fd < 0) {
		err = -errno;
		pr_err("cannot open %s: %s\n", r->path, strerror(errno));
		return libauxtrace__err(err);
	}
	if (fstat(fd, &st)) {
		err = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		pr_err("%s is not a regular file: a trace.dat is read through a mapping\n", r->path);
		err = -EINVAL;
	} else if (!st.st_size) {
		pr_err("%s is empty: not a trace.dat (was the recording cut short?)\n", r->path);
		err = -EINVAL;
	} else {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map == MAP_FAILED) {
			err = -errno;
			pr_err("cannot map %s: %s\n", r->path, strerror(errno));
		} else {
			r->map = map;
			r->size = (uint64_t)st.st_size;
		}
	}
	close(fd);
	return libauxtrace__err(err);
}

/* The whole description, once read; the CPU data's pages come and go as cursors walk. */
static void td_reader__drop_description(struct trace_dat_reader *r)
{
	uint64_t end = r->size;

	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->cpus[cpu].size && r->cpus[cpu].offset < end)
			end = r->cpus[cpu].offset;
	td_reader__drop(r, 0, end);
}

struct trace_dat_reader *trace_dat_reader__open(const char *path)
{
	return trace_dat_reader__open_opts(path, NULL);
}

struct trace_dat_reader *trace_dat_reader__open_opts(const char *path,
						      const struct trace_dat_reader_opts *opts)
{
	struct trace_dat_reader *r;
	int err;

	if (!path)
		return libauxtrace__ptr_err(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (opts__copy(trace_dat_reader_opts, &r->opts, opts)) {
		free(r);
		return libauxtrace__ptr_err(EINVAL);
	}
	r->path = strdup(path);
	r->tep = tep_alloc();
	if (!r->path || !r->tep)
		err = -ENOMEM;
	else
		err = td_reader__map(r);
	if (!err)
		err = td_reader__read(r);
	if (err) {
		trace_dat_reader__close(r);
		return libauxtrace__ptr_err(err);
	}
	td_reader__drop_description(r);
	return r;
}

struct trace_dat_reader *trace_dat_reader__open_tracing_data(const void *data, size_t size,
							      const char *name)
{
	struct trace_dat_reader *r;
	int err;

	if (!data || !name)
		return libauxtrace__ptr_err(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->path = strdup(name);
	r->tep = tep_alloc();
	r->tracing_data = true;
	r->map = data;
	r->size = size;
	err = r->path && r->tep ? td_reader__read(r) : -ENOMEM;
	r->map = NULL;	/* the caller's: what the handle needs was copied out of it */
	r->data_map = NULL;
	if (err) {
		trace_dat_reader__close(r);
		return libauxtrace__ptr_err(err);
	}
	return r;
}

void trace_dat_reader__close(struct trace_dat_reader *r)
{
	if (!r)
		return;
	if (r->data_map && r->data_map != r->map)
		munmap((void *)r->data_map, (size_t)r->data_size);
	if (r->map)
		munmap((void *)r->map, (size_t)r->size);
	if (r->tep)
		tep_free(r->tep);
	for (int cpu = 0; r->cpustat && cpu < r->nr_cpus; cpu++)
		free(r->cpustat[cpu]);
	for (size_t i = 0; i < r->nr_events; i++)
		free(r->events[i]);
	free(r->events);
	free(r->cpustat);
	free(r->cpus);
	free(r->clock);
	free(r->uname);
	free(r->version);
	free(r->path);
	free(r);
}

const char *trace_dat_reader__path(const struct trace_dat_reader *r)
{
	return r->path;
}

uint64_t trace_dat_reader__size(const struct trace_dat_reader *r)
{
	return r->size;
}

int trace_dat_reader__nr_cpus(const struct trace_dat_reader *r)
{
	return r->nr_cpus;
}

unsigned int trace_dat_reader__page_size(const struct trace_dat_reader *r)
{
	return r->layout.subbuf_size;
}

const struct trace_dat_cpu_data *trace_dat_reader__cpu_data(const struct trace_dat_reader *r,
							      int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus)
		return libauxtrace__ptr_err(EINVAL);
	return &r->cpus[cpu];
}

const char *trace_dat_reader__clock(const struct trace_dat_reader *r)
{
	return r->clock;
}

const char *trace_dat_reader__uname(const struct trace_dat_reader *r)
{
	return r->uname;
}

const char *trace_dat_reader__version(const struct trace_dat_reader *r)
{
	return r->version;
}

const char *trace_dat_reader__cpustat(const struct trace_dat_reader *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? r->cpustat[cpu] : NULL;
}

const char *const *trace_dat_reader__events(const struct trace_dat_reader *r, size_t *nr)
{
	*nr = r->nr_events;
	return (const char *const *)r->events;
}

struct tep_handle *trace_dat_reader__tep(const struct trace_dat_reader *r)
{
	return r->tep;
}
