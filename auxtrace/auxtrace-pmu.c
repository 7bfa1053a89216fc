// SPDX-License-Identifier: LGPL-2.1
/*
 * Which PMUs have an AUX recording backend, by name, and the AUXTRACE_INFO type of each: a
 * table of names only, so that what asks (the AUX mmaps' messages, a tool) needs none of
 * the backends that auxtrace-record.c picks from it.
 */
#include <string.h>

#include <auxtrace/auxtrace-pmu.h>
#include <internal/lib.h>

static const struct auxtrace_pmu_kind {
	const char *name;
	bool numbered;		/* one PMU per instance: "arm_spe_0", "arm_spe_1" */
	enum auxtrace_type type;
} auxtrace_pmu_kinds[] = {
	{ "intel_pt",  false, PERF_AUXTRACE_INTEL_PT },
	{ "intel_bts", false, PERF_AUXTRACE_INTEL_BTS },
	{ "arm_spe",   true,  PERF_AUXTRACE_ARM_SPE },
	{ "cs_etm",    false, PERF_AUXTRACE_CS_ETM },
};

static bool auxtrace_pmu_kind__match(const struct auxtrace_pmu_kind *kind, const char *name)
{
	size_t len = strlen(kind->name);
	const char *p;

	if (strncmp(name, kind->name, len))
		return false;
	if (!kind->numbered)
		return name[len] == '\0';
	/* "arm_spe_<digits>" */
	if (name[len] != '_' || !name[len + 1])
		return false;
	for (p = name + len + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
	}
	return true;
}

enum auxtrace_type auxtrace_pmu__auxtrace_type(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(auxtrace_pmu_kinds); i++) {
		if (auxtrace_pmu_kind__match(&auxtrace_pmu_kinds[i], name))
			return auxtrace_pmu_kinds[i].type;
	}
	return PERF_AUXTRACE_UNKNOWN;
}

bool auxtrace_pmu__is_aux_capable(const char *name)
{
	return auxtrace_pmu__auxtrace_type(name) != PERF_AUXTRACE_UNKNOWN;
}
