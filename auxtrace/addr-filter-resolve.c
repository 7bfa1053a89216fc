// SPDX-License-Identifier: LGPL-2.1
/*
 * Symbols of address filters into addresses and sizes: perf's rules, against a file's ELF
 * symbols (as file offsets) or the kernel's kallsyms.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <auxtrace/addr-filter.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>

static bool addr_filter__is_all(const struct addr_filter *filt)
{
	return filt->sym_from && !strcmp(filt->sym_from, "*");
}

/* "*" with a file: the whole file, offset 0 to its size. */
static int addr_filter__entire_file(struct addr_filter *filt)
{
	struct stat st;

	if (stat(filt->filename, &st)) {
		int err = -errno;

		pr_err("Cannot determine the size of %s for '*': %s\n", filt->filename,
		       strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		pr_err("%s is not a regular file with data: '*' filters a whole file\n",
		       filt->filename);
		return -EINVAL;
	}
	filt->addr = 0;
	filt->size = (uint64_t)st.st_size;
	return 0;
}

/*
 * "*" without a file: the kernel, from its first function to a page past the page of its
 * last one (where the kernel's text really ends, kallsyms does not say).
 */
static int addr_filter__entire_kernel(struct addr_filter *filt, const struct addr_syms *syms)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start = 0, end = 0;
	bool any = false;

	for (size_t i = 0; i < syms->nr; i++) {
		const struct addr_sym *sym = &syms->sym[i];
		uint64_t sym_end = ((sym->start + page - 1) & ~(page - 1)) + page;

		if (!sym->func)
			continue;
		if (!any)
			start = sym->start;
		any = true;
		if (sym_end > end)
			end = sym_end;
	}
	if (!any) {
		pr_err("%s has no kernel functions for '*'\n", syms->where);
		return -EINVAL;
	}
	filt->addr = start;
	filt->size = end - start;
	return 0;
}

static int addr_filter__resolve_with(struct addr_filter *filt, const struct addr_syms *syms)
{
	const struct addr_sym *from = NULL, *to = NULL, *sized = NULL;
	int err;

	if (addr_filter__is_all(filt))
		return addr_filter__entire_kernel(filt, syms);
	if (filt->sym_from) {
		err = addr_syms__find(syms, filt->sym_from, filt->sym_from_idx, &from);
		if (err)
			return err;
		if (filt->range && !filt->size && !filt->sym_to)
			sized = from;
	}
	if (filt->sym_to) {
		err = addr_syms__find(syms, filt->sym_to, filt->sym_to_idx, &to);
		if (err)
			return err;
		sized = to;
	}
	if ((from && !from->mapped) || (to && !to->mapped)) {
		from = from && !from->mapped ? from : to;
		pr_err("Symbol '%s' (0x%" PRIx64 ") lies in no loadable segment of %s: the "
		       "kernel cannot filter it\n", from->name, from->value, syms->where);
		return -EINVAL;
	}
	if (from)
		filt->addr = from->start;
	if (sized && !sized->size) {
		pr_err("Cannot determine size of symbol '%s': it has none in %s and no symbol "
		       "follows it; give a size, e.g. %s / 64\n", sized->name, syms->where,
		       sized->name);
		return -EINVAL;
	}
	if (to && to->start + to->size < filt->addr) {
		if (filt->sym_from)
			pr_err("Symbol '%s' (0x%" PRIx64 ") comes before '%s' (0x%" PRIx64 ")\n",
			       to->name, to->start, filt->sym_from, filt->addr);
		else
			pr_err("Symbol '%s' (0x%" PRIx64 ") comes before address 0x%" PRIx64 "\n",
			       to->name, to->start, filt->addr);
		return -EINVAL;
	}
	if (to)
		filt->size = to->start + to->size - filt->addr;
	else if (sized)
		filt->size = sized->size;
	return 0;
}

static int addr_filter__resolve(struct addr_filter *filt, struct addr_syms *kernel,
				const char *kallsyms)
{
	struct addr_syms file;
	int err;

	if (filt->resolved)
		return 0;
	if (filt->filename && addr_filter__is_all(filt))
		return addr_filter__entire_file(filt);
	if (filt->filename) {
		err = addr_syms__load_elf(&file, filt->filename);
		if (err)
			return err;
		err = addr_filter__resolve_with(filt, &file);
		addr_syms__exit(&file);
		return err;
	}
	/* One read of kallsyms serves every kernel filter of the list. */
	if (!kernel->nr) {
		err = addr_syms__load_kallsyms(kernel, kallsyms);
		if (err)
			return err;
	}
	return addr_filter__resolve_with(filt, kernel);
}

int addr_filters__resolve(struct addr_filters *filts, const char *kallsyms)
{
	struct addr_syms kernel = { 0 };
	struct addr_filter *filt;
	int n = 0, err = 0;

	addr_filters__for_each_entry(filts, filt) {
		n++;
		err = addr_filter__resolve(filt, &kernel, kallsyms ?: "/proc/kallsyms");
		if (err) {
			pr_err("Failed to resolve address filter %d (at byte %zu of the filter "
			       "string)\n", n, filt->pos);
			break;
		}
		filt->resolved = true;
	}
	addr_syms__exit(&kernel);
	return libauxtrace__err(err);
}
