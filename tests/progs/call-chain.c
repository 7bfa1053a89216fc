// SPDX-License-Identifier: LGPL-2.1
/*
 * A known call chain for the callchain tests: main -> outer -> middle -> inner -> leaf, and
 * leaf burns the CPU for the number of loops given (default 3e8). Built by the tests with
 * and without frame pointers; noinline keeps every level a frame of its own.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

/* the increments after each call keep them calls, not jumps */
__attribute__((noinline)) static void inner(unsigned long n) { leaf(n); sink++; }
__attribute__((noinline)) static void middle(unsigned long n) { inner(n); sink++; }
__attribute__((noinline)) static void outer(unsigned long n) { middle(n); sink++; }

int main(int argc, char **argv)
{
	outer(argc > 1 ? strtoul(argv[1], NULL, 0) : 300000000ul);
	return 0;
}
