// SPDX-License-Identifier: LGPL-2.1
/* Threads, processes, their mappings and symbols, from a recording's side-band (machine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <auxtrace/decode.h>
#include <auxtrace/machine.h>
#include <auxtrace/session.h>

#include <internal/decode-image.h>
#include <internal/lib.h>
#include <internal/opts.h>
#include <internal/symtab.h>

#define MACHINE_BUCKETS		1024
#define KERNEL_PID		-1
/* x86-64's split, where a recording maps no kernel */
#define DEFAULT_KERNEL_START	0xffff800000000000ULL

/* A mapped file and its symbols, shared by every mapping of it. */
struct perf_dso {
	struct perf_dso *next;		/* in its hash bucket */
	char *filename;			/* as the record names it */
	const char *name;		/* as perf prints it */
	char *module;			/* a kernel module's name, for kallsyms: "[xfs]" */
	bool kernel;
	bool ksym;			/* a KSYMBOL's code (BPF): named and sized by the record */
	bool symtab_tried;
	bool image_failed;		/* its file could not be added to an image: said once */
	struct symtab symtab;
};

struct perf_map {
	uint64_t start, end, pgoff;
	struct perf_dso *dso;
	bool exec;
};

struct perf_proc {
	struct perf_proc *next;
	pid_t pid;
	struct perf_map *maps;		/* sorted by start, never overlapping */
	size_t nr_maps, alloc_maps;
	uint64_t gen;			/* bumped by every change of maps */
	struct auxtrace_image *image;
	uint64_t image_gen;		/* the gen it was built for, when image_built */
	bool image_built;
};

struct perf_thread {
	struct perf_thread *next;
	pid_t tid;
	pid_t pid;
	char comm[PERF_RECORD_COMM_LEN + 8];
};

struct perf_machine {
	struct perf_machine_opts opts;
	struct perf_thread *threads[MACHINE_BUCKETS];
	struct perf_proc *procs[MACHINE_BUCKETS];
	struct perf_dso *dsos[MACHINE_BUCKETS];
	uint64_t kernel_start;		/* 0 until the kernel is mapped */
};

static unsigned int machine__hash_int(int v)
{
	return ((unsigned int)v * 2654435761u) % MACHINE_BUCKETS;
}

static unsigned int machine__hash_str(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % MACHINE_BUCKETS;
}

struct perf_machine *perf_machine__new(const struct perf_machine_opts *opts)
{
	struct perf_machine *m = calloc(1, sizeof(*m));
	int err;

	if (!m)
		return libauxtrace__ptr_err(ENOMEM);
	err = opts__copy(perf_machine_opts, &m->opts, opts);
	if (err) {
		free(m);
		return libauxtrace__ptr_err(err);
	}
	if (!m->opts.kallsyms)
		m->opts.kallsyms = "/proc/kallsyms";
	if (!m->opts.debug_dir)
		m->opts.debug_dir = "/usr/lib/debug";
	return m;
}

void perf_machine__delete(struct perf_machine *m)
{
	if (!m)
		return;
	for (int i = 0; i < MACHINE_BUCKETS; i++) {
		while (m->threads[i]) {
			struct perf_thread *t = m->threads[i];

			m->threads[i] = t->next;
			free(t);
		}
		while (m->procs[i]) {
			struct perf_proc *p = m->procs[i];

			m->procs[i] = p->next;
			auxtrace_image__delete(p->image);
			free(p->maps);
			free(p);
		}
		while (m->dsos[i]) {
			struct perf_dso *d = m->dsos[i];

			m->dsos[i] = d->next;
			symtab__exit(&d->symtab);
			free(d->filename);
			free(d->module);
			free(d);
		}
	}
	free(m);
}

static struct perf_thread *machine__thread(const struct perf_machine *m, pid_t tid)
{
	struct perf_thread *t = m->threads[machine__hash_int(tid)];

	while (t && t->tid != tid)
		t = t->next;
	return t;
}

static struct perf_thread *machine__findnew_thread(struct perf_machine *m, pid_t tid)
{
	struct perf_thread *t = machine__thread(m, tid);
	unsigned int h = machine__hash_int(tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = -1;
	/* the idle task has no COMM record: perf names it swapper */
	if (tid)
		snprintf(t->comm, sizeof(t->comm), ":%d", tid);
	else
		snprintf(t->comm, sizeof(t->comm), "swapper");
	t->next = m->threads[h];
	m->threads[h] = t;
	return t;
}

static struct perf_proc *machine__proc(const struct perf_machine *m, pid_t pid)
{
	struct perf_proc *p = m->procs[machine__hash_int(pid)];

	while (p && p->pid != pid)
		p = p->next;
	return p;
}

static struct perf_proc *machine__findnew_proc(struct perf_machine *m, pid_t pid)
{
	struct perf_proc *p = machine__proc(m, pid);
	unsigned int h = machine__hash_int(pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = m->procs[h];
	m->procs[h] = p;
	return p;
}

/* "/lib/modules/6.1.0/kernel/fs/xfs/xfs.ko" or "[xfs]": "[xfs]", as kallsyms names it. */
static char *dso__module_name(const char *filename)
{
	const char *base = strrchr(filename, '/');
	size_t len;
	char *name;

	base = base ? base + 1 : filename;
	base += *base == '[';
	len = strcspn(base, ".]");
	name = malloc(len + 3);
	if (!name)
		return NULL;
	name[0] = '[';
	memcpy(name + 1, base, len);
	strcpy(name + 1 + len, "]");
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

static struct perf_dso *machine__findnew_dso(struct perf_machine *m, const char *filename,
					     bool kernel, bool ksym)
{
	unsigned int h = machine__hash_str(filename);
	struct perf_dso *d = m->dsos[h];

	while (d && (strcmp(d->filename, filename) || d->kernel != kernel || d->ksym != ksym))
		d = d->next;
	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->filename = strdup(filename)))
		goto fail;
	d->kernel = kernel;
	d->ksym = ksym;
	d->name = d->filename;
	if (ksym) {
		d->symtab_tried = true;	/* its one symbol comes with its record */
	} else if (kernel && !strncmp(filename, "[kernel.kallsyms]", 17)) {
		d->name = "[kernel.kallsyms]";
	} else if (kernel) {
		d->module = dso__module_name(filename);
		if (!d->module)
			goto fail;
		d->name = d->module;
	}
	d->next = m->dsos[h];
	m->dsos[h] = d;
	return d;
fail:
	if (d)
		free(d->filename);
	free(d);
	return NULL;
}

/* Room for two more maps: the new one, and the second half of one it splits. */
static int perf_proc__reserve(struct perf_proc *p)
{
	size_t alloc = p->alloc_maps ? p->alloc_maps : 16;
	struct perf_map *maps;

	while (alloc < p->nr_maps + 2)
		alloc *= 2;
	if (alloc == p->alloc_maps)
		return 0;
	maps = reallocarray(p->maps, alloc, sizeof(*maps));
	if (!maps)
		return -ENOMEM;
	p->maps = maps;
	p->alloc_maps = alloc;
	return 0;
}

/* A new mapping hides what it overlaps, as mmap(MAP_FIXED) replaces it. */
static int perf_proc__insert(struct perf_proc *p, const struct perf_map *map)
{
	size_t i, kept = 0, at;
	int err = perf_proc__reserve(p);

	if (err)
		return err;
	for (i = 0; i < p->nr_maps; i++) {
		struct perf_map *o = &p->maps[i];

		if (o->end <= map->start || o->start >= map->end)
			continue;
		if (o->start < map->start && o->end > map->end) {
			struct perf_map tail = *o;

			tail.pgoff += map->end - o->start;
			tail.start = map->end;
			p->maps[p->nr_maps++] = tail;
		}
		if (o->start < map->start) {
			o->end = map->start;
		} else if (o->end > map->end) {
			o->pgoff += map->end - o->start;
			o->start = map->end;
		} else {
			o->end = o->start;	/* wholly hidden: dropped below */
		}
	}
	for (i = 0; i < p->nr_maps; i++)
		if (p->maps[i].end > p->maps[i].start)
			p->maps[kept++] = p->maps[i];
	/* A split tail was appended: restore the order around it. */
	for (i = 1; i < kept; i++) {
		struct perf_map cur = p->maps[i];
		size_t j = i;

		for (; j > 0 && p->maps[j - 1].start > cur.start; j--)
			p->maps[j] = p->maps[j - 1];
		p->maps[j] = cur;
	}
	for (at = 0; at < kept && p->maps[at].start < map->start; at++)
		;
	memmove(&p->maps[at + 1], &p->maps[at], (kept - at) * sizeof(*p->maps));
	p->maps[at] = *map;
	p->nr_maps = kept + 1;
	p->gen++;
	return 0;
}

static int machine__insert_map(struct perf_machine *m, pid_t pid, bool kernel,
			       struct perf_map *map)
{
	struct perf_proc *p = machine__findnew_proc(m, kernel ? KERNEL_PID : pid);

	if (!p)
		return libauxtrace__err(-ENOMEM);
	if (kernel && (!m->kernel_start || map->start < m->kernel_start))
		m->kernel_start = map->start;
	return libauxtrace__err(perf_proc__insert(p, map));
}

static int machine__add_map(struct perf_machine *m, pid_t pid, bool kernel, uint64_t start,
			    uint64_t len, uint64_t pgoff, const char *filename, bool exec)
{
	struct perf_map map = { .start = start, .end = start + len, .pgoff = pgoff,
				.exec = exec };

	if (!len)
		return 0;
	if (map.end < start)
		map.end = UINT64_MAX;	/* the kernel's text runs to the end of the space */
	map.dso = machine__findnew_dso(m, filename, kernel, false);
	if (!map.dso)
		return libauxtrace__err(-ENOMEM);
	return machine__insert_map(m, pid, kernel, &map);
}

/*
 * A BPF program's (or trampoline's) code, as perf shows it: its own dso and symbol, both of
 * the record's name ("bpf_prog_<tag>_<name>"). Unregistering is not followed: what ran there
 * while it was loaded keeps its name.
 */
static int machine__ksymbol(struct perf_machine *m, const struct perf_record_ksymbol *ev)
{
	char name[PERF_RECORD_KSYMBOL_NAME_LEN + 1];
	struct perf_map map = { .start = ev->addr, .end = ev->addr + ev->len, .exec = true };

	if ((ev->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) || !ev->len ||
	    map.end < map.start)
		return 0;
	snprintf(name, sizeof(name), "%.*s", PERF_RECORD_KSYMBOL_NAME_LEN, ev->name);
	map.dso = machine__findnew_dso(m, name, true, true);
	if (!map.dso || symtab__load_one(&map.dso->symtab, name, ev->addr, ev->len))
		return libauxtrace__err(-ENOMEM);
	return machine__insert_map(m, -1, true, &map);
}

static bool perf_event__is_kernel(const union perf_event *event)
{
	uint16_t cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* fork(): the child has its parent's mappings (a new thread shares them already). */
static int machine__fork(struct perf_machine *m, const struct perf_record_fork *ev)
{
	struct perf_thread *t = machine__findnew_thread(m, (pid_t)ev->tid);
	struct perf_thread *parent = machine__thread(m, (pid_t)ev->ptid);
	struct perf_proc *from, *to;

	if (!t)
		return -ENOMEM;
	t->pid = (pid_t)ev->pid;
	if (parent)
		memcpy(t->comm, parent->comm, sizeof(t->comm));
	if (ev->pid == ev->ppid)
		return 0;
	from = machine__proc(m, (pid_t)ev->ppid);
	if (!from || !from->nr_maps)
		return 0;
	to = machine__findnew_proc(m, (pid_t)ev->pid);
	if (!to)
		return -ENOMEM;
	free(to->maps);
	to->maps = malloc(from->nr_maps * sizeof(*to->maps));
	to->nr_maps = to->alloc_maps = to->maps ? from->nr_maps : 0;
	if (!to->maps)
		return -ENOMEM;
	memcpy(to->maps, from->maps, from->nr_maps * sizeof(*to->maps));
	to->gen++;
	return 0;
}

int perf_machine__process_event(struct perf_machine *m, const union perf_event *event,
				const struct perf_sample *sample)
{
	struct perf_thread *t;

	(void)sample;
	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		return machine__add_map(m, (pid_t)event->mmap.pid, perf_event__is_kernel(event),
					event->mmap.start, event->mmap.len, event->mmap.pgoff,
					event->mmap.filename,
					!(event->header.misc & PERF_RECORD_MISC_MMAP_DATA));
	case PERF_RECORD_MMAP2:
		return machine__add_map(m, (pid_t)event->mmap2.pid, perf_event__is_kernel(event),
					event->mmap2.start, event->mmap2.len,
					event->mmap2.pgoff, event->mmap2.filename,
					event->mmap2.prot & PROT_EXEC);
	case PERF_RECORD_COMM:
		t = machine__findnew_thread(m, (pid_t)event->comm.tid);
		if (!t)
			return libauxtrace__err(-ENOMEM);
		t->pid = (pid_t)event->comm.pid;
		snprintf(t->comm, sizeof(t->comm), "%.*s", PERF_RECORD_COMM_LEN,
			 event->comm.comm);
		return 0;
	case PERF_RECORD_FORK:
		return libauxtrace__err(machine__fork(m, &event->fork));
	case PERF_RECORD_KSYMBOL:
		return machine__ksymbol(m, &event->ksymbol);
	default:
		return 0;
	}
}

const char *perf_machine__comm(struct perf_machine *m, pid_t tid)
{
	struct perf_thread *t = machine__findnew_thread(m, tid);

	return t ? t->comm : "";
}

pid_t perf_machine__pid(const struct perf_machine *m, pid_t tid)
{
	const struct perf_thread *t = machine__thread(m, tid);

	return t ? t->pid : -1;
}

bool perf_machine__kernel_ip(const struct perf_machine *m, uint64_t ip)
{
	return ip >= (m->kernel_start ? m->kernel_start : DEFAULT_KERNEL_START);
}

static const struct perf_map *perf_proc__find(const struct perf_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p ? p->nr_maps : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct perf_map *map = &p->maps[mid];

		if (addr < map->start)
			hi = mid;
		else if (addr >= map->end)
			lo = mid + 1;
		else
			return map;
	}
	return NULL;
}

static const struct symtab *perf_machine__symtab(struct perf_machine *m, struct perf_dso *d)
{
	if (!d->symtab_tried) {
		d->symtab_tried = true;
		if (d->kernel && *m->opts.kallsyms)
			symtab__load_kallsyms(&d->symtab, m->opts.kallsyms, d->module);
		else if (!d->kernel && d->filename[0] == '/')
			symtab__load_elf(&d->symtab, d->filename, m->opts.debug_dir);
	}
	return &d->symtab;
}

int perf_machine__resolve(struct perf_machine *m, pid_t pid, uint64_t addr,
			  struct perf_addr_location *al)
{
	bool kernel = perf_machine__kernel_ip(m, addr);
	const struct perf_map *map;
	const struct symtab *st;
	const struct symtab_sym *sym;
	uint64_t vaddr = addr;

	if (!al || al->sz < sizeof(*al))
		return libauxtrace__err(-EINVAL);
	memset((char *)al + sizeof(al->sz), 0, sizeof(*al) - sizeof(al->sz));
	al->kernel = kernel;
	map = perf_proc__find(machine__proc(m, kernel ? KERNEL_PID : pid), addr);
	if (!map)
		return libauxtrace__err(-ENOENT);
	al->dso = map->dso->name;
	al->map_start = map->start;
	al->map_end = map->end;
	al->map_pgoff = map->pgoff;
	st = perf_machine__symtab(m, map->dso);
	/* A file's symbols are in its ELF addresses, the kernel's where they run. */
	if (!kernel && !symtab__offset_to_vaddr(st, addr - map->start + map->pgoff, &vaddr))
		return 0;
	sym = symtab__find(st, vaddr);
	if (sym) {
		al->sym = sym->name;
		al->sym_offset = vaddr - sym->start;
	}
	return 0;
}

/* Files the decoders can read code from: not anonymous, special or gone. */
static bool perf_map__is_file(const struct perf_map *map)
{
	const char *f = map->dso->filename;

	return map->exec && !map->dso->kernel && f[0] == '/' && f[1] != '/' &&
	       strncmp(f, "/dev/", 5) && strncmp(f, "/memfd:", 7) && !strstr(f, " (deleted)");
}

struct auxtrace_image *perf_machine__image(struct perf_machine *m, pid_t pid)
{
	struct perf_proc *p = machine__findnew_proc(m, pid);
	int err;

	if (!p || (!p->image && !(p->image = auxtrace_image__new())))
		return libauxtrace__ptr_err(ENOMEM);
	if (p->image_built && p->image_gen == p->gen)
		return p->image;
	auxtrace_image__clear(p->image);
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct perf_map *map = &p->maps[i];

		if (!perf_map__is_file(map) || map->dso->image_failed)
			continue;
		err = auxtrace_image__add_file(p->image, map->dso->filename, map->pgoff,
					       map->end - map->start, map->start);
		if (err == -ENOMEM)
			return libauxtrace__ptr_err(ENOMEM);
		/* The image logged why; decoding goes on without that file. */
		map->dso->image_failed = err < 0;
	}
	p->image_gen = p->gen;
	p->image_built = true;
	return p->image;
}
