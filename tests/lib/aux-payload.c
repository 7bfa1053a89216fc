// SPDX-License-Identifier: LGPL-2.1
/* Intel BTS records, Intel PT packets (libipt) and framed AUX streams for tests. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <intel-pt.h>

#include <internal/auxtrace-mmap.h>
#include <internal/auxtrace-backend.h>
#include "aux-payload.h"
#include "aux-producer.h"

#define BTS_CHECK 0x5bd1e995a5a5a5a5ull

unsigned char aux_stream__byte(uint64_t p)
{
	return (unsigned char)((p * 0x9E3779B97F4A7C15ull) >> 56) | 1;
}

void aux_stream__fill(void *ctx, uint64_t pos, void *dst, size_t len)
{
	unsigned char *d = dst;

	(void)ctx;
	for (size_t i = 0; i < len; i++)
		d[i] = aux_stream__byte(pos + i);
}

int aux_frames__walk(const void *buf, size_t len,
		     int (*fn)(void *ctx, const struct perf_record_auxtrace *ev,
			       const unsigned char *payload),
		     void *ctx)
{
	const unsigned char *p = buf;
	struct perf_record_auxtrace ev;
	size_t pos = 0;
	int n = 0;

	while (pos < len) {
		if (len - pos < sizeof(ev))
			return -EINVAL;
		memcpy(&ev, p + pos, sizeof(ev));
		if (ev.header.type != PERF_RECORD_AUXTRACE || ev.header.size != sizeof(ev) ||
		    ev.size % 8 || ev.size > len - pos - sizeof(ev))
			return -EINVAL;
		n++;
		if (fn(ctx, &ev, p + pos + sizeof(ev)))
			break;
		pos += sizeof(ev) + ev.size;
	}
	return n;
}

void bts_record__make(struct bts_record *r, uint64_t seq)
{
	r->from = 0x400000 + 16 * seq;
	r->to = r->from + 0x100;
	r->misc = (r->from * 31 + r->to) ^ BTS_CHECK;
}

int64_t bts_record__seq(const struct bts_record *r)
{
	if (r->from < 0x400000 || (r->from & 15) || r->to != r->from + 0x100 ||
	    r->misc != ((r->from * 31 + r->to) ^ BTS_CHECK))
		return -1;
	return (int64_t)((r->from - 0x400000) / 16);
}

void pt_packets__psb(struct pt_packet *pkts, uint64_t tsc)
{
	pkts[0] = (struct pt_packet){ .type = ppt_psb };
	pkts[1] = (struct pt_packet){ .type = ppt_tsc, .payload.tsc.tsc = tsc };
	pkts[2] = (struct pt_packet){ .type = ppt_mode, .payload.mode = {
		.leaf = pt_mol_exec, .bits.exec = { .csl = 1 } } };
	pkts[3] = (struct pt_packet){ .type = ppt_psbend };
}

#define F_LOOP_TNT_BITS	6
#define F_LOOP_TNT	0x1c	/* .!!!.. oldest first */

void pt_packets__f_call(struct pt_packet *pkts, uint64_t f, uint64_t caller)
{
	pkts[0] = (struct pt_packet){ .type = ppt_tip_pge,
				      .payload.ip = { .ipc = pt_ipc_sext_48, .ip = f } };
	pkts[1] = (struct pt_packet){ .type = ppt_tnt_8, .payload.tnt = {
		.bit_size = F_LOOP_TNT_BITS, .payload = F_LOOP_TNT } };
	pkts[2] = (struct pt_packet){ .type = ppt_tnt_8,
				      .payload.tnt = { .bit_size = 1, .payload = 1 } };
	pkts[3] = (struct pt_packet){ .type = ppt_tip_pgd,
				      .payload.ip = { .ipc = pt_ipc_sext_48, .ip = caller } };
}

int pt_packets__encode(struct pt_encoder *enc, const struct pt_packet *pkts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = pt_enc_next(enc, &pkts[i]);

		if (err < 0)
			return err;
	}
	return 0;
}

static int pt_payload__unit(struct pt_encoder *enc, uint64_t tsc, uint64_t ip)
{
	struct pt_packet pkts[PT_PSB_PACKETS + 3];

	pt_packets__psb(pkts, tsc);
	pkts[PT_PSB_PACKETS] = (struct pt_packet){
		.type = ppt_tip_pge, .payload.ip = { .ipc = pt_ipc_sext_48, .ip = ip } };
	pkts[PT_PSB_PACKETS + 1] = (struct pt_packet){
		.type = ppt_tnt_8, .payload.tnt = { .bit_size = 6, .payload = 0x2d } };
	pkts[PT_PSB_PACKETS + 2] = (struct pt_packet){
		.type = ppt_tip_pgd, .payload.ip = { .ipc = pt_ipc_suppressed } };
	return pt_packets__encode(enc, pkts, sizeof(pkts) / sizeof(pkts[0]));
}

ssize_t pt_payload__fill(void *buf, size_t size, uint64_t tsc, uint64_t ip)
{
	struct pt_config config;
	struct pt_encoder *enc;
	uint64_t used = 0;

	pt_config_init(&config);
	config.begin = buf;
	config.end = (uint8_t *)buf + size;
	enc = pt_alloc_encoder(&config);
	if (!enc)
		return -ENOMEM;
	/* A unit that does not fit leaves a partial unit behind: cut back to the last whole. */
	while (pt_payload__unit(enc, tsc++, ip) == 0)
		pt_enc_get_offset(enc, &used);
	pt_free_encoder(enc);
	memset((uint8_t *)buf + used, 0, size - used);	/* PAD packets are zero bytes */
	return (ssize_t)used;
}

int pt_stream__put(struct pt_stream *s, const struct pt_packet *pkt)
{
	struct pt_config config;
	struct pt_encoder *enc;
	int n;

	pt_config_init(&config);
	config.begin = s->buf + s->len;
	config.end = s->buf + sizeof(s->buf);
	enc = pt_alloc_encoder(&config);
	if (!enc)
		return -ENOMEM;
	n = pt_enc_next(enc, pkt);
	pt_free_encoder(enc);
	if (n <= 0)
		return n == -pte_eos ? -ENOSPC : -EINVAL;
	s->len += (size_t)n;
	return 0;
}

int pt_stream__f_unit(struct pt_stream *s, uint64_t f, uint64_t caller, uint64_t tsc)
{
	struct pt_packet pkts[PT_PSB_PACKETS + PT_F_CALL_PACKETS];
	int err = 0;

	pt_packets__psb(pkts, tsc);
	pt_packets__f_call(pkts + PT_PSB_PACKETS, f, caller);
	for (size_t i = 0; i < sizeof(pkts) / sizeof(pkts[0]) && !err; i++) {
		if (i == PT_PSB_PACKETS + 1)
			s->pge_end = s->len;
		if (i == PT_PSB_PACKETS + 2)
			s->ret_tnt = s->len;
		err = pt_stream__put(s, &pkts[i]);
	}
	return err;
}

int pt_payload__count_psb(const void *buf, size_t size)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet pkt;
	int nr = 0, err;

	pt_config_init(&config);
	config.begin = (uint8_t *)buf;
	config.end = (uint8_t *)buf + size;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return -ENOMEM;
	err = pt_pkt_sync_forward(dec);
	while (err >= 0) {
		err = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (err >= 0 && pkt.type == ppt_psb)
			nr++;
	}
	pt_pkt_free_decoder(dec);
	return err == -pte_eos ? nr : -EINVAL;
}

int aux_payload__write_framed(const char *path, const void *payload, size_t size,
			      unsigned int aux_pages, struct auxtrace_record *itr)
{
	struct aux_producer_config cfg = { .data_pages = 1 };
	struct auxtrace_mmap_params mp;
	struct auxtrace_mmap *mm = NULL;
	struct aux_producer *p;
	struct ring_sink_fd sink;
	size_t done = 0;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	p = aux_producer__new(&cfg);
	mm = auxtrace_mmap__new();
	if (!p || !mm) {
		err = -ENOMEM;
		goto out;
	}
	aux_producer__route_mmap(p, mm);
	auxtrace_mmap_params__init(&mp, 2 * sysconf(_SC_PAGESIZE), aux_pages, false);
	mp.idx = 0;
	mp.mmap_needed = true;
	err = auxtrace_mmap__mmap(mm, &mp, aux_producer__userpg(p), aux_producer__fd(p));
	if (!err && !auxtrace_mmap__base(mm))
		err = -EINVAL;		/* aux_pages 0: no area, so no write would ever fit */
	ring_sink_fd__init(&sink, fd);
	while (!err && done < size) {
		ssize_t n;

		done += aux_producer__write(p, (const char *)payload + done, size - done);
		n = auxtrace_mmap__read(mm, itr, &sink.sink);
		if (n < 0)
			err = (int)n;
	}
	if (!err)
		err = (int)auxtrace_mmap__stats(mm)->chunks;
out:
	auxtrace_mmap__delete(mm);
	aux_producer__delete(p);
	close(fd);
	return err;
}

int aux_time_conv__or_stand_in(struct auxtrace_backend *be, struct evlist *evlist,
			       struct auxtrace_time_conv *tc)
{
	if (auxtrace_backend__time_conv(be, evlist, tc) == 0)
		return 0;
	*tc = (struct auxtrace_time_conv){ .time_shift = 10, .time_mult = 1 << 10,
					   .cap_user_time_zero = true };
	return 0;
}
