/* SPDX-License-Identifier: LGPL-2.1 */
/* What auxtrace-mmap-params.c offers the AUX mmap beyond the public params API. Not installed. */
#ifndef AUXTRACE_INTERNAL_AUXTRACE_MMAP_PARAMS_H
#define AUXTRACE_INTERNAL_AUXTRACE_MMAP_PARAMS_H

#include <sys/types.h>
#include <auxtrace/auxtrace.h>

/*
 * The tid the PERF_RECORD_AUXTRACE records of mp's idx carry: mp->tid, except first_tid on
 * a CPU's ring shared by several threads (tid 0).
 */
pid_t auxtrace_mmap_params__record_tid(const struct auxtrace_mmap_params *mp);

#endif
