// SPDX-License-Identifier: LGPL-2.1
/*
 * The function symbols of one ELF file for address filters, with the file offsets the
 * kernel matches a file-backed filter against: it compares a filter with the mapping's file
 * offset (vm_pgoff), so an address becomes p_offset + (value - p_vaddr) of the PT_LOAD
 * segment holding it, whatever the file type or the load address.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/addr-filter.h>
#include <internal/lib.h>

static char addr_sym__elf_type(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
		return 'g';
	case STB_LOCAL:
		return 'l';
	case STB_WEAK:
		return 'w';
	default:
		return 'u';
	}
}

/* .symtab, or .dynsym when the file was stripped; NULL when neither exists. */
static Elf_Scn *addr_syms__elf_symtab(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr dyn_shdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		if (shdr->sh_type == SHT_SYMTAB)
			return scn;
		if (shdr->sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dyn_shdr = *shdr;
		}
	}
	if (dynsym)
		*shdr = dyn_shdr;
	return dynsym;
}

/* Give each symbol its file offset through the PT_LOAD segment that holds it. */
static int addr_syms__elf_map(struct addr_syms *syms, Elf *elf)
{
	size_t nr_phdrs, i, j;
	GElf_Phdr phdr;

	if (elf_getphdrnum(elf, &nr_phdrs))
		return -EINVAL;
	for (i = 0; i < nr_phdrs; i++) {
		if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_LOAD)
			continue;
		for (j = 0; j < syms->nr; j++) {
			struct addr_sym *sym = &syms->sym[j];

			if (sym->mapped || sym->value < phdr.p_vaddr ||
			    sym->value - phdr.p_vaddr >= phdr.p_filesz)
				continue;
			sym->start = sym->value - phdr.p_vaddr + phdr.p_offset;
			sym->mapped = true;
		}
	}
	return 0;
}

/* Copy the string table, so names outlive the Elf handle; NUL-terminated whatever it holds. */
static int addr_syms__elf_strings(struct addr_syms *syms, Elf *elf, size_t strndx,
				  size_t *len)
{
	Elf_Data *data = NULL;
	Elf_Scn *scn = elf_getscn(elf, strndx);

	if (scn)
		data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf || !data->d_size)
		return -EINVAL;
	syms->strings = malloc(data->d_size + 1);
	if (!syms->strings)
		return -ENOMEM;
	memcpy(syms->strings, data->d_buf, data->d_size);
	syms->strings[data->d_size] = '\0';
	*len = data->d_size;
	return 0;
}

static int addr_syms__elf_read(struct addr_syms *syms, Elf *elf)
{
	const char *origin = NULL;
	Elf_Data *data;
	GElf_Shdr shdr;
	GElf_Sym esym;
	Elf_Scn *scn;
	size_t strlen_, nr, i;
	int err;

	scn = addr_syms__elf_symtab(elf, &shdr);
	if (!scn) {
		pr_err("%s has no symbol table (.symtab or .dynsym): it was stripped; give "
		       "addresses (offsets in the file) instead of symbols, or use a copy with "
		       "symbols\n", syms->where);
		return -EINVAL;
	}
	data = elf_getdata(scn, NULL);
	err = addr_syms__elf_strings(syms, elf, shdr.sh_link, &strlen_);
	if (!data || !shdr.sh_entsize || err) {
		pr_err("%s: its symbol table is malformed\n", syms->where);
		return err == -ENOMEM ? err : -EINVAL;
	}
	nr = shdr.sh_size / shdr.sh_entsize;
	for (i = 0; i < nr && gelf_getsym(data, (int)i, &esym); i++) {
		unsigned char type = GELF_ST_TYPE(esym.st_info), bind = GELF_ST_BIND(esym.st_info);
		const char *name = esym.st_name < strlen_ ? syms->strings + esym.st_name : "";
		struct addr_sym *sym;

		/* In .symtab a FILE symbol names the source of the local symbols after it. */
		if (type == STT_FILE)
			origin = *name ? name : NULL;
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || esym.st_shndx == SHN_UNDEF ||
		    !*name)
			continue;
		sym = addr_syms__add(syms);
		if (!sym)
			return -ENOMEM;
		sym->name = name;
		sym->origin = bind == STB_LOCAL ? origin : NULL;
		sym->value = esym.st_value;
		sym->size = esym.st_size;
		sym->type = addr_sym__elf_type(bind);
		sym->global = bind == STB_GLOBAL;
		sym->func = true;
	}
	addr_syms__sort(syms);
	return addr_syms__elf_map(syms, elf);
}

int addr_syms__load_elf(struct addr_syms *syms, const char *path)
{
	Elf *elf = NULL;
	int fd, err;

	*syms = (struct addr_syms){ .where = path };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		pr_err("Cannot open %s for its symbols: %s\n", path, strerror(-err));
		return err;
	}
	if (elf_version(EV_CURRENT) != EV_NONE)
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		pr_err("%s is not an ELF file (%s): symbols need an ELF executable or shared "
		       "object\n", path, elf_errmsg(-1) ?: "no ELF header");
		err = -EINVAL;
	} else {
		err = addr_syms__elf_read(syms, elf);
	}
	elf_end(elf);
	close(fd);
	if (err)
		addr_syms__exit(syms);
	return err;
}
