// SPDX-License-Identifier: LGPL-2.1
/* The AUXTRACE index: chunks, the HEADER_AUXTRACE section on disk, foreign byte order. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <auxtrace/auxtrace-index.h>

#include "lib/testlib.h"
#include "lib/log-capture.h"

/* Entries that differ in both words and in every byte position that a swap would move. */
static uint64_t offset_of(size_t i)
{
	return 0x0102030405060000ULL + i * 64;
}

static uint64_t size_of(size_t i)
{
	return 48 + (i % 3) * 0x100000000ULL;
}

static struct auxtrace_index *index_of(size_t nr)
{
	struct auxtrace_index *index = auxtrace_index__new();
	size_t i;

	ck_assert_ptr_nonnull(index);
	for (i = 0; i < nr; i++)
		ck_assert_int_eq(auxtrace_index__add(index, offset_of(i), size_of(i)), 0);
	return index;
}

static void assert_entries(const struct auxtrace_index *index, size_t first, size_t nr)
{
	size_t i;

	ck_assert_uint_eq(auxtrace_index__nr(index), first + nr);
	for (i = 0; i < nr; i++) {
		const struct auxtrace_index_entry *e = auxtrace_index__entry(index, first + i);

		ck_assert_ptr_nonnull(e);
		ck_assert_msg(e->file_offset == offset_of(i) && e->sz == size_of(i),
			      "entry %zu: %#llx %#llx", first + i,
			      (unsigned long long)e->file_offset, (unsigned long long)e->sz);
	}
	ck_assert_ptr_null(auxtrace_index__entry(index, first + nr));
}

static int memfile(void)
{
	int fd = memfd_create("auxtrace-index", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	return fd;
}

START_TEST(test_add_in_chunks)
{
	struct auxtrace_index *index = index_of(1000);
	const struct auxtrace_index_entry *first = auxtrace_index__entry(index, 0);
	const struct auxtrace_index_entry *e255 = auxtrace_index__entry(index, 255);

	assert_entries(index, 0, 1000);
	ck_assert_uint_eq(auxtrace_index__section_size(index), 8 + 1000 * 16);
	/* Chunks never move: entries handed out before stay valid. */
	ck_assert_int_eq(auxtrace_index__add(index, 1, 2), 0);
	ck_assert_ptr_eq(auxtrace_index__entry(index, 0), first);
	ck_assert_ptr_eq(auxtrace_index__entry(index, 255), e255);
	ck_assert_ptr_eq(auxtrace_index__entry(index, 1), first + 1);
	ck_assert_ptr_ne(auxtrace_index__entry(index, 256), e255 + 1);	/* next chunk */
	auxtrace_index__delete(index);
	auxtrace_index__delete(NULL);
}
END_TEST

START_TEST(test_write_layout_and_round_trip)
{
	static const size_t sizes[] = { 0, 1, 255, 256, 257, 600 };
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t nr = sizes[k], i;
		struct auxtrace_index *index = index_of(nr), *back = auxtrace_index__new();
		uint64_t section = auxtrace_index__section_size(index);
		uint64_t *raw = malloc(section);
		int fd = memfile();

		/* Something before the section: the write starts at the current offset. */
		ck_assert_int_eq(write(fd, "hdr", 3), 3);
		ck_assert_int_eq(auxtrace_index__write(index, fd), 0);
		ck_assert_int_eq(lseek(fd, 0, SEEK_END), 3 + (off_t)section);

		ck_assert_int_eq(pread(fd, raw, section, 3), (ssize_t)section);
		ck_assert_uint_eq(raw[0], nr);
		for (i = 0; i < nr; i++)
			ck_assert(raw[1 + 2 * i] == offset_of(i) && raw[2 + 2 * i] == size_of(i));

		ck_assert_int_eq(lseek(fd, 3, SEEK_SET), 3);
		ck_assert_int_eq(auxtrace_index__read(back, fd, section, false), 0);
		assert_entries(back, 0, nr);
		ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 3 + (off_t)section);
		free(raw);
		close(fd);
		auxtrace_index__delete(index);
		auxtrace_index__delete(back);
	}
}
END_TEST

/* A file written on a machine of the other byte order. */
START_TEST(test_read_byte_swapped)
{
	const size_t nr = 300;
	uint64_t *raw = malloc((1 + 2 * nr) * 8);
	struct auxtrace_index *index = auxtrace_index__new();
	int fd = memfile();
	size_t i;

	raw[0] = __builtin_bswap64(nr);
	for (i = 0; i < nr; i++) {
		raw[1 + 2 * i] = __builtin_bswap64(offset_of(i));
		raw[2 + 2 * i] = __builtin_bswap64(size_of(i));
	}
	ck_assert_int_eq(write(fd, raw, (1 + 2 * nr) * 8), (ssize_t)((1 + 2 * nr) * 8));
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(auxtrace_index__read(index, fd, (1 + 2 * nr) * 8, true), 0);
	assert_entries(index, 0, nr);

	/* The same bytes read as native: nr is absurd for the section and is refused. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	log_capture_start();
	ck_assert_int_eq(auxtrace_index__read(index, fd, (1 + 2 * nr) * 8, false), -EINVAL);
	log_capture_stop();
	ck_assert_msg(log_captured("do not fit its 4808-byte section"), "%s", log_text);
	ck_assert_uint_eq(auxtrace_index__nr(index), nr);
	free(raw);
	close(fd);
	auxtrace_index__delete(index);
}
END_TEST

START_TEST(test_read_appends)
{
	struct auxtrace_index *index = index_of(10), *more = index_of(20);
	int fd = memfile();

	ck_assert_int_eq(auxtrace_index__write(more, fd), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(auxtrace_index__read(index, fd, auxtrace_index__section_size(more),
					      false), 0);
	assert_entries(index, 10, 20);
	close(fd);
	auxtrace_index__delete(index);
	auxtrace_index__delete(more);
}
END_TEST

/* Damaged sections: rejected with the cause, and nothing half-appended. */
START_TEST(test_read_rejects_damage)
{
	const struct {
		uint64_t nr;
		size_t entries_written;
		uint64_t section;
		int err;
		const char *says;
	} cases[] = {
		{ 3, 3, 8 + 3 * 16, 0, NULL },
		{ 3, 3, 8 + 3 * 16 + 5, 0, NULL },	/* room to spare is fine */
		{ 3, 2, 8 + 3 * 16, -EINVAL, "the file ends inside its 56-byte section" },
		{ 3, 3, 8 + 2 * 16, -EINVAL, "3 entries do not fit its 40-byte section" },
		{ 3, 3, 8 + 3 * 16 - 1, -EINVAL, "do not fit" },
		{ 0, 0, 4, -EINVAL, "section of 4 bytes cannot hold its entry count" },
		{ 1ULL << 50, 1, 1ULL << 62, -EINVAL, "the file ends inside" },
		{ UINT64_MAX, 0, UINT64_MAX, -EINVAL, "do not fit" },
	};
	size_t i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct auxtrace_index *index = index_of(2);
		int fd = memfile();
		int err;

		ck_assert_int_eq(write(fd, &cases[i].nr, 8), 8);
		for (j = 0; j < cases[i].entries_written; j++) {
			uint64_t e[2] = { offset_of(j), size_of(j) };

			ck_assert_int_eq(write(fd, e, 16), 16);
		}
		ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
		log_capture_start();
		err = auxtrace_index__read(index, fd, cases[i].section, false);
		log_capture_stop();
		ck_assert_msg(err == cases[i].err, "case %zu: %d", i, err);
		if (err) {
			ck_assert_int_eq(errno, -err);
			ck_assert_msg(log_captured(cases[i].says), "case %zu: %s", i, log_text);
			assert_entries(index, 0, 2);
		} else {
			ck_assert_uint_eq(auxtrace_index__nr(index), 5);
		}
		close(fd);
		auxtrace_index__delete(index);
	}
}
END_TEST

START_TEST(test_write_errors)
{
	struct auxtrace_index *index = index_of(4);
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(auxtrace_index__write(index, fd), -EBADF);
	ck_assert_int_eq(errno, EBADF);
	close(fd);
	ck_assert_int_eq(auxtrace_index__read(index, -1, 100, false), -EBADF);
	assert_entries(index, 0, 4);
	auxtrace_index__delete(index);
}
END_TEST

/* A pipe takes the section in pieces: every byte still arrives once, in order. */
START_TEST(test_write_to_pipe_in_pieces)
{
	const size_t nr = 20000;	/* 320 KiB: more than a pipe holds at once */
	struct auxtrace_index *index = index_of(nr), *back = auxtrace_index__new();
	int p[2];
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		_exit(auxtrace_index__write(index, p[1]) ? 1 : 0);
	}
	close(p[1]);
	ck_assert_int_eq(auxtrace_index__read(back, p[0], auxtrace_index__section_size(index),
					      false), 0);
	assert_entries(back, 0, nr);
	close(p[0]);
	auxtrace_index__delete(index);
	auxtrace_index__delete(back);
}
END_TEST

/*
 * A NULL index reads as an empty one (as a NULL cpu map does) and is refused, not crashed
 * on, by what would change it.
 */
START_TEST(test_null_index)
{
	struct auxtrace_index *empty = index_of(0);
	uint64_t raw[2] = { 0, 0 };
	int fd = memfile();

	ck_assert_uint_eq(auxtrace_index__nr(NULL), 0);
	ck_assert_ptr_null(auxtrace_index__entry(NULL, 0));
	ck_assert_uint_eq(auxtrace_index__section_size(NULL),
			  auxtrace_index__section_size(empty));
	ck_assert_int_eq(auxtrace_index__write(NULL, fd), 0);
	ck_assert_int_eq(auxtrace_index__write(empty, fd), 0);
	ck_assert_int_eq(pread(fd, raw, sizeof(raw), 0), (ssize_t)sizeof(raw));
	ck_assert_uint_eq(raw[0], raw[1]);	/* both the count 0, and nothing else */
	ck_assert_int_eq(lseek(fd, 0, SEEK_END), (off_t)sizeof(raw));

	errno = 0;
	ck_assert_int_eq(auxtrace_index__add(NULL, 0, 48), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(auxtrace_index__read(NULL, fd, sizeof(raw[0]), false), -EINVAL);
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);	/* refused before reading */
	auxtrace_index__delete(NULL);
	close(fd);
	auxtrace_index__delete(empty);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("auxtrace-index");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, test_add_in_chunks);
	tcase_add_test(tc, test_write_layout_and_round_trip);
	tcase_add_test(tc, test_read_byte_swapped);
	tcase_add_test(tc, test_read_appends);
	tcase_add_test(tc, test_read_rejects_damage);
	tcase_add_test(tc, test_write_errors);
	tcase_add_test(tc, test_write_to_pipe_in_pieces);
	tcase_add_test(tc, test_null_index);
	suite_add_tcase(s, tc);
	return testlib_run(s);
}
