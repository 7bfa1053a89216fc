// SPDX-License-Identifier: LGPL-2.1
/*
 * HEADER_BUILD_ID: which build of each mapped file the recording saw, so that perf finds
 * the right symbols (in its build-ID cache, or by checking the file it opens). The files
 * are the ones the MMAP and MMAP2 records name, noted as they go into the data section
 * (while the ring's bytes are still warm: perf record reads the whole file back for them,
 * which costs a pass over every sample); their IDs come from the ELF note (libelf), the
 * kernel's from /sys/kernel/notes, or the MMAP2 record itself when it carries one.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <internal/lib.h>
#include "perf-data-buf.h"
#include "perf-data-internal.h"

#define KERNEL_DSO		"[kernel.kallsyms]"
#define NT_GNU_BUILD_ID_TYPE	3

/* One file a MMAP names, and the cpumode it was mapped in. */
struct build_id_dso {
	uint16_t cpumode;		/* PERF_RECORD_MISC_KERNEL or _USER */
	uint8_t id[PERF_RECORD_BUILD_ID_MAX];
	uint8_t id_size;		/* 0: read it from the file */
	struct build_id_dso *next;	/* in the order first seen */
	char name[];
};

struct build_id_set {
	void *tree;			/* tsearch tree of struct build_id_dso, by (cpumode, name) */
	struct build_id_dso *first, **last;
	int err;
};

static int build_id_dso__cmp(const void *a, const void *b)
{
	const struct build_id_dso *x = a, *y = b;

	if (x->cpumode != y->cpumode)
		return x->cpumode < y->cpumode ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool build_id__is_kernel(const char *name, uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL && !strncmp(name, KERNEL_DSO, strlen(KERNEL_DSO));
}

/* Files with a build ID to find: paths, and the kernel; not [vdso], //anon, memfd:... */
static bool build_id__wanted(const char *name, uint16_t cpumode)
{
	return build_id__is_kernel(name, cpumode) ||
	       ((cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER) &&
		name[0] == '/' && strncmp(name, "/memfd:", 7) && strncmp(name, "/dev/", 5));
}

static void build_id_set__add(struct build_id_set *set, const char *name, uint16_t cpumode,
			      const uint8_t *id, size_t id_size)
{
	struct build_id_dso *dso, **found;
	size_t len;

	if (!build_id__wanted(name, cpumode))
		return;
	if (build_id__is_kernel(name, cpumode))
		name = KERNEL_DSO;	/* "[kernel.kallsyms]_text": perf's DSO is the kernel */
	len = strlen(name);
	dso = calloc(1, sizeof(*dso) + len + 1);
	if (!dso) {
		set->err = -ENOMEM;
		return;
	}
	dso->cpumode = cpumode;
	memcpy(dso->name, name, len + 1);
	found = tsearch(dso, &set->tree, build_id_dso__cmp);
	if (!found) {
		free(dso);
		set->err = -ENOMEM;
		return;
	}
	if (*found != dso) {
		free(dso);
		dso = *found;
	} else {
		*set->last = dso;
		set->last = &dso->next;
	}
	if (!dso->id_size && id_size) {
		dso->id_size = (uint8_t)(id_size < sizeof(dso->id) ? id_size : sizeof(dso->id));
		memcpy(dso->id, id, dso->id_size);
	}
}

/* A MMAP or MMAP2 record, whole, as the data section holds it. */
static void build_id_set__add_mmap(struct build_id_set *set, const union perf_event *ev,
				   size_t size)
{
	uint16_t cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	size_t off = ev->header.type == PERF_RECORD_MMAP ? offsetof(struct perf_record_mmap, filename)
							 : offsetof(struct perf_record_mmap2, filename);
	const char *name = (const char *)ev + off;

	if (size <= off || !memchr(name, '\0', size - off))
		return;		/* no NUL-terminated name inside the record: not ours to guess */
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA)
		return;
	if (ev->header.type == PERF_RECORD_MMAP2 &&
	    (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		build_id_set__add(set, name, cpumode, ev->mmap2.build_id,
				  ev->mmap2.build_id_size);
	else
		build_id_set__add(set, name, cpumode, NULL, 0);
}

/* The GNU build ID among ELF notes [p, p + len) aligned to align. true when found. */
static bool notes__build_id(const unsigned char *p, size_t len, size_t align, uint8_t *id,
			    uint8_t *id_size)
{
	size_t pos = 0;

	while (len - pos >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name_at, desc_at, next;

		memcpy(&nh, p + pos, sizeof(nh));
		name_at = pos + sizeof(nh);
		desc_at = name_at + ((nh.n_namesz + align - 1) & ~(align - 1));
		next = desc_at + ((nh.n_descsz + align - 1) & ~(align - 1));
		if (desc_at > len || next > len || nh.n_descsz > len)
			return false;
		if (nh.n_type == NT_GNU_BUILD_ID_TYPE && nh.n_namesz == 4 &&
		    !memcmp(p + name_at, "GNU", 4) && nh.n_descsz) {
			*id_size = (uint8_t)(nh.n_descsz < PERF_RECORD_BUILD_ID_MAX ?
					     nh.n_descsz : PERF_RECORD_BUILD_ID_MAX);
			memcpy(id, p + desc_at, *id_size);
			return true;
		}
		pos = next;
	}
	return false;
}

/* The build ID in an ELF file's note sections (libelf). */
static bool elf__build_id(const char *path, uint8_t *id, uint8_t *id_size)
{
	Elf_Scn *scn = NULL;
	bool found = false;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_rawdata(scn, NULL);
		if (data && data->d_buf)
			found = notes__build_id(data->d_buf, data->d_size,
						sh.sh_addralign == 8 ? 8 : 4, id, id_size);
	}
	elf_end(elf);
	close(fd);
	return found;
}

static bool kernel__build_id(uint8_t *id, uint8_t *id_size)
{
	unsigned char notes[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = libauxtrace__read_full(fd, notes, sizeof(notes));
	close(fd);
	return n > 0 && notes__build_id(notes, (size_t)n, 4, id, id_size);
}

/* The entries perf reads: {header, pid -1, id, size, name padded to 64}. */
static void build_id_set__emit(struct build_id_set *set, struct perf_data_buf *buf,
			       uint64_t *nr)
{
	for (struct build_id_dso *dso = set->first; dso; dso = dso->next) {
		struct perf_record_header_build_id ev = { .pid = -1 };
		size_t len = strlen(dso->name) + 1;
		size_t padded = (len + PERF_DATA_NAME_ALIGN - 1) & ~(size_t)(PERF_DATA_NAME_ALIGN - 1);

		if (!dso->id_size &&
		    !(strcmp(dso->name, KERNEL_DSO) ? elf__build_id(dso->name, dso->id, &dso->id_size)
						    : kernel__build_id(dso->id, &dso->id_size))) {
			pr_debug("perf.data: no build ID for %s\n", dso->name);
			continue;
		}
		ev.header.misc = dso->cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE;
		ev.header.size = (uint16_t)(sizeof(ev) + padded);
		memcpy(ev.build_id, dso->id, dso->id_size);
		ev.size = dso->id_size;
		perf_data_buf__add(buf, &ev, sizeof(ev));
		perf_data_buf__add(buf, dso->name, len);
		perf_data_buf__add_zeros(buf, padded - len);
		(*nr)++;
	}
}

/* Copy len bytes of the iovecs from (i, off) into dst. Bytes copied. */
static size_t gather(const struct iovec *iov, int iovcnt, int i, size_t off, void *dst,
		     size_t len)
{
	size_t done = 0;

	for (; i < iovcnt && done < len; i++, off = 0) {
		size_t n = iov[i].iov_len - off < len - done ? iov[i].iov_len - off : len - done;

		memcpy((char *)dst + done, (const char *)iov[i].iov_base + off, n);
		done += n;
	}
	return done;
}

static void iov__advance(const struct iovec *iov, int iovcnt, int *i, size_t *off, size_t len)
{
	while (*i < iovcnt && len) {
		size_t n = iov[*i].iov_len - *off < len ? iov[*i].iov_len - *off : len;

		*off += n;
		len -= n;
		if (*off == iov[*i].iov_len) {
			(*i)++;
			*off = 0;
		}
	}
}

/*
 * The records of a push that went into the data section: MMAP and MMAP2 are noted. A record
 * lies whole in one iovec, but for one a ring's wrap splits: that one is gathered.
 */
void perf_data_build_ids__note(struct perf_data_writer *w, const struct iovec *iov, int iovcnt)
{
	struct build_id_set *set = w->build_ids;
	union {
		struct perf_event_header header;
		unsigned char bytes[sizeof(struct perf_record_mmap2) + 8];
	} gathered;
	int i = 0;
	size_t off = 0;

	if (!set)
		return;
	while (i < iovcnt) {
		const unsigned char *p = (const unsigned char *)iov[i].iov_base + off;
		size_t left = iov[i].iov_len - off, len;
		struct perf_event_header h;

		/*
		 * The records that lie whole in this iovec, in a tight loop: this walk runs over
		 * every sample a recorder writes, and the general step below costs twice as much.
		 */
		while (left >= sizeof(h)) {
			memcpy(&h, p, sizeof(h));
			if (h.size < sizeof(h) || h.size > left)
				break;
			if (h.type == PERF_RECORD_MMAP || h.type == PERF_RECORD_MMAP2)
				build_id_set__add_mmap(set, (const void *)p, h.size);
			p += h.size;
			off += h.size;
			left -= h.size;
		}
		if (!left) {
			i++;
			off = 0;
			continue;
		}
		if (left >= sizeof(h))
			memcpy(&h, p, sizeof(h));
		else
			gather(iov, iovcnt, i, off, &h, sizeof(h));
		len = h.size;
		if (len < sizeof(h))
			return;		/* the push was checked: not a perf record stream */
		if (h.type == PERF_RECORD_MMAP || h.type == PERF_RECORD_MMAP2) {
			if (left >= len)
				build_id_set__add_mmap(set, (const void *)p, len);
			else if (len <= sizeof(gathered) &&
				 gather(iov, iovcnt, i, off, &gathered, len) == len)
				build_id_set__add_mmap(set, (const void *)&gathered, len);
		}
		iov__advance(iov, iovcnt, &i, &off, len);
	}
}

int perf_data_build_ids__new(struct perf_data_writer *w)
{
	w->build_ids = calloc(1, sizeof(*w->build_ids));
	if (!w->build_ids)
		return -ENOMEM;
	w->build_ids->last = &w->build_ids->first;
	return 0;
}

void perf_data_build_ids__delete(struct perf_data_writer *w)
{
	if (!w->build_ids)
		return;
	tdestroy(w->build_ids->tree, free);
	free(w->build_ids);
	w->build_ids = NULL;
}

int perf_data_build_ids__build(struct perf_data_writer *w, struct perf_data_buf *buf)
{
	if (!w->build_ids || !w->build_ids->first)
		return -ENOENT;
	if (w->build_ids->err)
		return w->build_ids->err;
	elf_version(EV_CURRENT);
	build_id_set__emit(w->build_ids, buf, &w->stats.build_ids);
	return w->stats.build_ids ? 0 : -ENOENT;
}
