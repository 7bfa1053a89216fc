// SPDX-License-Identifier: LGPL-2.1
/*
 * Symbol tables for naming code as perf script does (internal/symtab.h): perf's choice of
 * symbol file, of symbols, of one symbol among aliases, and of the end of unsized ones.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>
#include <internal/symtab.h>

/* A symbol as read, before aliases are settled and ends fixed. */
struct symtab_entry {
	uint64_t start;
	uint64_t size;
	const char *name;
	unsigned char bind;
	size_t seq;		/* order in the table: perf keeps the first of equals */
	size_t demangled;	/* 1 + its C++ name's offset in the demangled names, or 0 */
};

struct symtab_entries {
	struct symtab_entry *e;
	size_t nr, alloc;
};

static int symtab_entries__add(struct symtab_entries *es, uint64_t start, uint64_t size,
			       const char *name, unsigned char bind)
{
	if (es->nr == es->alloc) {
		size_t alloc = es->alloc ? es->alloc * 2 : 1024;
		struct symtab_entry *e = reallocarray(es->e, alloc, sizeof(*e));

		if (!e)
			return -ENOMEM;
		es->e = e;
		es->alloc = alloc;
	}
	es->e[es->nr] = (struct symtab_entry){ start, size, name, bind, es->nr, 0 };
	es->nr++;
	return 0;
}

static int symtab_entry__cmp(const void *a, const void *b)
{
	const struct symtab_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t symtab__underscores(const char *name)
{
	return strspn(name, "_");
}

/* perf's preference among symbols at one address: true when b beats a. */
static bool symtab_entry__better(const struct symtab_entry *a, const struct symtab_entry *b)
{
	size_t la, lb;

	if (!a->size != !b->size)
		return !a->size;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL;
	la = symtab__underscores(a->name);
	lb = symtab__underscores(b->name);
	if (la != lb)
		return lb < la;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return lb > la;
	/* the kernel's syscall aliases lose to their real names */
	return !strncmp(a->name, "SyS", 3) || !strncmp(a->name, "compat_SyS", 10);
}

/*
 * perf's order of fixing up: an unsized symbol first runs to the next address (the last
 * one to the page after its own), so of several aliases only the last has a size; then one
 * symbol per address is kept, by size, binding, underscores and name length.
 */
static int symtab__finish(struct symtab *st, struct symtab_entries *es)
{
	size_t i, n = 0;

	if (es->nr)
		qsort(es->e, es->nr, sizeof(*es->e), symtab_entry__cmp);
	for (i = 0; i < es->nr; i++) {
		struct symtab_entry *e = &es->e[i];

		if (e->size)
			continue;
		if (i + 1 < es->nr)
			e->size = es->e[i + 1].start - e->start;
		else
			e->size = ((e->start + 4095) & ~4095ULL) + 4096 - e->start;
	}
	st->syms = calloc(es->nr ? es->nr : 1, sizeof(*st->syms));
	if (!st->syms)
		return -ENOMEM;
	for (i = 0; i < es->nr; i++) {
		const struct symtab_entry *best = &es->e[i];

		while (i + 1 < es->nr && es->e[i + 1].start == best->start) {
			i++;
			if (symtab_entry__better(best, &es->e[i]))
				best = &es->e[i];
		}
		st->syms[n++] = (struct symtab_sym){ best->start, best->start + best->size,
						     best->name };
	}
	st->nr = n;
	return 0;
}

const struct symtab_sym *symtab__find(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nr, i;

	while (lo < hi) {	/* the first symbol starting after addr */
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A sized symbol may hold later ones (a label inside a function): look back a little. */
	for (i = lo; i-- > 0 && lo - i <= 16;) {
		const struct symtab_sym *s = &st->syms[i];

		if (addr < s->end || addr == s->start)
			return s;
	}
	return NULL;
}

bool symtab__offset_to_vaddr(const struct symtab *st, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < st->nr_segs; i++) {
		const struct symtab_seg *seg = &st->segs[i];

		if (off >= seg->offset && off - seg->offset < seg->filesz) {
			*vaddr = off - seg->offset + seg->vaddr;
			return true;
		}
	}
	return false;
}

int symtab__load_one(struct symtab *st, const char *name, uint64_t start, uint64_t size)
{
	symtab__exit(st);
	st->strings = strdup(name);
	st->syms = calloc(1, sizeof(*st->syms));
	if (!st->strings || !st->syms) {
		symtab__exit(st);
		return -ENOMEM;
	}
	st->syms[0] = (struct symtab_sym){ start, start + size, st->strings };
	st->nr = 1;
	return 0;
}

void symtab__exit(struct symtab *st)
{
	free(st->syms);
	free(st->strings);
	free(st->plt_strings);
	free(st->demangled);
	free(st->segs);
	*st = (struct symtab){ 0 };
}

/* ---- ELF ---- */

struct elf_file {
	int fd;
	Elf *elf;
};

static int elf_file__open(struct elf_file *f, const char *path)
{
	f->elf = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	if (elf_version(EV_CURRENT) != EV_NONE)
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		elf_end(f->elf);
		close(f->fd);
		f->elf = NULL;
		return -EINVAL;
	}
	return 0;
}

static void elf_file__close(struct elf_file *f)
{
	if (!f->elf)
		return;
	elf_end(f->elf);
	close(f->fd);
	f->elf = NULL;
}

static Elf_Scn *elf_file__section(const struct elf_file *f, uint32_t type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn)) != NULL)
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

/* The GNU build ID as hex, false when the file has none. */
static bool elf_file__build_id(const struct elf_file *f, char *hex, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
			const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;

			if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4) ||
			    nhdr.n_descsz * 2 + 1 > size || nhdr.n_descsz < 2)
				continue;
			for (size_t i = 0; i < nhdr.n_descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", desc[i]);
			return true;
		}
	}
	return false;
}

static int symtab__read_segments(struct symtab *st, const struct elf_file *f)
{
	size_t nr, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(f->elf, &nr))
		return -EINVAL;
	st->segs = calloc(nr ? nr : 1, sizeof(*st->segs));
	if (!st->segs)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			st->segs[st->nr_segs++] = (struct symtab_seg){ ph.p_offset, ph.p_vaddr,
								       ph.p_filesz };
	return 0;
}

/* Does the symbol name code or data perf would show? Labels only in text sections. */
static bool symtab__elf_keeps(const struct elf_file *f, size_t shstrndx, const GElf_Sym *sym,
			      const char *name)
{
	unsigned char type = GELF_ST_TYPE(sym->st_info);
	const char *secname;
	GElf_Shdr shdr;
	Elf_Scn *scn;

	if (!*name || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	if (type != STT_NOTYPE)
		return false;
	scn = elf_getscn(f->elf, sym->st_shndx);
	secname = scn && gelf_getshdr(scn, &shdr) ? elf_strptr(f->elf, shstrndx, shdr.sh_name)
						   : NULL;
	return secname && strstr(secname, "text");
}

/* libstdc++'s demangler, the one perf reads C++ names with; NULL where it is missing. */
typedef char *(*cxa_demangle_fn)(const char *name, char *buf, size_t *len, int *status);

struct demangler {
	void *lib;
	cxa_demangle_fn demangle;
	char *names;		/* every demangled name, NUL after each */
	size_t len, alloc;
};

static void demangler__init(struct demangler *d)
{
	memset(d, 0, sizeof(*d));
	d->demangle = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!d->demangle && (d->lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)))
		d->demangle = (cxa_demangle_fn)dlsym(d->lib, "__cxa_demangle");
}

static void demangler__exit(struct demangler *d)
{
	if (d->lib)
		dlclose(d->lib);
	free(d->names);
}

/* perf prints C++ names without their parameters (and what qualifies the function). */
static void demangled__strip_params(char *s)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
	size_t n = strlen(s), i;
	int depth = 0;

	for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
		size_t q = strlen(quals[i]);

		if (n > q && !strcmp(s + n - q, quals[i])) {
			s[n -= q] = '\0';
			i = (size_t)-1;		/* again, from the first */
		}
	}
	if (!n || s[n - 1] != ')')
		return;
	for (i = n; i-- > 0;) {
		depth += s[i] == ')';
		depth -= s[i] == '(';
		if (!depth) {
			if (i)
				s[i] = '\0';
			return;
		}
	}
}

/* A "_Z" name demangled as perf shows it, kept in d->names: 1 + its offset, or 0. */
static size_t demangler__add(struct demangler *d, const char *name)
{
	size_t len, at;
	char *out;
	int status = -1;

	if (!d->demangle || strncmp(name, "_Z", 2))
		return 0;
	out = d->demangle(name, NULL, NULL, &status);
	if (!out || status)
		goto none;
	demangled__strip_params(out);
	len = strlen(out) + 1;
	if (d->len + len > d->alloc) {
		size_t alloc = d->alloc ? d->alloc * 2 : 64 << 10;
		char *grown;

		while (alloc < d->len + len)
			alloc *= 2;
		grown = realloc(d->names, alloc);
		if (!grown)
			goto none;
		d->names = grown;
		d->alloc = alloc;
	}
	memcpy(d->names + d->len, out, len);
	free(out);
	at = d->len;
	d->len += len;
	return at + 1;
none:
	free(out);
	return 0;
}

/* Entries name their demangled names, which move to the table for good. */
static void demangler__finish(struct demangler *d, struct symtab *st,
			      struct symtab_entries *es)
{
	for (size_t i = 0; i < es->nr; i++)
		if (es->e[i].demangled)
			es->e[i].name = d->names + es->e[i].demangled - 1;
	st->demangled = d->names;
	d->names = NULL;
}

static int symtab__read_elf_symbols(struct symtab *st, const struct elf_file *f,
				    Elf_Scn *scn, const GElf_Shdr *shdr,
				    struct symtab_entries *es, struct demangler *dm)
{
	Elf_Data *data = elf_getdata(scn, NULL), *strs;
	Elf_Scn *strscn = elf_getscn(f->elf, shdr->sh_link);
	size_t shstrndx, nr, i;
	GElf_Sym sym;
	int err = 0;

	strs = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (!data || !strs || !strs->d_buf || !shdr->sh_entsize ||
	    elf_getshdrstrndx(f->elf, &shstrndx))
		return -EINVAL;
	st->strings = malloc(strs->d_size + 1);
	if (!st->strings)
		return -ENOMEM;
	memcpy(st->strings, strs->d_buf, strs->d_size);
	st->strings[strs->d_size] = '\0';
	nr = shdr->sh_size / shdr->sh_entsize;
	for (i = 0; i < nr && !err && gelf_getsym(data, (int)i, &sym); i++) {
		const char *name = sym.st_name < strs->d_size ? st->strings + sym.st_name : "";

		if (!symtab__elf_keeps(f, shstrndx, &sym, name))
			continue;
		err = symtab_entries__add(es, sym.st_value, sym.st_size, name,
					  GELF_ST_BIND(sym.st_info));
		if (!err)
			es->e[es->nr - 1].demangled = demangler__add(dm, name);
	}
	return err;
}

static Elf_Scn *elf_file__section_named(const struct elf_file *f, const char *name,
					GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(f->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		const char *s = gelf_getshdr(scn, shdr) ? elf_strptr(f->elf, shstrndx,
								    shdr->sh_name) : NULL;

		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/*
 * "name@plt" for each PLT entry, as perf names them: the entries of .plt after its header
 * (or of .plt.sec, which has none), in the order of the jump slots in .rela.plt.
 */
static int symtab__read_plt(struct symtab *st, const struct elf_file *f,
			    struct symtab_entries *es)
{
	GElf_Shdr rel_shdr, plt_shdr, dynsym_shdr, str_shdr;
	Elf_Scn *rel, *plt, *dynsym, *dynstr;
	Elf_Data *reldata, *syms, *strs;
	uint64_t addr, entsize;
	size_t nr, i, len = 0;
	int err = 0;

	rel = elf_file__section_named(f, ".rela.plt", &rel_shdr);
	if (!rel)
		rel = elf_file__section_named(f, ".rel.plt", &rel_shdr);
	plt = elf_file__section_named(f, ".plt.sec", &plt_shdr);
	addr = plt ? plt_shdr.sh_addr : 0;
	if (!plt && (plt = elf_file__section_named(f, ".plt", &plt_shdr)))
		addr = plt_shdr.sh_addr + plt_shdr.sh_entsize;
	dynsym = rel ? elf_getscn(f->elf, rel_shdr.sh_link) : NULL;
	if (!plt || !dynsym || !gelf_getshdr(dynsym, &dynsym_shdr) ||
	    dynsym_shdr.sh_type != SHT_DYNSYM || !rel_shdr.sh_entsize)
		return 0;
	dynstr = elf_getscn(f->elf, dynsym_shdr.sh_link);
	reldata = elf_getdata(rel, NULL);
	syms = elf_getdata(dynsym, NULL);
	strs = dynstr && gelf_getshdr(dynstr, &str_shdr) ? elf_getdata(dynstr, NULL) : NULL;
	if (!reldata || !syms || !strs || !strs->d_buf)
		return 0;
	entsize = plt_shdr.sh_entsize ? plt_shdr.sh_entsize : 16;
	nr = rel_shdr.sh_size / rel_shdr.sh_entsize;
	/* each name and "@plt": at most the string table's size plus 5 bytes per entry */
	st->plt_strings = malloc(strs->d_size + 5 * nr + 1);
	if (!st->plt_strings)
		return -ENOMEM;
	for (i = 0; i < nr && !err; i++, addr += entsize) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		char *name = st->plt_strings + len;

		if (rel_shdr.sh_type == SHT_RELA)
			info = gelf_getrela(reldata, (int)i, &rela) ? rela.r_info : 0;
		else
			info = gelf_getrel(reldata, (int)i, &r) ? r.r_info : 0;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym) ||
		    sym.st_name >= strs->d_size)
			continue;
		len += (size_t)sprintf(name, "%.*s@plt", (int)(strs->d_size - sym.st_name),
				       (const char *)strs->d_buf + sym.st_name) + 1;
		err = symtab_entries__add(es, addr, entsize, name, STB_GLOBAL);
	}
	return err;
}

/* <debug_dir>/.build-id/xx/yyyy.debug, when it exists and has a .symtab. */
static int symtab__open_debug_file(const struct elf_file *f, const char *debug_dir,
				   struct elf_file *dbg)
{
	char id[2 * 64 + 1], path[4096];
	GElf_Shdr shdr;
	int err;

	if (!debug_dir || !*debug_dir || !elf_file__build_id(f, id, sizeof(id)))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", debug_dir, id, id + 2);
	err = elf_file__open(dbg, path);
	if (!err && !elf_file__section(dbg, SHT_SYMTAB, &shdr)) {
		elf_file__close(dbg);
		err = -ENOENT;
	}
	return err;
}

int symtab__load_elf(struct symtab *st, const char *path, const char *debug_dir)
{
	struct elf_file f, dbg = { .elf = NULL };
	const struct elf_file *src = &f;
	struct symtab_entries es = { 0 };
	struct demangler dm;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	int err;

	*st = (struct symtab){ 0 };
	demangler__init(&dm);
	err = elf_file__open(&f, path);
	if (err) {
		pr_debug("symbols: cannot read %s as ELF (%s)\n", path, strerror(-err));
		return err;
	}
	err = symtab__read_segments(st, &f);
	if (!err && !symtab__open_debug_file(&f, debug_dir, &dbg))
		src = &dbg;
	scn = err ? NULL : elf_file__section(src, SHT_SYMTAB, &shdr);
	if (!err && !scn)
		scn = elf_file__section(src, SHT_DYNSYM, &shdr);
	if (!err && !scn)
		err = -ENOENT;
	if (!err)
		err = symtab__read_elf_symbols(st, src, scn, &shdr, &es, &dm);
	if (!err)
		err = symtab__read_plt(st, &f, &es);
	if (!err) {
		demangler__finish(&dm, st, &es);
		err = symtab__finish(st, &es);
	}
	demangler__exit(&dm);
	free(es.e);
	elf_file__close(&dbg);
	elf_file__close(&f);
	if (err) {
		pr_debug("symbols: none from %s (%s)\n", path, strerror(-err));
		symtab__exit(st);
	}
	return err;
}

/* ---- kallsyms ---- */

static bool kallsyms__keeps(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

static unsigned char kallsyms__bind(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

/* A kallsyms line's module ("[xfs]" after the name) is module; NULL: the kernel's own. */
static bool kallsyms__in_module(const char *origin, const char *module)
{
	if (!module || !origin)
		return !module && !origin;
	return !strcmp(origin, module);
}

int symtab__load_kallsyms(struct symtab *st, const char *path, const char *module)
{
	struct symtab_entries es = { 0 };
	struct addr_syms syms;
	size_t i, len = 0;
	int err;

	*st = (struct symtab){ 0 };
	err = addr_syms__load_kallsyms(&syms, path);
	if (err)
		return err;
	for (i = 0; i < syms.nr && !err; i++) {
		const struct addr_sym *s = &syms.sym[i];

		if (!kallsyms__keeps(s->type) || !kallsyms__in_module(s->origin, module))
			continue;
		err = symtab_entries__add(&es, s->value, 0, s->name, kallsyms__bind(s->type));
		len += strlen(s->name) + 1;
	}
	/* The names move to a table of their own: the file's text is freed below. */
	if (!err && !(st->strings = malloc(len ? len : 1)))
		err = -ENOMEM;
	for (i = 0, len = 0; !err && i < es.nr; i++) {
		size_t n = strlen(es.e[i].name) + 1;

		memcpy(st->strings + len, es.e[i].name, n);
		es.e[i].name = st->strings + len;
		len += n;
	}
	if (!err)
		err = symtab__finish(st, &es);
	free(es.e);
	addr_syms__exit(&syms);
	if (err)
		symtab__exit(st);
	return err;
}
