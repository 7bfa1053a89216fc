// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding AUX data to branch samples: `auxrec script --itrace=b` on one thread and on two
 * (-j1, -j2) against perf 6.1's `perf script --itrace=b` on the same recordings, all
 * printing to /dev/null: branches per second and peak RSS (the child's, from wait4) side by
 * side, the median of runs taken in turns.
 *
 * The recordings are made the way the tests make them (tests/lib/aux-session.h): a program
 * built here runs, its side-band is written, and the AUX test producer stands in for the
 * hardware, drained through the library's AUX layer into its perf.data writer:
 *  - Intel BTS: the 7 branches of one call of the program's f, over and over; each AUX
 *    buffer ends with a zero record (perf never decodes a buffer's last record);
 *  - Intel PT: libipt's encoder writes f's trace (TIP.PGE, two TNTs, TIP.PGD) over and
 *    over, a PSB+ every 4 KiB as the hardware's default psb_period does, and the AUX
 *    buffers are cut mid-trace, so that every buffer boundary is one the decoder must
 *    decode across.
 * BRANCHES (default 8M) per recording; a number as the first argument changes it.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <intel-pt.h>

#include <auxtrace/auxtrace-mmaps.h>
#include <auxtrace/core.h>

#include "util.h"
#include "tests/lib/asm-elf.h"
#include "tests/lib/aux-payload.h"
#include "tests/lib/aux-session.h"

#define BRANCHES	(8u << 20)
#define AUX_PAGES	256			/* 1 MiB AUX area, drained in 64 KiB buffers */
#define BUFFER_BYTES	(64u << 10)
#define PSB_EVERY	4096			/* bytes of PT trace between PSBs */
#define F_BRANCHES	7

struct recording {
	const char *name;
	struct traced_prog prog;	/* its code, read by both decoders */
	char path[PATH_MAX];
	uint64_t branches;
	uint64_t buffers;
	off_t size;
};

/* The branches of one call of f, as BTS records them. */
static void bts_f_call(const struct traced_prog *t, struct bts_record *r)
{
	static const char *const from[] = { NULL, "f_jnz", "f_jz", "f_jnz", "f_call", "g_ret",
					     "f_ret" };
	static const char *const to[] = { "f", "f_top", "f_even", "f_top", "g", "f_ret", NULL };

	for (int i = 0; i < F_BRANCHES; i++) {
		r[i].from = from[i] ? asm_elf__sym(&t->elf, from[i]) : t->after_f - 5;
		r[i].to = to[i] ? asm_elf__sym(&t->elf, to[i]) : t->after_f;
		r[i].misc = 0;
	}
}

/* Drain what the producer wrote into one AUXTRACE record. */
static int drain(struct aux_session *s)
{
	return auxtrace_mmaps__read(s->aux, perf_data_writer__aux_sink(s->w)) < 0 ? -1 : 0;
}

static int record_bts(struct aux_session *s, const struct traced_prog *t,
		      struct recording *rec, uint64_t branches)
{
	const size_t per_buffer = BUFFER_BYTES / sizeof(struct bts_record) - 1;
	struct bts_record *buf = calloc(per_buffer + 1, sizeof(*buf)), call[F_BRANCHES];

	if (!buf)
		return -1;
	bts_f_call(t, call);
	while (rec->branches < branches) {
		size_t n = 0;

		while (n < per_buffer && rec->branches < branches)
			buf[n++] = call[rec->branches++ % F_BRANCHES];
		memset(&buf[n], 0, sizeof(buf[n]));
		n++;
		if (aux_producer__write(s->p, buf, n * sizeof(*buf)) != n * sizeof(*buf) ||
		    drain(s))
			break;
		rec->buffers++;
	}
	free(buf);
	return rec->branches == branches ? 0 : -1;
}

/* One call of f traced (tests/lib/aux-payload.h), after a PSB+ when psb. */
static int pt_encode(struct pt_encoder *enc, const struct traced_prog *t, uint64_t tsc,
		     bool psb)
{
	struct pt_packet pkts[PT_PSB_PACKETS + PT_F_CALL_PACKETS];

	pt_packets__psb(pkts, tsc);
	pt_packets__f_call(pkts + PT_PSB_PACKETS, asm_elf__sym(&t->elf, "f"), t->after_f);
	return psb ? pt_packets__encode(enc, pkts, PT_PSB_PACKETS + PT_F_CALL_PACKETS)
		   : pt_packets__encode(enc, pkts + PT_PSB_PACKETS, PT_F_CALL_PACKETS);
}

static int record_pt(struct aux_session *s, const struct traced_prog *t,
		     struct recording *rec, uint64_t branches)
{
	size_t size = (size_t)(branches / F_BRANCHES + 1) * 24 + (64u << 20);
	uint8_t *trace = malloc(size);
	uint64_t used = 0, psb_at = 0, done = 0;
	struct pt_config config;
	struct pt_encoder *enc;
	int err = -1;

	if (!trace)
		return -1;
	pt_config_init(&config);
	config.begin = trace;
	config.end = trace + size;
	enc = pt_alloc_encoder(&config);
	for (uint64_t tsc = 1000; enc && rec->branches < branches; tsc += 100) {
		if (pt_encode(enc, t, tsc, !rec->branches || used - psb_at >= PSB_EVERY))
			goto out;
		if (!rec->branches || used - psb_at >= PSB_EVERY)
			psb_at = used;
		pt_enc_get_offset(enc, &used);
		rec->branches += F_BRANCHES;
	}
	/* Buffers of BUFFER_BYTES and a little: their ends fall anywhere in the trace. */
	while (done < used) {
		size_t n = BUFFER_BYTES + (done * 7 % 61);

		n = n < used - done ? n : used - done;
		if (aux_producer__write(s->p, trace + done, n) != n || drain(s))
			goto out;
		done += n;
		rec->buffers++;
	}
	err = 0;
out:
	pt_free_encoder(enc);
	free(trace);
	return err;
}

static int make_recording(struct recording *rec, const char *pmu, uint64_t branches)
{
	struct aux_session_opts opts = { .pmu = pmu, .aux_pages = AUX_PAGES };
	struct traced_prog *t = &rec->prog;
	struct aux_session s;
	struct stat st;
	int err;

	snprintf(rec->path, sizeof(rec->path), "/tmp/auxtrace-bench-decode-%s-%d.data", pmu,
		 getpid());
	if (traced_prog__start(t))
		return -1;
	opts.pid = t->pid;
	err = aux_session__start(&s, &opts, rec->path);
	if (!err) {
		err = !strcmp(pmu, "intel_bts") ? record_bts(&s, t, rec, branches)
						 : record_pt(&s, t, rec, branches);
		err |= aux_session__finish(&s);
	}
	err |= traced_prog__finish(t);
	if (!err && !stat(rec->path, &st))
		rec->size = st.st_size;
	return err ? -1 : 0;
}

#define RUNS	3			/* each tool, taking turns: the median and the range */

struct runs {
	const char *name;
	double seconds[RUNS];		/* sorted */
	double cpu[RUNS];		/* user + system of the run, sorted */
	long max_rss_kib;
	bool failed;
};

static int seconds_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double runs__median(const struct runs *r)
{
	return r->seconds[RUNS / 2];
}

static void runs__print(const struct runs *r, uint64_t branches)
{
	printf("  %-28s %7.2fs %6.2fs %8.2f M (%.2f-%.2f) %8.1f MiB%s\n", r->name,
	       runs__median(r), r->cpu[RUNS / 2], branches / runs__median(r) / 1e6,
	       branches / r->seconds[RUNS - 1] / 1e6, branches / r->seconds[0] / 1e6,
	       r->max_rss_kib / 1024.0, r->failed ? "  (failed)" : "");
}

/*
 * auxrec script on one thread and on two (the walk and the decode on a thread of their own,
 * the lines on the caller's), and perf script, taking turns RUNS times.
 */
static void compare(const struct recording *rec, const char *auxrec)
{
	char *one[] = { (char *)auxrec, "script", "--itrace=b", "-j", "1", "-i",
			(char *)rec->path, NULL };
	char *two[] = { (char *)auxrec, "script", "--itrace=b", "-j", "2", "-i",
			(char *)rec->path, NULL };
	char *perf[] = { "timeout", "600", "perf", "script", "--itrace=b", "-i",
			 (char *)rec->path, NULL };
	char *const *argv[] = { one, two, perf };
	struct runs r[] = { { .name = "auxrec script --itrace=b -j1" },
			    { .name = "auxrec script --itrace=b -j2" },
			    { .name = "perf script --itrace=b" } };

	for (int i = 0; i < RUNS; i++) {
		for (int t = 0; t < 3; t++) {
			struct bench_run b = bench__run(argv[t]);

			r[t].seconds[i] = b.seconds;
			r[t].cpu[i] = b.cpu_seconds;
			r[t].failed |= b.status != 0;
			if (b.max_rss_kib > r[t].max_rss_kib)
				r[t].max_rss_kib = b.max_rss_kib;
		}
	}
	for (int t = 0; t < 3; t++)
	{
		qsort(r[t].seconds, RUNS, sizeof(double), seconds_cmp);
		qsort(r[t].cpu, RUNS, sizeof(double), seconds_cmp);
	}
	printf("%s: %" PRIu64 " branches in %" PRIu64 " AUX buffers, a %.1f MiB file; median "
	       "of %d runs (range)\n", rec->name, rec->branches, rec->buffers,
	       rec->size / 1048576.0, RUNS);
	printf("  %-28s %8s %7s %25s %12s\n", "", "time", "CPU", "branches/s", "peak RSS");
	for (int t = 0; t < 3; t++)
		runs__print(&r[t], rec->branches);
	if (r[0].failed || r[1].failed || r[2].failed)
		return;
	printf("  -j2 / -j1: %.2fx; auxrec / perf: rate -j1 %.2fx, -j2 %.2fx; peak RSS %.2fx, "
	       "%.2fx\n\n", runs__median(&r[0]) / runs__median(&r[1]),
	       runs__median(&r[2]) / runs__median(&r[0]), runs__median(&r[2]) / runs__median(&r[1]),
	       (double)r[0].max_rss_kib / r[2].max_rss_kib,
	       (double)r[1].max_rss_kib / r[2].max_rss_kib);
}

int main(int argc, char **argv)
{
	uint64_t branches = argc > 1 ? strtoull(argv[1], NULL, 0) : BRANCHES;
	struct recording recs[] = { { .name = "Intel BTS" }, { .name = "Intel PT" } };
	static const char *const pmus[] = { "intel_bts", "intel_pt" };
	char self[PATH_MAX], auxrec[PATH_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	snprintf(auxrec, sizeof(auxrec), "%s/auxrec", dirname(self));
	for (int i = 0; i < 2; i++) {
		int err;

		/* The stand-in for the AUX PMU says what it stands in for; nothing to see here. */
		libauxtrace_set_print(NULL);
		err = make_recording(&recs[i], pmus[i], branches);
		bench__print_lib_warnings("bench-decode");
		if (err)
			fprintf(stderr, "bench-decode: cannot record %s\n", recs[i].name);
		else
			compare(&recs[i], auxrec);
		unlink(recs[i].path);
		traced_prog__remove(&recs[i].prog);
	}
	return 0;
}
