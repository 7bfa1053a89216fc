// SPDX-License-Identifier: LGPL-2.1
/*
 * How fast the Intel PT decoder turns trace into branch samples: a synthetic stream of
 * MB megabytes (default 16) that libipt's encoder writes for a loop in this program, decoded
 * with this program's own mapping (from /proc/self/maps, as an MMAP2 record gives it) as the
 * image. Prints branches/s. A figure, not a test: groundwork for `make bench`.
 *
 *	pt-decode-rate [MB]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <intel-pt.h>

#include <auxtrace/intel-pt-decode.h>

/* The traced code: a jump over the nop every other round, and the loop's own jump back. */
__asm__(".text\n"
	".globl pt_rate_loop\n"
	"pt_rate_loop:\n"
	"	test $1, %ecx\n"
	"	jz 1f\n"
	"	nop\n"
	"1:	dec %ecx\n"
	"	jnz pt_rate_loop\n"
	"	ret\n");
extern const char pt_rate_loop[];

#define ROUNDS_PER_TNT	22	/* two bits a round: a TNT.64 holds 47 */
#define TNTS_PER_PSB	256	/* a PSB every 2-3 KiB, as psb_period's default */

struct pt_rate {
	uint8_t *buf;
	size_t size;
	struct pt_encoder *enc;
	uint64_t rounds;
	int err;
};

static void pt_rate__put(struct pt_rate *r, const struct pt_packet *pkt)
{
	if (!r->err && pt_enc_next(r->enc, pkt) < 0)
		r->err = -1;
}

/* A PSB+; mid-trace, its FUP says where execution is: at the top of the loop. */
static void pt_rate__psb(struct pt_rate *r, bool first)
{
	const struct pt_packet psb = { .type = ppt_psb }, psbend = { .type = ppt_psbend };
	const struct pt_packet mode = { .type = ppt_mode, .payload.mode = {
		.leaf = pt_mol_exec, .bits.exec = { .csl = 1 } } };
	const struct pt_packet ip = { .type = first ? ppt_tip_pge : ppt_fup, .payload.ip = {
		.ipc = pt_ipc_full, .ip = (uint64_t)(uintptr_t)pt_rate_loop } };

	pt_rate__put(r, &psb);
	pt_rate__put(r, &mode);
	if (!first)
		pt_rate__put(r, &ip);
	pt_rate__put(r, &psbend);
	if (first)
		pt_rate__put(r, &ip);
}

/* Fill the buffer with rounds of the loop; returns the bytes written. */
static size_t pt_rate__encode(struct pt_rate *r)
{
	struct pt_config config;
	uint64_t used = 0, bits = 0;
	int i;

	for (i = 0; i < ROUNDS_PER_TNT; i++)	/* jz taken every other round; jnz always */
		bits = bits << 2 | (i & 1 ? 3 : 1);
	pt_config_init(&config);
	config.begin = r->buf;
	config.end = r->buf + r->size;
	r->enc = pt_alloc_encoder(&config);
	pt_rate__psb(r, true);
	while (!r->err) {
		const struct pt_packet tnt = { .type = ppt_tnt_64, .payload.tnt = {
			.bit_size = 2 * ROUNDS_PER_TNT, .payload = bits } };

		pt_enc_get_offset(r->enc, &used);
		if (r->size - used < TNTS_PER_PSB * 8 + 64)	/* a group and its PSB+ */
			break;
		for (i = 0; i < TNTS_PER_PSB && !r->err; i++)
			pt_rate__put(r, &tnt);
		if (!r->err)
			r->rounds += TNTS_PER_PSB * ROUNDS_PER_TNT;
		pt_rate__psb(r, false);
	}
	pt_enc_get_offset(r->enc, &used);
	pt_free_encoder(r->enc);
	return used;
}

/* The mapping of this program's code, as /proc/self/maps (and MMAP2) says it. */
static int pt_rate__map_self(struct auxtrace_image *image)
{
	unsigned long long start, end, pgoff;
	uint64_t addr = (uint64_t)(uintptr_t)pt_rate_loop;
	char line[512], path[256];
	FILE *maps = fopen("/proc/self/maps", "r");
	int err = -1;

	while (maps && err && fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %255s", &start, &end, &pgoff,
			   path) == 4 && addr >= start && addr < end)
			err = auxtrace_image__add_file(image, path, pgoff, end - start, start);
	}
	if (maps)
		fclose(maps);
	return err;
}

static int pt_rate__count(void *ctx, const struct auxtrace_sample *sample)
{
	(void)sample;
	++*(uint64_t *)ctx;
	return 0;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 0) : 16;
	struct pt_rate r = { .size = mb << 20 };
	struct auxtrace_image *image = auxtrace_image__new();
	AUXTRACE_OPTS(auxtrace_decode_opts, opts);
	struct auxtrace_aux_data data = { .cpu = -1, .pid = -1, .tid = -1 };
	const struct auxtrace_decode_stats *st;
	struct intel_pt_decoder *dec;
	struct timespec t0, t1;
	uint64_t samples = 0;
	double s;

	r.buf = malloc(r.size);
	if (!mb || !r.buf || !image || pt_rate__map_self(image)) {
		fprintf(stderr, "pt-decode-rate: no memory, or this program's code is not in "
			"/proc/self/maps\n");
		return 1;
	}
	data.data = r.buf;
	data.size = pt_rate__encode(&r);
	opts.branches = true;
	opts.errors = false;
	opts.sample_fn = pt_rate__count;
	opts.ctx = &samples;
	opts.image = image;
	dec = intel_pt_decoder__new(&opts);
	if (!dec || r.err) {
		fprintf(stderr, "pt-decode-rate: %s\n", r.err ? "libipt's encoder failed"
							     : "no decoder");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (intel_pt_decoder__decode(dec, &data)) {
		perror("pt-decode-rate: decode");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	st = intel_pt_decoder__stats(dec);
	printf("%zu bytes of Intel PT, %" PRIu64 " rounds encoded: %" PRIu64 " branches, %" PRIu64
	       " instructions, %" PRIu64 " errors in %.3f s\n", data.size, r.rounds, samples,
	       st->instructions, st->errors, s);
	printf("%.2f M branches/s, %.2f M instructions/s, %.1f MB/s\n", samples / s / 1e6,
	       st->instructions / s / 1e6, data.size / s / 1e6);
	intel_pt_decoder__delete(dec);
	auxtrace_image__delete(image);
	free(r.buf);
	/* every round's jnz, and every other round's jz, is a taken branch: 1.5 a round */
	return samples == 1 + r.rounds * 3 / 2 ? 0 : 1;
}
