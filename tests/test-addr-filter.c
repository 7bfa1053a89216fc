// SPDX-License-Identifier: LGPL-2.1
/*
 * Address filters: the grammar table (the filters every accepted string makes, the exact
 * error of every refused one), symbols resolved against ELF files built here with gcc
 * (known functions, a static function in two objects, stripped copies, a shared object
 * checked against what the dynamic loader maps), a fake kallsyms (and one that
 * kptr_restrict zeroed), a fake PMU's nr_addr_filters, and the real kernel refusing an
 * address filter on a software event.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/addr-filter.h>
#include <auxtrace/evsel.h>
#include <auxtrace/pmu.h>

#include "lib/fake-sysfs.h"
#include "lib/log-capture.h"
#include "lib/testlib.h"

/* ------------------------------------------------------------------ grammar */

struct want_filter {
	const char *action;
	bool range, start;
	const char *sym_from;
	int sym_from_idx;
	const char *sym_to;
	int sym_to_idx;
	uint64_t addr, size;
	const char *filename;
	size_t pos;
};

#define NO_SYM NULL, -1

static const struct parse_ok {
	const char *str;
	int cnt;
	struct want_filter f[3];
} parse_ok[] = {
	{ "", 0, { { 0 } } },
	{ " ,, ", 0, { { 0 } } },
	{ "filter main @/bin/ls", 1,
	  { { "filter", true, true, "main", -1, NO_SYM, 0, 0, "/bin/ls", 0 } } },
	{ "start 0x1000", 1,
	  { { "start", false, true, NO_SYM, NO_SYM, 0x1000, 0, NULL, 0 } } },
	{ "stop 010", 1,
	  { { "stop", false, false, NO_SYM, NO_SYM, 8, 0, NULL, 0 } } },
	{ "tracestop func #2 / 64 @lib.so", 1,
	  { { "stop", true, false, "func", 2, NO_SYM, 0, 64, "lib.so", 0 } } },
	{ "filter * @/bin/ls", 1,
	  { { "filter", true, true, "*", -1, NO_SYM, 0, 0, "/bin/ls", 0 } } },
	{ "filter *", 1,
	  { { "filter", true, true, "*", -1, NO_SYM, 0, 0, NULL, 0 } } },
	/* The kernel's own string parses back into what it says. */
	{ "filter 0x4f10/0x2c5@/usr/bin/ls", 1,
	  { { "filter", true, true, NO_SYM, NO_SYM, 0x4f10, 0x2c5, "/usr/bin/ls", 0 } } },
	{ "start 0x10/0x20", 1,
	  { { "start", true, true, NO_SYM, NO_SYM, 0x10, 0x20, NULL, 0 } } },
	{ "filter main#g / other #G @ /bin/ls", 1,
	  { { "filter", true, true, "main", 0, "other", 0, 0, 0, "/bin/ls", 0 } } },
	{ "filter a #0x2/b#010@c", 1,
	  { { "filter", true, true, "a", 2, "b", 8, 0, 0, "c", 0 } } },
	{ "filter main,stop foo  start 1,", 3,
	  { { "filter", true, true, "main", -1, NO_SYM, 0, 0, NULL, 0 },
	    { "stop", false, false, "foo", -1, NO_SYM, 0, 0, NULL, 12 },
	    { "start", false, true, NO_SYM, NO_SYM, 1, 0, NULL, 22 } } },
	{ "\tfilter 0x1000 / 4096 @/a, start 2", 2,
	  { { "filter", true, true, NO_SYM, NO_SYM, 0x1000, 4096, "/a", 1 },
	    { "start", false, true, NO_SYM, NO_SYM, 2, 0, NULL, 27 } } },
};

START_TEST(test_parse_accepted)
{
	const struct parse_ok *t = &parse_ok[_i];
	struct addr_filters filts;
	struct addr_filter *filt;
	int n = 0;

	addr_filters__init(&filts);
	log_capture_start();
	ck_assert_msg(addr_filters__parse_bare_filter(&filts, t->str) == 0, "'%s': %s", t->str,
		      log_text);
	log_capture_stop();
	ck_assert_int_eq(filts.cnt, t->cnt);
	addr_filters__for_each_entry(&filts, filt) {
		const struct want_filter *w = &t->f[n++];

		ck_assert_msg(n <= t->cnt, "'%s': more filters than %d", t->str, t->cnt);
		ck_assert_str_eq(filt->action, w->action);
		ck_assert_int_eq(filt->range, w->range);
		ck_assert_int_eq(filt->start, w->start);
		ck_assert_pstr_eq(filt->sym_from, w->sym_from);
		ck_assert_int_eq(filt->sym_from_idx, w->sym_from_idx);
		ck_assert_pstr_eq(filt->sym_to, w->sym_to);
		ck_assert_int_eq(filt->sym_to_idx, w->sym_to_idx);
		ck_assert_uint_eq(filt->addr, w->addr);
		ck_assert_uint_eq(filt->size, w->size);
		ck_assert_pstr_eq(filt->filename, w->filename);
		ck_assert_uint_eq(filt->pos, w->pos);
		ck_assert_int_eq(filt->resolved, !w->sym_from && !w->sym_to);
	}
	ck_assert_int_eq(n, t->cnt);
	addr_filters__exit(&filts);
	ck_assert_int_eq(filts.cnt, 0);
}
END_TEST

#define FORMAT_HELP							\
	"EFilter format is: filter|start|stop|tracestop <start symbol or address> " \
	"[/ <end symbol or size>] [@<file name>]\n"			\
	"Where multiple filters are separated by space or comma.\n"

static const struct parse_bad {
	const char *str;
	const char *log;
} parse_bad[] = {
	{ "flter main",
	  "EFailed to parse address filter 'flter main': at byte 0 ('f'): 'flter' is not an "
	  "action: a filter starts with filter, start, stop or tracestop\n" FORMAT_HELP },
	{ "0x1000",
	  "EFailed to parse address filter '0x1000': at byte 0 ('0'): '0x1000' is not an "
	  "action: a filter starts with filter, start, stop or tracestop\n" FORMAT_HELP },
	{ "filter",
	  "EFailed to parse address filter 'filter': at byte 6 (the end): the start is "
	  "missing: give an address or a function symbol\n" FORMAT_HELP },
	{ "start 0x1000, filter ,",
	  "EFailed to parse address filter 'start 0x1000, filter ,': at byte 21 (','): the "
	  "start is missing: give an address or a function symbol\n" FORMAT_HELP },
	{ "filter 0x10g",
	  "EFailed to parse address filter 'filter 0x10g': at byte 11 ('g'): '0x10g' is not a "
	  "number, and the start beginning with a digit must be one (decimal, 0x hex or 0 "
	  "octal)\n" FORMAT_HELP },
	{ "filter 09",
	  "EFailed to parse address filter 'filter 09': at byte 8 ('9'): '09' is not a number, "
	  "and the start beginning with a digit must be one (decimal, 0x hex or 0 octal)\n"
	  FORMAT_HELP },
	{ "filter 0x10000000000000000",
	  "EFailed to parse address filter 'filter 0x10000000000000000': at byte 7 ('0'): the "
	  "start '0x10000000000000000' does not fit in 64 bits\n" FORMAT_HELP },
	{ "filter main / 1x",
	  "EFailed to parse address filter 'filter main / 1x': at byte 15 ('x'): '1x' is not a "
	  "number, and the end or size after '/' beginning with a digit must be one (decimal, "
	  "0x hex or 0 octal)\n" FORMAT_HELP },
	{ "filter main /",
	  "EFailed to parse address filter 'filter main /': at byte 13 (the end): the end or "
	  "size after '/' is missing: give an address or a function symbol\n" FORMAT_HELP },
	{ "filter main @",
	  "EFailed to parse address filter 'filter main @': at byte 13 (the end): '@' needs a "
	  "file name\n" FORMAT_HELP },
	{ "filter main @,start 1",
	  "EFailed to parse address filter 'filter main @,start 1': at byte 13 (','): '@' needs "
	  "a file name\n" FORMAT_HELP },
	{ "filter main #",
	  "EFailed to parse address filter 'filter main #': at byte 13 (the end): '#' takes N "
	  "(the N-th symbol of the name in address order), or 0, g or G (the global one)\n"
	  FORMAT_HELP },
	{ "filter main #gx",
	  "EFailed to parse address filter 'filter main #gx': at byte 13 ('g'): '#' takes N "
	  "(the N-th symbol of the name in address order), or 0, g or G (the global one)\n"
	  FORMAT_HELP },
	{ "filter main #2147483648",
	  "EFailed to parse address filter 'filter main #2147483648': at byte 13 ('2'): "
	  "#2147483648 is too large: there are never that many symbols of one name\n"
	  FORMAT_HELP },
	{ "filter main #-1",
	  "EFailed to parse address filter 'filter main #-1': at byte 13 ('-'): '#' takes N "
	  "(the N-th symbol of the name in address order), or 0, g or G (the global one)\n"
	  FORMAT_HELP },
	{ "filter 0x1000 #2",
	  "EFailed to parse address filter 'filter 0x1000 #2': at byte 14 ('#'): #N picks one "
	  "of several symbols of a name, and the start is an address\n" FORMAT_HELP },
	{ "filter * / 64",
	  "EFailed to parse address filter 'filter * / 64': at byte 9 ('/'): '*' is the whole "
	  "file or kernel: it takes no end or size\n" FORMAT_HELP },
	{ "filter * #2",
	  "EFailed to parse address filter 'filter * #2': at byte 9 ('#'): '*' is the whole "
	  "file or kernel: it takes no #N\n" FORMAT_HELP },
	{ "filter 0x1 @/a,b",
	  "EFailed to parse address filter 'filter 0x1 @/a,b': at byte 15 ('b'): 'b' is not an "
	  "action: a filter starts with filter, start, stop or tracestop\n" FORMAT_HELP },
	{ "filter main / *",
	  "EFailed to parse address filter 'filter main / *': at byte 14 ('*'): '*' (a whole "
	  "file or the kernel) can only be the start\n" FORMAT_HELP },
};

START_TEST(test_parse_refused)
{
	const struct parse_bad *t = &parse_bad[_i];
	struct addr_filters filts;
	int err;

	addr_filters__init(&filts);
	log_capture_start();
	err = addr_filters__parse_bare_filter(&filts, t->str);
	log_capture_stop();
	ck_assert_msg(err == -EINVAL && errno == EINVAL, "'%s': %d", t->str, err);
	ck_assert_int_eq(filts.cnt, 0);
	ck_assert_ptr_null(filts.head);
	ck_assert_str_eq(log_text, t->log);
}
END_TEST

START_TEST(test_parse_appends)
{
	struct addr_filters filts;

	addr_filters__init(&filts);
	ck_assert_int_eq(addr_filters__parse_bare_filter(&filts, "start 1"), 0);
	ck_assert_int_eq(addr_filters__parse_bare_filter(&filts, "stop 2, stop 3"), 0);
	ck_assert_int_eq(filts.cnt, 3);
	ck_assert_uint_eq(filts.head->next->next->addr, 3);
	ck_assert_uint_eq(filts.head->next->next->pos, 8);	/* in its own string */
	log_capture_start();
	ck_assert_int_eq(addr_filters__parse_bare_filter(&filts, NULL), -EINVAL);
	ck_assert(log_captured("No address filter string"));
	ck_assert_int_eq(filts.cnt, 3);
	/* As perf: a refused string empties the whole list, what was there before too. */
	ck_assert_int_eq(addr_filters__parse_bare_filter(&filts, "start 4, flter 5"), -EINVAL);
	log_capture_stop();
	ck_assert_int_eq(filts.cnt, 0);
	ck_assert_ptr_null(filts.head);
	addr_filters__exit(&filts);
}
END_TEST

/* ------------------------------------------------------------------ ELF files */

static char dir[64];

static const char main_c[] =
	"int call1(int), call2(int);\n"
	"__attribute__((noinline)) int known_a(int x) { return call1(x) + call2(x); }\n"
	"int main(int argc, char **argv) { (void)argv; return known_a(argc); }\n";
static const char dup1_c[] =
	"static __attribute__((noinline, used)) int dup(int x) { return x * 3 + 1; }\n"
	"int call1(int x) { return dup(x); }\n";
static const char dup2_c[] =
	"static __attribute__((noinline, used)) int dup(int x) { return x * 5 - (x >> 3); }\n"
	"int call2(int x) { return dup(x); }\n";
static const char lib_c[] =
	"int lib_fn(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }\n";
/* No C library, no start files: the functions are exactly these, in this order. */
static const char tiny_c[] =
	"__asm__(\".text\\n\"\n"
	"\".globl _start\\n.type _start,@function\\n_start:\\n nop\\n.size _start,.-_start\\n\"\n"
	"\".globl nosize\\n.type nosize,@function\\nnosize:\\n nop\\n nop\\n nop\\n\"\n"
	"\".globl second\\n.type second,@function\\nsecond:\\n ret\\n.size second,.-second\\n\"\n"
	"\".globl last_nosize\\n.type last_nosize,@function\\nlast_nosize:\\n ret\\n\");\n";

static void write_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void run(const char *cmd)
{
	char full[1024];

	snprintf(full, sizeof(full), "cd %s && %s", dir, cmd);
	ck_assert_msg(system(full) == 0, "failed: %s", full);
}

static void elf_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/auxtrace-addrf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file("main.c", main_c);
	write_file("dup1.c", dup1_c);
	write_file("dup2.c", dup2_c);
	write_file("lib.c", lib_c);
	write_file("tiny.c", tiny_c);
	write_file("notelf", "just text\n");
	/* Linked at 0x400000: a symbol's file offset is its value - 0x400000. */
	run("gcc -O1 -no-pie -Wl,-Ttext-segment=0x400000 -o prog main.c dup1.c dup2.c");
	run("gcc -O1 -rdynamic -o prog-rdyn main.c dup1.c dup2.c && "
	    "strip -o prog-rdyn.stripped prog-rdyn");
	run("gcc -O1 -shared -fPIC -o libd.so lib.c dup1.c dup2.c");
	run("gcc -nostdlib -static -o tiny tiny.c && strip -o tiny.stripped tiny");
}

static void elf_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (dir[0] && system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

/* What nm says of the n-th (1-based, address order) function symbol called name. */
struct nm_sym {
	uint64_t value, size;
	char next[64];		/* the next function symbol in address order */
};

static void nm(const char *file, const char *name, int n, struct nm_sym *out)
{
	char cmd[256], line[256];
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -n -S --defined-only %s/%s", dir, file);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), p)) {
		char *tok[4], *save = NULL;
		unsigned long long value, size = 0;
		int nr = 0;

		for (char *t = strtok_r(line, " \n", &save); t && nr < 4;
		     t = strtok_r(NULL, " \n", &save))
			tok[nr++] = t;
		if (nr < 3)
			continue;
		value = strtoull(tok[0], NULL, 16);
		if (nr == 4)
			size = strtoull(tok[1], NULL, 16);
		/* "value [size] type name": keep functions only */
		if (strlen(tok[nr - 2]) != 1 || !strchr("tTwWi", tok[nr - 2][0]))
			continue;
		if (found && !out->next[0] && value > out->value) {
			snprintf(out->next, sizeof(out->next), "%s", tok[nr - 1]);
			continue;
		}
		if (!found && !strcmp(tok[nr - 1], name) && --n == 0) {
			out->value = value;
			out->size = size;
			found = true;
		}
	}
	pclose(p);
	ck_assert_msg(found, "nm finds no %s in %s", name, file);
}

/* dir/file, in one of 8 buffers used in turn: enough for the paths one test holds. */
static char *path_of(const char *file)
{
	static char path[8][PATH_MAX];
	static int turn;
	char *p = path[turn++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", dir, file);
	return p;
}

/* Parse and resolve one filter string: the kernel's string, or NULL (errno, log). */
static char *resolve(const char *filter, const char *kallsyms)
{
	struct addr_filters filts;
	char *str = NULL;
	int err;

	addr_filters__init(&filts);
	log_capture_start();
	err = addr_filters__parse_bare_filter(&filts, filter);
	if (!err)
		err = addr_filters__resolve(&filts, kallsyms);
	if (!err)
		str = addr_filters__to_str(&filts);
	log_capture_stop();
	if (err)
		errno = -err;
	addr_filters__exit(&filts);
	return str;
}

static void assert_resolves(const char *filter, const char *want)
{
	char *got = resolve(filter, NULL);

	ck_assert_msg(got, "'%s': %s", filter, log_text);
	ck_assert_str_eq(got, want);
	free(got);
}

static void assert_refused(const char *filter, const char *kallsyms, int err)
{
	char *got = resolve(filter, kallsyms);

	ck_assert_msg(!got, "'%s' gave '%s'", filter, got);
	ck_assert_msg(errno == err, "'%s': errno %d, want %d", filter, errno, err);
}

static char want[1024];

static const char *kstr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *kstr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	return want;
}

START_TEST(test_elf_known_functions)
{
	struct nm_sym known, call1, call2;
	char filter[256], *prog = path_of("prog");

	nm("prog", "known_a", 1, &known);
	nm("prog", "call1", 1, &call1);
	nm("prog", "call2", 1, &call2);
	ck_assert_uint_gt(known.size, 0);

	snprintf(filter, sizeof(filter), "filter known_a @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     known.value - 0x400000, known.size, prog));
	snprintf(filter, sizeof(filter), "start known_a @%s, tracestop call1 @%s", prog, prog);
	assert_resolves(filter, kstr("start 0x%" PRIx64 "@%s,stop 0x%" PRIx64 "/0x%" PRIx64
				     "@%s", known.value - 0x400000, prog,
				     call1.value - 0x400000, call1.size, prog));
	snprintf(filter, sizeof(filter), "filter known_a / 0x10 @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x10@%s", known.value - 0x400000,
				     prog));
	ck_assert_uint_lt(call1.value, call2.value);
	snprintf(filter, sizeof(filter), "filter call1 / call2 @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     call1.value - 0x400000,
				     call2.value + call2.size - call1.value, prog));

	snprintf(filter, sizeof(filter), "filter call2 / call1 @%s", prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("Symbol 'call1' (0x%" PRIx64 ") comes before 'call2' "
					"(0x%" PRIx64 ")", call1.value - 0x400000,
					call2.value - 0x400000)), "%s", log_text);
	ck_assert_msg(log_captured("Failed to resolve address filter 1 (at byte 0 of the "
				   "filter string)"), "%s", log_text);

	/* Numbers are used as given; a relative file name reaches the kernel absolute. */
	ck_assert_int_eq(chdir(dir), 0);
	assert_resolves("filter 0x1000/0x20@prog", kstr("filter 0x1000/0x20@%s", prog));
	assert_resolves("filter known_a @ prog", kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
						      known.value - 0x400000, known.size, prog));
}
END_TEST

START_TEST(test_elf_duplicate_static)
{
	struct nm_sym d1, d2, call1;
	char filter[256], *prog = path_of("prog");

	nm("prog", "dup", 1, &d1);
	nm("prog", "dup", 2, &d2);
	nm("prog", "call1", 1, &call1);

	snprintf(filter, sizeof(filter), "filter dup @%s", prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr(
		"EMultiple symbols with name 'dup' in %s\n"
		"E#1\t0x%" PRIx64 "\tl\tdup\t(dup1.c)\n"
		"E\t\twhich is near\t\t%s\n"
		"E#2\t0x%" PRIx64 "\tl\tdup\t(dup2.c)\n"
		"E\t\twhich is near\t\t%s\n"
		"EDisambiguate symbol name by inserting #n after the name e.g. dup #2\n"
		"EOr select a global symbol by inserting #0 or #g or #G\n",
		prog, d1.value, d1.next, d2.value, d2.next)), "%s", log_text);

	snprintf(filter, sizeof(filter), "filter dup #2 @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     d2.value - 0x400000, d2.size, prog));
	snprintf(filter, sizeof(filter), "filter dup #1 @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     d1.value - 0x400000, d1.size, prog));

	/* #g: the global one of a name, here the only one. */
	snprintf(filter, sizeof(filter), "filter call1 #g @%s", prog);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     call1.value - 0x400000, call1.size, prog));

	snprintf(filter, sizeof(filter), "filter dup #3 @%s", prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("EN'th occurrence (N=3) of symbol 'dup' not found in "
					"%s: there are only 2\nE#1\t", prog)), "%s", log_text);
	snprintf(filter, sizeof(filter), "filter dup #g @%s", prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("EGlobal symbol 'dup' not found in %s\nE#1\t", prog)),
		      "%s", log_text);
	ck_assert_msg(log_captured("ENote that symbols must be functions.\n"), "%s", log_text);
	snprintf(filter, sizeof(filter), "filter nosuch @%s", prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("ESymbol 'nosuch' not found in %s\n"
					"ENote that symbols must be functions.\n", prog)), "%s",
		      log_text);
	/* Data is no function. */
	snprintf(filter, sizeof(filter), "filter main / 64 @%s, filter __data_start @%s", prog,
		 prog);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured("Symbol '__data_start' not found"), "%s", log_text);
	ck_assert_msg(log_captured("Failed to resolve address filter 2 (at byte"), "%s",
		      log_text);
}
END_TEST

START_TEST(test_elf_stripped)
{
	char filter[256], *stripped = path_of("prog-rdyn.stripped");
	char *full, *dyn;

	/* -rdynamic put known_a in .dynsym too: the stripped copy finds the same offset. */
	snprintf(filter, sizeof(filter), "filter known_a @%s", path_of("prog-rdyn"));
	full = resolve(filter, NULL);
	ck_assert_msg(full, "%s", log_text);
	snprintf(filter, sizeof(filter), "filter known_a @%s", stripped);
	dyn = resolve(filter, NULL);
	ck_assert_msg(dyn, "%s", log_text);
	*strchr(full, '@') = *strchr(dyn, '@') = '\0';
	ck_assert_str_eq(dyn, full);
	free(full);
	free(dyn);

	/* The static dup is only in .symtab, which strip removed. */
	snprintf(filter, sizeof(filter), "filter dup #2 @%s", path_of("prog-rdyn"));
	full = resolve(filter, NULL);
	ck_assert_msg(full, "%s", log_text);
	free(full);
	snprintf(filter, sizeof(filter), "filter dup @%s", stripped);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("ESymbol 'dup' not found in %s\n", stripped)), "%s",
		      log_text);

	snprintf(filter, sizeof(filter), "filter second @%s", path_of("tiny.stripped"));
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("E%s has no symbol table (.symtab or .dynsym): it was "
					"stripped; give addresses (offsets in the file) instead "
					"of symbols, or use a copy with symbols\n",
					path_of("tiny.stripped"))), "%s", log_text);
	/* An address needs no symbol table. */
	snprintf(filter, sizeof(filter), "filter 0x1000/16 @%s", path_of("tiny.stripped"));
	full = resolve(filter, NULL);
	ck_assert_msg(full, "%s", log_text);
	free(full);
}
END_TEST

/* Sizes: st_size, else up to the next function; the last one without size has none. */
START_TEST(test_elf_sizes)
{
	struct nm_sym nosize, second, last;
	char filter[256], *tiny = path_of("tiny");
	uint64_t base;

	nm("tiny", "nosize", 1, &nosize);
	nm("tiny", "second", 1, &second);
	nm("tiny", "last_nosize", 1, &last);
	ck_assert_uint_eq(nosize.size, 0);
	ck_assert_str_eq(nosize.next, "second");
	ck_assert_uint_eq(last.size, 0);

	/* Whatever the static link address is, the offset keeps the page offset. */
	snprintf(filter, sizeof(filter), "start nosize @%s", tiny);
	{
		char *got = resolve(filter, NULL);
		unsigned long long off;

		ck_assert_msg(got && sscanf(got, "start 0x%llx@", &off) == 1, "%s", log_text);
		ck_assert_uint_eq(off % 4096, nosize.value % 4096);
		base = nosize.value - off;
		free(got);
	}
	snprintf(filter, sizeof(filter), "filter nosize @%s", tiny);
	assert_resolves(filter, kstr("filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
				     nosize.value - base, second.value - nosize.value, tiny));
	snprintf(filter, sizeof(filter), "start last_nosize @%s", tiny);
	assert_resolves(filter, kstr("start 0x%" PRIx64 "@%s", last.value - base, tiny));
	snprintf(filter, sizeof(filter), "filter last_nosize @%s", tiny);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("ECannot determine size of symbol 'last_nosize': it has "
					"none in %s and no symbol follows it; give a size, e.g. "
					"last_nosize / 64\n", tiny)), "%s", log_text);
	snprintf(filter, sizeof(filter), "filter nosize / last_nosize @%s", tiny);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured("Cannot determine size of symbol 'last_nosize'"), "%s",
		      log_text);
}
END_TEST

/* The offset is where the loader maps the function from: the bytes agree. */
START_TEST(test_elf_shared_object)
{
	char filter[256], *lib = path_of("libd.so");
	unsigned long long off, size;
	unsigned char file_bytes[64];
	struct nm_sym fn;
	void *handle, *mem;
	char *got;
	int fd;

	nm("libd.so", "lib_fn", 1, &fn);
	snprintf(filter, sizeof(filter), "filter lib_fn @%s", lib);
	got = resolve(filter, NULL);
	ck_assert_msg(got, "%s", log_text);
	ck_assert_msg(sscanf(got, "filter 0x%llx/0x%llx@", &off, &size) == 2, "%s", got);
	ck_assert_str_eq(strchr(got, '@') + 1, lib);
	free(got);
	ck_assert_uint_eq(size, fn.size);

	handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(handle, "%s", dlerror());
	mem = dlsym(handle, "lib_fn");
	ck_assert_ptr_nonnull(mem);
	fd = open(lib, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	size = size < sizeof(file_bytes) ? size : sizeof(file_bytes);
	ck_assert_int_eq(pread(fd, file_bytes, size, (off_t)off), (ssize_t)size);
	close(fd);
	ck_assert_int_eq(memcmp(file_bytes, mem, size), 0);
	dlclose(handle);
}
END_TEST

START_TEST(test_whole_file_and_file_errors)
{
	char filter[256], *prog = path_of("prog");
	struct stat st;

	ck_assert_int_eq(stat(prog, &st), 0);
	snprintf(filter, sizeof(filter), "filter * @%s", prog);
	assert_resolves(filter, kstr("filter 0x0/0x%llx@%s", (unsigned long long)st.st_size,
				     prog));

	snprintf(filter, sizeof(filter), "filter * @%s/missing", dir);
	assert_refused(filter, NULL, ENOENT);
	ck_assert_msg(log_captured("Cannot determine the size of"), "%s", log_text);
	snprintf(filter, sizeof(filter), "filter * @%s", dir);
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured("is not a regular file with data"), "%s", log_text);

	snprintf(filter, sizeof(filter), "filter main @%s/missing", dir);
	assert_refused(filter, NULL, ENOENT);
	ck_assert_msg(log_captured(kstr("ECannot open %s/missing for its symbols: No such file "
					"or directory\n", dir)), "%s", log_text);
	snprintf(filter, sizeof(filter), "filter main @%s", path_of("notelf"));
	assert_refused(filter, NULL, EINVAL);
	ck_assert_msg(log_captured(kstr("E%s is not an ELF file", path_of("notelf"))), "%s",
		      log_text);
	/* A number with a file that is gone: the kernel's string cannot name it. */
	snprintf(filter, sizeof(filter), "filter 0x10/0x10 @%s/missing", dir);
	assert_refused(filter, NULL, ENOENT);
	ck_assert_msg(log_captured("/missing: No such file or directory"), "%s", log_text);
}
END_TEST

/* ------------------------------------------------------------------ kallsyms */

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t dup_k\n"
	"ffffffff81000180 T global_fn\n"
	"ffffffff81000200 t dup_k\n"
	"ffffffff81000280 D some_data\n"
	"ffffffff81000300 W weak_fn\n"
	"ffffffff81001000 T dup_k\n"
	"ffffffff81001040 t last_func\n"
	"ffffffffc0000000 t mod_fn\t[mymod]\n"
	"ffffffffc0000100 T mod_end\t[mymod]\n";

static char ks_path[128], ks_zero[128], ks_bad[128];

static void kallsyms_setup(void)
{
	elf_setup();
	snprintf(ks_path, sizeof(ks_path), "%s/kallsyms", dir);
	snprintf(ks_zero, sizeof(ks_zero), "%s/kallsyms-zero", dir);
	snprintf(ks_bad, sizeof(ks_bad), "%s/kallsyms-bad", dir);
	write_file("kallsyms", kallsyms);
	write_file("kallsyms-zero", "0000000000000000 T _stext\n0000000000000000 t foo\n");
	write_file("kallsyms-bad", "ffffffff81000000 T _stext\nffffffff81000100tfoo\n");
}

static const struct {
	const char *filter;
	const char *want;	/* the kernel's string, or NULL */
	const char *log;	/* for a refusal: a part of the log */
} kernel_table[] = {
	{ "filter global_fn",		"filter 0xffffffff81000180/0x80", NULL },
	{ "start global_fn",		"start 0xffffffff81000180", NULL },
	{ "filter _stext",		"filter 0xffffffff81000000/0x100", NULL },
	{ "filter dup_k #2",		"filter 0xffffffff81000200/0x80", NULL },
	{ "filter dup_k #3",		"filter 0xffffffff81001000/0x40", NULL },
	{ "tracestop dup_k #g",		"stop 0xffffffff81001000/0x40", NULL },
	{ "filter weak_fn",		"filter 0xffffffff81000300/0xd00", NULL },
	{ "filter mod_fn",		"filter 0xffffffffc0000000/0x100", NULL },
	{ "filter _stext / global_fn",	"filter 0xffffffff81000000/0x200", NULL },
	{ "filter global_fn, start weak_fn",
	  "filter 0xffffffff81000180/0x80,start 0xffffffff81000300", NULL },
	{ "filter _stext / 0x40, stop 0xffffffff81000010",
	  "filter 0xffffffff81000000/0x40,stop 0xffffffff81000010", NULL },
	/* The kernel from its first function to a page past the page of its last. */
	{ "filter *",			"filter 0xffffffff81000000/0x3f002000", NULL },
	{ "filter dup_k", NULL,
	  "EMultiple kernel symbols with name 'dup_k' in %s\n"
	  "E#1\t0xffffffff81000100\tt\tdup_k\n"
	  "E\t\twhich is near\t\tglobal_fn\n"
	  "E#2\t0xffffffff81000200\tt\tdup_k\n"
	  "E\t\twhich is near\t\tsome_data\n"
	  "E#3\t0xffffffff81001000\tT\tdup_k\n"
	  "E\t\twhich is near\t\tlast_func\n"
	  "EDisambiguate symbol name by inserting #n after the name e.g. dup_k #2\n"
	  "EOr select a global symbol by inserting #0 or #g or #G\n" },
	{ "filter some_data", NULL,
	  "ESymbol 'some_data' not found in %s\nENote that symbols must be functions.\n" },
	{ "filter mod_end", NULL,
	  "ECannot determine size of symbol 'mod_end': it has none in %s and no symbol follows "
	  "it; give a size, e.g. mod_end / 64\n" },
	{ "filter global_fn / _stext", NULL,
	  "ESymbol '_stext' (0xffffffff81000000) comes before 'global_fn' "
	  "(0xffffffff81000180)\n" },
	{ "filter main/64", NULL,
	  "ESymbol 'main' not found in %s\n" },
};

START_TEST(test_kallsyms_table)
{
	const char *filter = kernel_table[_i].filter;
	char *got = resolve(filter, ks_path);
	char log[1024];

	if (kernel_table[_i].want) {
		ck_assert_msg(got, "'%s': %s", filter, log_text);
		ck_assert_str_eq(got, kernel_table[_i].want);
		free(got);
		return;
	}
	ck_assert_msg(!got && errno == EINVAL, "'%s' gave %s", filter, got);
	snprintf(log, sizeof(log), kernel_table[_i].log, ks_path);
	ck_assert_msg(log_captured(log), "'%s': %s", filter, log_text);
}
END_TEST

START_TEST(test_kallsyms_restricted_and_bad)
{
	char *got;

	assert_refused("filter foo", ks_zero, EACCES);
	ck_assert_msg(log_captured(kstr("EKernel addresses are restricted: every address in %s "
					"is 0, as kernel.kptr_restrict hides them from this "
					"user. Unable to resolve kernel symbols: run as root (or "
					"with CAP_SYSLOG), set /proc/sys/kernel/kptr_restrict to "
					"0 and /proc/sys/kernel/perf_event_paranoid to 1 or less, "
					"or give kernel addresses as numbers\n", ks_zero)),
		      "%s", log_text);
	assert_refused("filter foo", ks_bad, EINVAL);
	ck_assert_msg(log_captured(kstr("E%s line 2 is not \"<hex address> <type> <name>\": "
					"'ffffffff81000100tfoo'\n", ks_bad)), "%s", log_text);
	assert_refused("filter foo", "/nonexistent/kallsyms", ENOENT);
	ck_assert_msg(log_captured("Cannot read kernel symbols from /nonexistent/kallsyms"),
		      "%s", log_text);
	/* Numbers need no kallsyms at all. */
	got = resolve("filter 0xffffffff81000000/0x100", "/nonexistent/kallsyms");
	ck_assert_str_eq(got, "filter 0xffffffff81000000/0x100");
	free(got);
}
END_TEST

/* The running kernel's own kallsyms, when this user may read its addresses. */
START_TEST(test_kallsyms_real)
{
	char line[512], name[256], type, *got;
	unsigned long long addr, want_addr = 0, next = 0;
	int matches = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		TEST_SKIP("no /proc/kallsyms");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (matches == 1 && !next && addr > want_addr)
			next = addr;
		if (!strcmp(name, "vfs_read") && strchr("tT", type) && !strchr(line, '[')) {
			matches++;
			want_addr = addr;
		}
	}
	fclose(f);
	if (matches != 1 || !want_addr)
		TEST_SKIP("vfs_read is not one readable address in /proc/kallsyms "
			  "(kptr_restrict or not root)");
	got = resolve("filter vfs_read", NULL);
	ck_assert_msg(got, "%s", log_text);
	ck_assert_str_eq(got, kstr("filter 0x%llx/0x%llx", want_addr, next - want_addr));
	free(got);
}
END_TEST

/* ------------------------------------------------------------------ PMUs and the kernel */

static struct fake_sysfs fs;

static void pmu_setup(void)
{
	ck_assert_int_eq(fake_sysfs__standard(&fs), 0);
	/* A PMU that claims the software type and address filters: the kernel decides. */
	ck_assert_int_eq(fake_sysfs__write(&fs, "bus/event_source/devices/fakept/type", "1\n"),
			 0);
	ck_assert_int_eq(fake_sysfs__write(&fs, "bus/event_source/devices/fakept/nr_addr_filters",
					   "1000\n"), 0);
}

static void pmu_teardown(void)
{
	fake_sysfs__remove(&fs);
}

static void parse_ok_into(struct addr_filters *filts, const char *str)
{
	addr_filters__init(filts);
	ck_assert_int_eq(addr_filters__parse_bare_filter(filts, str), 0);
}

START_TEST(test_check_pmu)
{
	struct perf_pmu *pt = perf_pmu__new(fs.root, "intel_pt");
	struct perf_pmu *bts = perf_pmu__new(fs.root, "intel_bts");
	struct addr_filters two, three;

	ck_assert_ptr_nonnull(pt);
	ck_assert_ptr_nonnull(bts);
	parse_ok_into(&two, "filter 0x1000/0x10, stop 0x2000");
	parse_ok_into(&three, "filter 0x1000/0x10, stop 0x2000 start 0x3000");
	ck_assert_int_eq(addr_filters__check_pmu(&two, pt), 0);
	log_capture_start();
	ck_assert_int_eq(addr_filters__check_pmu(&three, pt), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	log_capture_stop();
	ck_assert_str_eq(log_text, "EError: number of address filters (3) exceeds maximum (2) "
				   "of PMU intel_pt (its nr_addr_filters): give at most 2\n");
	log_capture_start();
	ck_assert_int_eq(addr_filters__check_pmu(&two, bts), -EOPNOTSUPP);
	log_capture_stop();
	ck_assert_str_eq(log_text, "EPMU intel_bts takes no address filters (it has no "
				   "nr_addr_filters in sysfs): address filters need an AUX PMU "
				   "that has them, such as intel_pt or cs_etm\n");
	addr_filters__exit(&two);
	addr_filters__exit(&three);
	perf_pmu__delete(pt);
	perf_pmu__delete(bts);
}
END_TEST

static struct evsel *open_cpu_clock(bool exclude_kernel)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.disabled = 1,
		.exclude_kernel = exclude_kernel,
	};
	struct perf_thread_map *self = perf_thread_map__new_tid(getpid());
	struct evsel *evsel = evsel__new(&attr);

	ck_assert_ptr_nonnull(evsel);
	ck_assert_int_eq(evsel__open(evsel, NULL, self), 0);
	perf_thread_map__put(self);
	return evsel;
}

/* The real kernel: a software event takes no address filter, and the errors say why. */
START_TEST(test_apply_software_event)
{
	struct evsel *evsel = open_cpu_clock(false);
	struct perf_pmu *fake = perf_pmu__new(fs.root, "fakept");
	struct perf_pmu *pt = perf_pmu__new(fs.root, "intel_pt");
	struct addr_filters filts, none;

	ck_assert_ptr_nonnull(fake);
	parse_ok_into(&filts, "filter 0x1000/0x100");
	addr_filters__init(&none);

	/* Its own PMU, found in the real sysfs by attr.type, has no nr_addr_filters. */
	log_capture_start();
	ck_assert_int_eq(addr_filters__apply(&filts, evsel, NULL), -EOPNOTSUPP);
	log_capture_stop();
	ck_assert_msg(log_captured("EPMU software takes no address filters (it has no "
				   "nr_addr_filters in sysfs): address filters need an AUX PMU "
				   "that has them, such as intel_pt or cs_etm\n"), "%s", log_text);

	/* A PMU of another type is a caller's mistake. */
	log_capture_start();
	ck_assert_int_eq(addr_filters__apply(&filts, evsel, pt), -EINVAL);
	log_capture_stop();
	ck_assert_str_eq(log_text, "Ecpu-clock: its attr.type is 1, and PMU intel_pt has type "
				   "8: give the event's own PMU\n");

	/* Past the library's checks, the kernel itself refuses, and the log says why. */
	log_capture_start();
	ck_assert_int_eq(addr_filters__apply(&filts, evsel, fake), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("Dcpu-clock: address filters \"filter 0x1000/0x100\"\n"),
		      "%s", log_text);
	ck_assert_msg(log_captured("Ecpu-clock: the kernel rejected the address filter \"filter "
				   "0x1000/0x100\": only tracepoints take other filters, and only "
				   "PMUs with nr_addr_filters in sysfs (intel_pt, cs_etm) take "
				   "address filters"), "%s", log_text);

	/* Nothing to set: nothing is asked of the kernel or the PMU. */
	ck_assert_int_eq(addr_filters__apply(&none, evsel, NULL), 0);

	addr_filters__exit(&filts);
	perf_pmu__delete(fake);
	perf_pmu__delete(pt);
	evsel__delete(evsel);
}
END_TEST

START_TEST(test_apply_refused_before_the_kernel)
{
	struct evsel *user_only = open_cpu_clock(true);
	struct perf_pmu *fake = perf_pmu__new(fs.root, "fakept");
	struct addr_filters filts, many;
	char long_dir[PATH_MAX], filter[PATH_MAX + 64];
	size_t n;

	ck_assert_ptr_nonnull(fake);
	parse_ok_into(&filts, "filter 0x1000/0x100@/bin/sh, start 0xffffffff81000000");
	log_capture_start();
	ck_assert_int_eq(addr_filters__apply(&filts, user_only, fake), -EINVAL);
	log_capture_stop();
	ck_assert_str_eq(log_text, "Ecpu-clock: address filter at byte 29 is a kernel filter "
				   "(it has no @file), but the event excludes the kernel (:u): add "
				   "@<file> or trace the kernel too\n");
	addr_filters__exit(&filts);

	/* The kernel copies at most a page of filter string. */
	n = (size_t)snprintf(long_dir, sizeof(long_dir), "%s/", dir);
	memset(long_dir + n, 'd', 200);
	long_dir[n + 200] = '\0';
	ck_assert_int_eq(mkdir(long_dir, 0755), 0);
	addr_filters__init(&many);
	for (int i = 0; i < 20; i++) {
		snprintf(filter, sizeof(filter), "filter 0x1000/0x100@%s", long_dir);
		ck_assert_int_eq(addr_filters__parse_bare_filter(&many, filter), 0);
	}
	log_capture_start();
	ck_assert_int_eq(addr_filters__apply(&many, user_only, fake), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("the kernel takes fewer than 4096: use fewer filters or "
				   "shorter paths"), "%s", log_text);
	addr_filters__exit(&many);
	rmdir(long_dir);
	perf_pmu__delete(fake);
	evsel__delete(user_only);
}
END_TEST

/* filter parses, and its kernel string is refused with exactly log. */
static void assert_to_str_refused(const char *filter, const char *log)
{
	struct addr_filters filts;

	parse_ok_into(&filts, filter);
	log_capture_start();
	assert_null_errno(addr_filters__to_str(&filts), EINVAL);
	log_capture_stop();
	ck_assert_str_eq(log_text, log);
	addr_filters__exit(&filts);
}

START_TEST(test_to_str_errors)
{
	struct addr_filters filts;
	char *str;

	assert_to_str_refused("filter main", "EAddress filter at byte 0 names symbols: call "
			      "addr_filters__resolve() before making the kernel's string\n");
	assert_to_str_refused("start 1, filter 0x1000/0", "EAddress filter at byte 9: 'filter' "
			      "needs a range of at least one byte, its size is 0\n");

	/* tracestop may be 0 long: the kernel decides; nothing gives "". */
	parse_ok_into(&filts, "tracestop 0x1000/0");
	str = addr_filters__to_str(&filts);
	ck_assert_str_eq(str, "stop 0x1000/0x0");
	free(str);
	addr_filters__exit(&filts);
	str = addr_filters__to_str(&filts);
	ck_assert_str_eq(str, "");
	free(str);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("addr-filter");
	TCase *grammar = tcase_create("grammar");
	TCase *elf = tcase_create("elf");
	TCase *kernel = tcase_create("kallsyms");
	TCase *pmu = tcase_create("pmu");

	tcase_add_loop_test(grammar, test_parse_accepted, 0, sizeof(parse_ok) / sizeof(parse_ok[0]));
	tcase_add_loop_test(grammar, test_parse_refused, 0, sizeof(parse_bad) / sizeof(parse_bad[0]));
	tcase_add_test(grammar, test_parse_appends);
	tcase_add_test(grammar, test_to_str_errors);

	tcase_add_unchecked_fixture(elf, elf_setup, elf_teardown);
	tcase_set_timeout(elf, 120);
	tcase_add_test(elf, test_elf_known_functions);
	tcase_add_test(elf, test_elf_duplicate_static);
	tcase_add_test(elf, test_elf_stripped);
	tcase_add_test(elf, test_elf_sizes);
	tcase_add_test(elf, test_elf_shared_object);
	tcase_add_test(elf, test_whole_file_and_file_errors);

	tcase_add_unchecked_fixture(kernel, kallsyms_setup, elf_teardown);
	tcase_add_loop_test(kernel, test_kallsyms_table, 0,
			    sizeof(kernel_table) / sizeof(kernel_table[0]));
	tcase_add_test(kernel, test_kallsyms_restricted_and_bad);
	tcase_add_test(kernel, test_kallsyms_real);

	tcase_add_checked_fixture(pmu, pmu_setup, pmu_teardown);
	tcase_add_unchecked_fixture(pmu, elf_setup, elf_teardown);
	tcase_set_timeout(pmu, 120);
	tcase_add_test(pmu, test_check_pmu);
	tcase_add_test(pmu, test_apply_software_event);
	tcase_add_test(pmu, test_apply_refused_before_the_kernel);

	suite_add_tcase(s, grammar);
	suite_add_tcase(s, elf);
	suite_add_tcase(s, kernel);
	suite_add_tcase(s, pmu);
	return testlib_run(s);
}
