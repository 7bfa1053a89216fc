// SPDX-License-Identifier: LGPL-2.1
/*
 * Symbol lookup for address filters, the same for an ELF file and for kallsyms: perf's
 * rules for #N, the global choice and duplicates, with the candidates listed when a name
 * is ambiguous.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>

struct addr_sym *addr_syms__add(struct addr_syms *syms)
{
	struct addr_sym *sym;

	if (syms->nr == syms->alloc) {
		size_t alloc = syms->alloc ? syms->alloc * 2 : 256;

		sym = reallocarray(syms->sym, alloc, sizeof(*sym));
		if (!sym)
			return NULL;
		syms->sym = sym;
		syms->alloc = alloc;
	}
	sym = &syms->sym[syms->nr];
	*sym = (struct addr_sym){ .seq = syms->nr++ };
	return sym;
}

static int addr_sym__cmp(const void *a, const void *b)
{
	const struct addr_sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void addr_syms__sort(struct addr_syms *syms)
{
	size_t i, next = 0;

	if (syms->nr)
		qsort(syms->sym, syms->nr, sizeof(*syms->sym), addr_sym__cmp);
	for (i = 0; i < syms->nr; i++) {
		struct addr_sym *sym = &syms->sym[i];

		if (sym->size)
			continue;
		/* Aliases share an address: the size runs to the next higher one. */
		if (next <= i)
			next = i + 1;
		while (next < syms->nr && syms->sym[next].value == sym->value)
			next++;
		if (next < syms->nr)
			sym->size = syms->sym[next].value - sym->value;
	}
}

void addr_syms__exit(struct addr_syms *syms)
{
	free(syms->sym);
	free(syms->strings);
	*syms = (struct addr_syms){ 0 };
}

/* perf's rule: the same name, and global when idx is 0, the idx-th when idx > 0. */
static bool addr_sym__matches(const struct addr_sym *sym, const char *name, int idx)
{
	return sym->func && !strcmp(sym->name, name) && (idx || sym->global);
}

static void addr_syms__list(const struct addr_syms *syms, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < syms->nr; i++) {
		const struct addr_sym *sym = &syms->sym[i], *near;

		if (!addr_sym__matches(sym, name, -1))
			continue;
		pr_err("#%d\t0x%" PRIx64 "\t%c\t%s%s%s%s\n", ++n, sym->value, sym->type,
		       sym->name, sym->origin ? "\t(" : "", sym->origin ?: "",
		       sym->origin ? ")" : "");
		near = i + 1 < syms->nr ? &syms->sym[i + 1] : NULL;
		if (near && !addr_sym__matches(near, name, -1))
			pr_err("\t\twhich is near\t\t%s\n", near->name);
	}
}

static int addr_syms__ambiguous(const struct addr_syms *syms, const char *name)
{
	pr_err("Multiple %ssymbols with name '%s' in %s\n", syms->kernel ? "kernel " : "",
	       name, syms->where);
	addr_syms__list(syms, name);
	pr_err("Disambiguate symbol name by inserting #n after the name e.g. %s #2\n", name);
	pr_err("Or select a global symbol by inserting #0 or #g or #G\n");
	return -EINVAL;
}

static int addr_syms__not_found(const struct addr_syms *syms, const char *name, int idx,
				int found)
{
	if (idx > 0 && found) {
		pr_err("N'th occurrence (N=%d) of symbol '%s' not found in %s: there %s only "
		       "%d\n", idx, name, syms->where, found == 1 ? "is" : "are", found);
		addr_syms__list(syms, name);
	} else if (idx > 0) {
		pr_err("N'th occurrence (N=%d) of symbol '%s' not found in %s\n", idx, name,
		       syms->where);
	} else if (!idx) {
		pr_err("Global symbol '%s' not found in %s\n", name, syms->where);
		addr_syms__list(syms, name);
	} else {
		pr_err("Symbol '%s' not found in %s\n", name, syms->where);
	}
	pr_err("Note that symbols must be functions.\n");
	return -EINVAL;
}

int addr_syms__find(const struct addr_syms *syms, const char *name, int idx,
		    const struct addr_sym **found)
{
	const struct addr_sym *hit = NULL;
	int n = 0, all = 0;

	for (size_t i = 0; i < syms->nr; i++) {
		const struct addr_sym *sym = &syms->sym[i];

		all += addr_sym__matches(sym, name, -1);
		if (!addr_sym__matches(sym, name, idx))
			continue;
		if (++n == idx || (idx <= 0 && n == 1))
			hit = sym;
		else if (idx <= 0)
			return addr_syms__ambiguous(syms, name);
	}
	if (!hit)
		return addr_syms__not_found(syms, name, idx, all);
	*found = hit;
	return 0;
}
