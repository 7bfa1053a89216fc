// SPDX-License-Identifier: LGPL-2.1
/*
 * The parts of a version 6 trace.dat that describe the CPU data, in the order trace-cmd
 * 3.1.6 reads them: file head, ring-buffer headers, (event formats: trace-dat-events.c),
 * kernel symbols, printk formats, saved cmdlines, CPU count, options, and the flyrecord
 * table with the trace clock after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <event-parse.h>
#include <internal/lib.h>
#include <tracefs/tracefs.h>
#include "trace-dat-ids.h"
#include "trace-dat-internal.h"

int td_layout__read(struct td_layout *l, struct tracefs_instance *inst)
{
	struct tep_handle *tep;
	int size, err = 0;
	char *text = tracefs_instance_file_read(inst, "events/header_page", &size);

	if (!text) {
		err = -errno;
		pr_err("cannot read events/header_page of tracefs instance '%s': %s (is tracefs mounted, and does the instance exist?)\n",
		       tracefs_instance_get_name(inst) ?: "(top)", strerror(errno));
		return err;
	}
	tep = tep_alloc();
	if (!tep) {
		free(text);
		return -ENOMEM;
	}
	if (tep_parse_header_page(tep, text, size, sizeof(long)) == 0) {
		l->page_size = tep_get_sub_buffer_size(tep);
		l->long_size = tep_get_header_page_size(tep);
	} else {
		l->page_size = l->long_size = 0;
	}
	/* trace-cmd masks file offsets with the page size: it must be a power of two */
	if (l->page_size < 64 || (l->page_size & (l->page_size - 1)) ||
	    (l->long_size != 4 && l->long_size != 8)) {
		pr_err("events/header_page describes no sub-buffer trace.dat can hold (size %u, long %u):\n%s",
		       l->page_size, l->long_size, text);
		err = -EPROTO;
	}
	tep_free(tep);
	free(text);
	return err;
}

void td_meta__write_head(struct td_out *out, const struct td_layout *l, const char *version)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	const char big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	const char long_size = sizeof(long);	/* user space's: the kernel's is in header_page */

	td_out__write(out, magic, sizeof(magic));
	td_out__write(out, "tracing", 7);
	td_out__str(out, version);
	td_out__write(out, &big_endian, 1);
	td_out__write(out, &long_size, 1);
	td_out__u32(out, l->page_size);
}

static void section__instance_file(struct td_out *out, struct tracefs_instance *inst,
				   const char *file)
{
	char *path = tracefs_instance_get_file(inst, file);

	td_out__required_file(out, path, "");
	tracefs_put_tracing_file(path);
}

void td_meta__write_headers(struct td_out *out, struct tracefs_instance *inst)
{
	td_out__str(out, "header_page");
	section__instance_file(out, inst, "events/header_page");
	td_out__str(out, "header_event");
	section__instance_file(out, inst, "events/header_event");
}

/* Whether /proc/kallsyms shows addresses: a reader without them sees only zeros. */
static bool kallsyms__visible(const char *head, size_t len)
{
	size_t i;

	for (i = 0; i < len && head[i] != ' '; i++)
		if (head[i] != '0')
			return true;
	if (len) {
		unsigned long long kptr_restrict;
		char value[24] = "?";

		if (!libauxtrace__read_u64("/proc/sys/kernel/kptr_restrict", &kptr_restrict))
			snprintf(value, sizeof(value), "%llu", kptr_restrict);
		pr_warn("/proc/kallsyms hides kernel addresses (kernel.kptr_restrict=%s): trace.dat gets no kernel symbols, so trace-cmd shows raw addresses; record as root with kptr_restrict 0 or 1 to have them\n",
			value);
	}
	return false;
}

/* A section the file can do without: empty, with a warning, when it cannot be read. */
static void section__optional_file(struct td_out *out, const char *path, int width,
				   bool (*peek)(const char *head, size_t len))
{
	int err = path ? td_out__file(out, path, width, peek) : -ENOENT;

	if (err && !out->err) {
		pr_warn("cannot read %s: %s: trace.dat goes without it\n", path ?: "a tracefs file",
			strerror(-err));
		td_out__write(out, (const char[8]){ 0 }, width);
	}
}

/* The pid -> comm map: instances have none of their own; the top level's covers all. */
static char *cmdlines_path(struct tracefs_instance *inst)
{
	char *path = tracefs_instance_get_file(inst, "saved_cmdlines");

	if (path && access(path, R_OK)) {
		tracefs_put_tracing_file(path);
		path = tracefs_get_tracing_file("saved_cmdlines");
	}
	return path;
}

void td_meta__write_symbol(struct td_out *out, struct tracefs_instance *inst, int which)
{
	char *path;

	switch (which) {
	case TD_SYMBOLS_KALLSYMS:
		section__optional_file(out, "/proc/kallsyms", 4, kallsyms__visible);
		return;
	case TD_SYMBOLS_PRINTK:
		path = tracefs_get_tracing_file("printk_formats");
		section__optional_file(out, path, 4, NULL);
		break;
	default:
		path = cmdlines_path(inst);
		section__optional_file(out, path, 8, NULL);
		break;
	}
	tracefs_put_tracing_file(path);
}

void td_meta__write_symbols(struct td_out *out, struct tracefs_instance *inst, bool kallsyms)
{
	if (kallsyms)
		td_meta__write_symbol(out, inst, TD_SYMBOLS_KALLSYMS);
	else
		td_out__u32(out, 0);	/* perf.data's: perf resolves kernel symbols itself */
	td_meta__write_symbol(out, inst, TD_SYMBOLS_PRINTK);
	td_meta__write_symbol(out, inst, TD_SYMBOLS_CMDLINES);
}

void td_option__write(struct td_out *out, uint16_t id, const void *data, uint32_t len)
{
	td_out__u16(out, id);
	td_out__u32(out, len);
	td_out__write(out, data, len);
}

/* "CPU: <n>" and per_cpu/cpu<n>/stats, as trace-cmd report --stat shows them. */
static void option__cpustat(struct td_out *out, struct tracefs_instance *inst, int cpu)
{
	char file[64], head[32];
	int size, n;
	char *stats;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(inst, file, &size);
	if (!stats)
		return;		/* a CPU that is not possible has no stats: nothing to say */
	n = snprintf(head, sizeof(head), "CPU: %d\n", cpu);
	td_out__u16(out, TD_OPT_CPUSTAT);
	td_out__u32(out, n + size + 1);
	td_out__write(out, head, n);
	td_out__write(out, stats, size + 1);
	free(stats);
}

char *td_meta__read_clock(struct tracefs_instance *inst)
{
	char *clock = tracefs_instance_file_read(inst, "trace_clock", NULL);

	if (!clock)
		pr_err("cannot read trace_clock of tracefs instance '%s': %s\n",
		       tracefs_instance_get_name(inst) ?: "(top)", strerror(errno));
	return clock;
}

void td_meta__write_instance_options(struct td_out *out, struct tracefs_instance *inst,
				     int nr_cpus, const char *version, const char *clock,
				     bool cpustats)
{
	struct utsname u;
	char *text;
	uint32_t cpus = nr_cpus;

	td_option__write(out, TD_OPT_CPUCOUNT, &cpus, sizeof(cpus));
	td_option__write(out, TD_OPT_TRACECLOCK, clock, strlen(clock) + 1);
	if (uname(&u) == 0 &&
	    asprintf(&text, "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version,
		     u.machine) >= 0) {
		td_option__write(out, TD_OPT_UNAME, text, strlen(text) + 1);
		free(text);
	}
	td_option__write(out, TD_OPT_VERSION, version, strlen(version) + 1);
	for (int cpu = 0; cpustats && cpu < nr_cpus; cpu++)
		option__cpustat(out, inst, cpu);
}

void td_meta__write_options(struct td_out *out, struct tracefs_instance *inst, int nr_cpus,
			    const char *version)
{
	td_out__u32(out, nr_cpus);
	td_out__write(out, "options  ", 10);
	/*
	 * The CPU count is the same as the table's: a reader that honours it reads the table
	 * unchanged. The clock text goes after the flyrecord table. libtracecmd 3.1.6 also
	 * parses the TRACECLOCK option's data as a clock: an empty string, so that it neither
	 * reads past the data (no data at all) nor drops a first copy of the clock it parsed
	 * (the whole text).
	 */
	td_meta__write_instance_options(out, inst, nr_cpus, version, "", true);
	td_out__u16(out, TD_OPT_DONE);	/* version 6: no size after DONE */
}

uint64_t td_meta__write_flyrecord(struct td_out *out, const char *clock,
				  const uint64_t *sizes, int nr, uint64_t align,
				  uint64_t *offsets)
{
	size_t len = strlen(clock);
	uint64_t at;

	td_out__write(out, "flyrecord", 10);
	/* trace-cmd dump reads 10 bytes past the clock for another section: there are some */
	at = out->pos + 16 * (uint64_t)nr + 8 + len + 10;
	for (int cpu = 0; cpu < nr; cpu++) {
		at = (at + align - 1) / align * align;
		offsets[cpu] = at;
		td_out__u64(out, at);
		td_out__u64(out, sizes[cpu]);
		at += sizes[cpu];
	}
	td_out__u64(out, len);
	td_out__write(out, clock, len);
	return at;
}
