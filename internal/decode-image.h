/* SPDX-License-Identifier: LGPL-2.1 */
/* struct auxtrace_image inside: what the Intel PT decoder needs to make its own copy. */
#ifndef AUXTRACE_INTERNAL_DECODE_IMAGE_H
#define AUXTRACE_INTERNAL_DECODE_IMAGE_H

#include <intel-pt.h>
#include <auxtrace/decode.h>

struct auxtrace_image_section {
	uint64_t vaddr;
	uint64_t size;		/* cut to what the file holds */
	int isid;		/* libipt's id of the section in the cache */
};

/* A mapping as it was added, for decoders to add it again to an image of their own. */
struct auxtrace_image_file {
	char *filename;
	uint64_t pgoff, size, vaddr;
};

struct auxtrace_image {
	struct pt_image_section_cache *iscache;
	struct auxtrace_image_file *files;	/* every mapping since the last clear, in order */
	size_t nr_files, alloc_files;
	struct auxtrace_image_section *sections;	/* in the order added */
	size_t nr_sections;
	size_t alloc_sections;
	size_t last_hit;	/* reads come in runs from one section */
	uint64_t generation;	/* bumped by every change: copies older than it are stale */
};

/*
 * auxtrace_image__read with the caller's guess of the section (*hint, updated): decoders on
 * several threads read one image, each with a hint of its own (auxtrace_image__read uses
 * the image's).
 */
ssize_t auxtrace_image__read_hint(const struct auxtrace_image *image, uint64_t vaddr, void *buf,
				  size_t size, size_t *hint);

/*
 * auxtrace_image__rebuild() adds image's mappings, in order, to pt_image (empty) on sections
 * of iscache: image->iscache for decoders on the caller's thread, a cache of its own for a
 * decoder on another thread, so that decoders on different threads share no libipt section
 * (a section's lock, taken about every other block, and its block cache bounced between the
 * CPUs). A file libipt cannot open again is left out, as a copy of the image
 * would leave it out. 0 or -pte_nomem.
 */
int auxtrace_image__rebuild(const struct auxtrace_image *image, struct pt_image *pt_image,
			    struct pt_image_section_cache *iscache);

/* Drop every mapping, keeping the object (and its generation going up): the one a process
 * has for its life, refilled when its mappings change. */
void auxtrace_image__clear(struct auxtrace_image *image);

#endif
