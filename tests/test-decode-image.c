// SPDX-License-Identifier: LGPL-2.1
/* The decoders' process image: files mapped as MMAP2 records say, overlaps, bad mappings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <auxtrace/decode.h>
#include <internal/decode-image.h>

#include "lib/testlib.h"
#include "lib/asm-elf.h"
#include "lib/log-capture.h"

#define BASE 0x7f1234500000ULL

START_TEST(test_image_bad_mappings)
{
	struct auxtrace_image *image = auxtrace_image__new();
	uint8_t buf[16];
	struct asm_elf elf;

	ck_assert_ptr_nonnull(image);
	log_capture_start();
	errno = 0;
	ck_assert_int_eq(auxtrace_image__add_file(image, "/nonexistent/lib.so", 0, 4096, BASE),
			 -ENOENT);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_msg(log_captured("/nonexistent/lib.so"), "log: %s", log_text);
	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, 1 << 30, 4096, BASE), -EINVAL);
	ck_assert_msg(log_captured("file changed since the recording"), "log: %s", log_text);
	ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, 0, 0, BASE), -EINVAL);
	ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, 0, 4096, ~0ULL - 10), -EINVAL);
	ck_assert_msg(log_captured("wraps"), "log: %s", log_text);
	log_capture_stop();
	errno = 0;
	ck_assert_int_eq(auxtrace_image__read(image, BASE, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(errno, ENOENT);
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

/* A later mapping hides what it covers, as mmap does; what is left around it stays. */
START_TEST(test_image_newer_mapping_wins)
{
	struct auxtrace_image *image = auxtrace_image__new();
	uint8_t text[64], got[64];
	struct asm_elf elf;

	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	ck_assert_int_eq(asm_elf__map(&elf, image), 0);
	ck_assert_int_eq(auxtrace_image__read(image, elf.start, text, sizeof(text)), 64);
	ck_assert_int_ne(memcmp(text, "\x7f" "ELF", 4), 0);
	/* the ELF header, 8 bytes of it, in the middle of the code */
	ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, 0, 8, elf.start + 8), 0);
	ck_assert_int_eq(auxtrace_image__read(image, elf.start + 8, got, 16), 8);
	ck_assert_int_eq(memcmp(got, "\x7f" "ELF", 4), 0);
	/* before it: the code, up to where the header starts */
	ck_assert_int_eq(auxtrace_image__read(image, elf.start, got, 64), 8);
	ck_assert_int_eq(memcmp(got, text, 8), 0);
	/* after it: the code again */
	ck_assert_int_eq(auxtrace_image__read(image, elf.start + 16, got, 8), 8);
	ck_assert_int_eq(memcmp(got, text + 16, 8), 0);
	/* the whole code mapped again hides the header */
	ck_assert_int_eq(asm_elf__map(&elf, image), 0);
	ck_assert_int_eq(auxtrace_image__read(image, elf.start, got, 64), 64);
	ck_assert_int_eq(memcmp(got, text, 64), 0);
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

/*
 * A worker's image, rebuilt on a section cache of its own from the image's mappings: a file
 * gone since it was added is left out (the rest still decodes), as a copy would leave it.
 */
START_TEST(test_image_rebuild_own_cache)
{
	struct auxtrace_image *image = auxtrace_image__new();
	struct pt_image_section_cache *own = pt_iscache_alloc(NULL);
	struct pt_image *rebuilt = pt_image_alloc(NULL);
	char gone[PATH_MAX + 8], cmd[2 * PATH_MAX + 16];
	uint8_t got[8];
	struct asm_elf elf;
	int isid;

	ck_assert_ptr_nonnull(own);
	ck_assert_ptr_nonnull(rebuilt);
	if (asm_elf__build(&elf, asm_elf_sample, BASE))
		TEST_SKIP("gcc cannot build the test code");
	snprintf(gone, sizeof(gone), "%s.gone", elf.path);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", elf.path, gone);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(auxtrace_image__add_file(image, gone, 0, 4096, BASE + (1 << 20)), 0);
	ck_assert_int_eq(auxtrace_image__add_file(image, elf.path, 0, 8, BASE), 0);
	ck_assert_int_eq(unlink(gone), 0);
	ck_assert_int_lt(pt_iscache_add_file(own, gone, 0, 4096, BASE + (1 << 20)), 0);
	ck_assert_int_eq(auxtrace_image__rebuild(image, rebuilt, own), 0);
	/* the file still there is in the caller's cache, its bytes at its address */
	isid = pt_iscache_add_file(own, elf.path, 0, 8, BASE);
	ck_assert_int_gt(isid, 0);
	ck_assert_int_eq(pt_iscache_read(own, got, sizeof(got), isid, BASE), 8);
	ck_assert_int_eq(memcmp(got, "\x7f" "ELF", 4), 0);
	pt_image_free(rebuilt);
	pt_iscache_free(own);
	asm_elf__remove(&elf);
	auxtrace_image__delete(image);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decode-image");
	TCase *tc = tcase_create("image");

	tcase_add_test(tc, test_image_bad_mappings);
	tcase_add_test(tc, test_image_newer_mapping_wins);
	tcase_add_test(tc, test_image_rebuild_own_cache);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
