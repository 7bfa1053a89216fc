/* SPDX-License-Identifier: LGPL-2.1 */
/* The reference count both map kinds share: maps may be passed between threads. */
#ifndef AUXTRACE_CPUMAP_REFCOUNT_H
#define AUXTRACE_CPUMAP_REFCOUNT_H

#include <stdbool.h>

static inline void refcount__get(int *refcnt)
{
	__atomic_add_fetch(refcnt, 1, __ATOMIC_RELAXED);
}

/* True when this was the last reference: the caller frees. */
static inline bool refcount__put(int *refcnt)
{
	return __atomic_sub_fetch(refcnt, 1, __ATOMIC_ACQ_REL) == 0;
}

#endif
