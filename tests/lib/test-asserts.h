/* SPDX-License-Identifier: LGPL-2.1 */
/* Assertions for the library's error convention (NULL or -errno, and errno set). */
#ifndef TESTLIB_TEST_ASSERTS_H
#define TESTLIB_TEST_ASSERTS_H

#include <check.h>
#include <errno.h>

/* expr must fail: NULL with errno err. */
#define assert_null_errno(expr, err)			\
	do {						\
		errno = 0;				\
		ck_assert_ptr_null(expr);		\
		ck_assert_int_eq(errno, err);		\
	} while (0)

#endif
