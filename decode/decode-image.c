// SPDX-License-Identifier: LGPL-2.1
/* The memory image of a traced process, on libipt's image section cache. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <internal/decode-image.h>
#include <internal/lib.h>

struct auxtrace_image *auxtrace_image__new(void)
{
	struct auxtrace_image *image = calloc(1, sizeof(*image));

	if (!image)
		return libauxtrace__ptr_err(ENOMEM);
	image->iscache = pt_iscache_alloc(NULL);
	if (!image->iscache) {
		auxtrace_image__delete(image);
		return libauxtrace__ptr_err(ENOMEM);
	}
	return image;
}

void auxtrace_image__delete(struct auxtrace_image *image)
{
	if (!image)
		return;
	auxtrace_image__clear(image);
	pt_iscache_free(image->iscache);
	free(image->files);
	free(image->sections);
	free(image);
}

void auxtrace_image__clear(struct auxtrace_image *image)
{
	for (size_t i = 0; i < image->nr_files; i++)
		free(image->files[i].filename);
	image->nr_files = 0;
	image->nr_sections = 0;
	image->last_hit = 0;
	image->generation++;
}

/* The bytes of filename from pgoff on, or -errno; libipt would only say "bad file". */
static int64_t image_file__bytes_from(const char *filename, uint64_t pgoff)
{
	struct stat st;
	int fd = open(filename, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0) {
		err = -errno;
		pr_err("image: cannot open %s: %m: the mapped file must be readable where the "
		       "recording saw it\n", filename);
		return err;
	}
	if (fstat(fd, &st) < 0)
		err = -errno;
	close(fd);
	if (err)
		return err;
	if (pgoff >= (uint64_t)st.st_size) {
		pr_err("image: %s maps from offset %#llx but the file has only %lld bytes: the "
		       "file changed since the recording?\n", filename,
		       (unsigned long long)pgoff, (long long)st.st_size);
		return -EINVAL;
	}
	return (int64_t)((uint64_t)st.st_size - pgoff);
}

/* Room for need elements of size bytes in *array (doubling, from 16): 0 or -ENOMEM. */
static int array__reserve(void **array, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 16;
	void *a;

	while (n < need)
		n *= 2;
	if (n == *alloc)
		return 0;
	a = reallocarray(*array, n, size);
	if (!a)
		return -ENOMEM;
	*array = a;
	*alloc = n;
	return 0;
}

/*
 * Cut [vaddr, end) out of every section, as a new mapping hides what was there, so that at
 * most one section holds any address. Splitting one section in two needs one free slot,
 * which the caller reserved; an emptied section is dropped.
 */
static void image__punch(struct auxtrace_image *image, uint64_t vaddr, uint64_t end)
{
	size_t i, nr = image->nr_sections, kept = 0;

	for (i = 0; i < nr; i++) {
		struct auxtrace_image_section *s = &image->sections[i];
		uint64_t s_end = s->vaddr + s->size;

		if (s_end <= vaddr || s->vaddr >= end)
			continue;
		if (s->vaddr < vaddr && s_end > end)
			image->sections[image->nr_sections++] = (struct auxtrace_image_section){
				.vaddr = end, .size = s_end - end, .isid = s->isid };
		if (s->vaddr < vaddr)
			s->size = vaddr - s->vaddr;
		else if (s_end > end)
			*s = (struct auxtrace_image_section){
				.vaddr = end, .size = s_end - end, .isid = s->isid };
		else
			s->size = 0;
	}
	for (i = 0; i < image->nr_sections; i++)
		if (image->sections[i].size)
			image->sections[kept++] = image->sections[i];
	image->nr_sections = kept;
	image->last_hit = 0;
}

int auxtrace_image__add_file(struct auxtrace_image *image, const char *filename,
			     uint64_t pgoff, uint64_t size, uint64_t vaddr)
{
	struct auxtrace_image_section *s;
	char *name;
	int64_t avail;
	int isid;

	if (!image || !filename)
		return libauxtrace__err(-EINVAL);
	if (!size || vaddr + size < vaddr) {
		pr_err("image: %s at %#llx: a mapping of %#llx bytes is empty or wraps the "
		       "address space\n", filename, (unsigned long long)vaddr,
		       (unsigned long long)size);
		return libauxtrace__err(-EINVAL);
	}
	avail = image_file__bytes_from(filename, pgoff);
	if (avail < 0)
		return libauxtrace__err((int)avail);
	/* the new section and one split; the file for decoders' own images */
	if (array__reserve((void **)&image->sections, &image->alloc_sections,
			   image->nr_sections + 2, sizeof(*image->sections)) ||
	    array__reserve((void **)&image->files, &image->alloc_files, image->nr_files + 1,
			   sizeof(*image->files)) ||
	    !(name = strdup(filename)))
		return libauxtrace__err(-ENOMEM);
	isid = pt_iscache_add_file(image->iscache, filename, pgoff, size, vaddr);
	if (isid < 0) {
		free(name);
		pr_err("image: libipt cannot map %s at %#llx: %s\n", filename,
		       (unsigned long long)vaddr, pt_errstr(pt_errcode(isid)));
		return libauxtrace__err(isid == -pte_nomem ? -ENOMEM : -EINVAL);
	}
	image->files[image->nr_files++] = (struct auxtrace_image_file){
		.filename = name, .pgoff = pgoff, .size = size, .vaddr = vaddr };
	size = size < (uint64_t)avail ? size : (uint64_t)avail;
	image__punch(image, vaddr, vaddr + size);
	s = &image->sections[image->nr_sections++];
	s->vaddr = vaddr;
	s->size = size;
	s->isid = isid;
	image->generation++;
	return 0;
}

int auxtrace_image__rebuild(const struct auxtrace_image *image, struct pt_image *pt_image,
			    struct pt_image_section_cache *iscache)
{
	/* The cache keeps what was added before: adding it again finds it, opening nothing. */
	for (size_t i = 0; i < image->nr_files; i++) {
		const struct auxtrace_image_file *f = &image->files[i];
		int isid = pt_iscache_add_file(iscache, f->filename, f->pgoff, f->size, f->vaddr);
		int err = isid < 0 ? isid : pt_image_add_cached(pt_image, iscache, isid, NULL);

		if (err == -pte_nomem)
			return err;
		/* A file gone or changed since it was added: decode on without it. */
		if (err < 0)
			pr_debug("image: %s left out of a decoder's image: %s\n", f->filename,
				 pt_errstr(pt_errcode(err)));
	}
	return 0;
}

static bool image_section__holds(const struct auxtrace_image_section *s, uint64_t vaddr)
{
	return vaddr >= s->vaddr && vaddr - s->vaddr < s->size;
}

ssize_t auxtrace_image__read(struct auxtrace_image *image, uint64_t vaddr, void *buf,
			     size_t size)
{
	return image ? auxtrace_image__read_hint(image, vaddr, buf, size, &image->last_hit)
		     : libauxtrace__err(-EINVAL);
}

ssize_t auxtrace_image__read_hint(const struct auxtrace_image *image, uint64_t vaddr, void *buf,
				  size_t size, size_t *hint)
{
	size_t i;
	int n;

	if (!image || !buf || !size)
		return libauxtrace__err(-EINVAL);
	/* Sections do not overlap, and reads come in runs from one section. */
	i = *hint;
	if (i >= image->nr_sections || !image_section__holds(&image->sections[i], vaddr)) {
		for (i = 0; i < image->nr_sections; i++)
			if (image_section__holds(&image->sections[i], vaddr))
				break;
		if (i == image->nr_sections)
			return libauxtrace__err(-ENOENT);
		*hint = i;
	}
	if (size > image->sections[i].vaddr + image->sections[i].size - vaddr)
		size = image->sections[i].vaddr + image->sections[i].size - vaddr;
	n = pt_iscache_read(image->iscache, buf, size, image->sections[i].isid, vaddr);
	return n > 0 ? n : libauxtrace__err(-ENOENT);
}
