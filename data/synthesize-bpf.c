// SPDX-License-Identifier: LGPL-2.1
/*
 * KSYMBOL and BPF_EVENT for the BPF programs loaded before the recording started, as the
 * kernel reports programs loaded during it: a decoder then knows which program's JITed
 * code an address is in (samples, Intel PT branches into BPF).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include <internal/lib.h>
#include "synthesize-internal.h"

/* What one program's info holds about its JITed functions (main program, then subprograms). */
struct bpf_prog_funcs {
	struct bpf_prog_info info;
	uint32_t nr;
	uint64_t *addrs;
	uint32_t *lens;
	uint8_t (*tags)[BPF_TAG_SIZE];
	uint32_t nr_tags;
	struct bpf_func_info *func_info;
	uint32_t nr_func_info;
};

static void bpf_prog_funcs__exit(struct bpf_prog_funcs *f)
{
	free(f->addrs);
	free(f->lens);
	free(f->tags);
	free(f->func_info);
}

/* The info twice: once for the counts, once into arrays of those sizes. */
static int bpf_prog_funcs__read(struct bpf_prog_funcs *f, int fd)
{
	uint32_t len = sizeof(f->info);
	uint32_t func_rec;

	memset(f, 0, sizeof(*f));
	if (bpf_obj_get_info_by_fd(fd, &f->info, &len))
		return -errno;
	f->nr = f->info.nr_jited_ksyms;
	f->nr_tags = f->info.nr_prog_tags;
	f->nr_func_info = f->info.nr_func_info;
	func_rec = f->info.func_info_rec_size;
	if (!f->nr || f->info.nr_jited_func_lens != f->nr)
		return -ENOENT;		/* not JITed (the interpreter runs it) */
	if (func_rec != sizeof(struct bpf_func_info))
		f->nr_func_info = 0;
	f->addrs = calloc(f->nr, sizeof(*f->addrs));
	f->lens = calloc(f->nr, sizeof(*f->lens));
	f->tags = calloc(f->nr_tags + 1, sizeof(*f->tags));
	f->func_info = calloc(f->nr_func_info + 1, sizeof(*f->func_info));
	if (!f->addrs || !f->lens || !f->tags || !f->func_info)
		return -ENOMEM;
	memset(&f->info, 0, sizeof(f->info));
	f->info.nr_jited_ksyms = f->nr;
	f->info.jited_ksyms = (uintptr_t)f->addrs;
	f->info.nr_jited_func_lens = f->nr;
	f->info.jited_func_lens = (uintptr_t)f->lens;
	f->info.nr_prog_tags = f->nr_tags;
	f->info.prog_tags = (uintptr_t)f->tags;
	f->info.nr_func_info = f->nr_func_info;
	f->info.func_info_rec_size = func_rec;
	f->info.func_info = (uintptr_t)f->func_info;
	len = sizeof(f->info);
	if (bpf_obj_get_info_by_fd(fd, &f->info, &len))
		return -errno;
	/* A program loaded meanwhile may report more; keep what our arrays hold. */
	if (f->info.nr_jited_ksyms < f->nr)
		f->nr = f->info.nr_jited_ksyms;
	if (f->info.nr_prog_tags < f->nr_tags)
		f->nr_tags = f->info.nr_prog_tags;
	if (f->info.nr_func_info < f->nr_func_info)
		f->nr_func_info = f->info.nr_func_info;
	return 0;
}

/*
 * The kernel's name for function i: "bpf_prog_<tag>_<name>", the name from BTF when the
 * program has it, else the program's own name for the main function and "F" for the
 * others, as perf writes it.
 */
static void bpf_prog_funcs__name(const struct bpf_prog_funcs *f, const struct btf *btf,
				 uint32_t i, char *out, size_t size)
{
	const uint8_t *tag = i < f->nr_tags ? f->tags[i] : f->info.tag;
	const char *name = NULL;
	int n;

	if (btf && i < f->nr_func_info) {
		const struct btf_type *t = btf__type_by_id(btf, f->func_info[i].type_id);

		name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	}
	if (!name || !*name)
		name = i == 0 && f->info.name[0] ? f->info.name : "F";
	n = snprintf(out, size, "bpf_prog_");
	for (int k = 0; k < BPF_TAG_SIZE; k++)
		n += snprintf(out + n, size - (size_t)n, "%02x", tag[k]);
	snprintf(out + n, size - (size_t)n, "_%s", name);
}

static int synth__bpf_prog(struct synth *s, int fd)
{
	struct bpf_prog_funcs f;
	struct btf *btf = NULL;
	char name[PERF_RECORD_KSYMBOL_NAME_LEN];
	int err = bpf_prog_funcs__read(&f, fd);

	if (!err && !f.addrs[0]) {
		pr_debug("synthesize: BPF program %u: the kernel hides its JIT addresses "
			 "(kernel.kptr_restrict, bpf_jit_harden): no KSYMBOL\n", f.info.id);
		err = -ENOENT;
	}
	if (err) {
		if (err == -ENOENT || err == -EPERM)
			pr_debug("synthesize: BPF program %u left out: %s\n", f.info.id,
				 err == -ENOENT ? "not JITed" : strerror(-err));
		bpf_prog_funcs__exit(&f);
		return err == -ENOMEM ? err : 0;
	}
	if (f.info.btf_id && f.nr_func_info)
		btf = btf__load_from_kernel_by_id(f.info.btf_id);	/* NULL: no names from BTF */
	for (uint32_t i = 0; !err && i < f.nr; i++) {
		struct perf_record_ksymbol *ev = &s->ev->ksymbol;
		size_t len;

		bpf_prog_funcs__name(&f, btf, i, name, sizeof(name));
		ev->header.type = PERF_RECORD_KSYMBOL;
		ev->header.misc = 0;
		ev->addr = f.addrs[i];
		ev->len = f.lens[i];
		ev->ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
		ev->flags = 0;
		len = synth__set_name(s, offsetof(struct perf_record_ksymbol, name), name,
				      strlen(name));
		err = synth__emit(s, len, (uint32_t)-1, (uint32_t)-1);
	}
	if (!err) {
		struct perf_record_bpf_event *ev = &s->ev->bpf;

		ev->header.type = PERF_RECORD_BPF_EVENT;
		ev->header.misc = 0;
		ev->type = PERF_BPF_EVENT_PROG_LOAD;
		ev->flags = 0;
		ev->id = f.info.id;
		memcpy(ev->tag, f.info.tag, sizeof(ev->tag));
		err = synth__emit(s, sizeof(*ev), (uint32_t)-1, (uint32_t)-1);
	}
	btf__free(btf);
	bpf_prog_funcs__exit(&f);
	return err;
}

int perf_event__synthesize_bpf_events(struct evlist *evlist, const struct perf_synth_opts *opts,
				      struct ring_sink *sink)
{
	struct synth s;
	uint32_t id = 0;
	int err = synth__init(&s, evlist, opts, sink);

	while (!err) {
		int fd;

		if (bpf_prog_get_next_id(id, &id)) {
			err = errno == ENOENT ? 1 : -errno;	/* ENOENT: past the last one */
			break;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0) {
			err = errno == ENOENT ? 0 : -errno;	/* unloaded meanwhile */
			continue;
		}
		err = synth__bpf_prog(&s, fd);
		close(fd);
	}
	if (err == -EPERM)
		pr_warn("synthesize: BPF programs skipped: listing the loaded ones needs "
			"CAP_SYS_ADMIN; run as root, or record without BPF side-band\n");
	synth__exit(&s);
	return libauxtrace__err(err > 0 ? 0 : err);
}
