/* SPDX-License-Identifier: LGPL-2.1 */
/* Which PMUs have an AUX recording backend, by name (auxtrace-record.h includes it). */
#ifndef AUXTRACE_AUXTRACE_PMU_H
#define AUXTRACE_AUXTRACE_PMU_H

#include <stdbool.h>
#include <auxtrace/core.h>
#include <auxtrace/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PMUs with a recording backend here: "intel_pt", "intel_bts", "cs_etm" and the Arm SPE
 * instances "arm_spe_<n>". __type gives the AUXTRACE_INFO type for the name
 * (PERF_AUXTRACE_UNKNOWN when it has no backend).
 */
/* auxtrace_pmu__is_aux_capable() returns whether PMU name has a recording backend here. */
AUXTRACE_API bool auxtrace_pmu__is_aux_capable(const char *name);
/*
 * auxtrace_pmu__auxtrace_type() returns the AUXTRACE_INFO type for PMU name,
 * PERF_AUXTRACE_UNKNOWN when it has no backend.
 */
AUXTRACE_API enum auxtrace_type auxtrace_pmu__auxtrace_type(const char *name);

#ifdef __cplusplus
}
#endif
#endif
