// SPDX-License-Identifier: LGPL-2.1
/*
 * Arm CoreSight ETM: the decoder needs every traced CPU's tracer registers, so
 * AUXTRACE_INFO holds a header and one block per CPU, with the read-only ID registers
 * taken from sysfs (cs_etm/cpu<N>/...) and the configuration derived from the event.
 *
 * Approximate (no hardware here to check against): TRCCONFIGR/ETMCR are derived from the
 * event's format terms as perf does rather than read back from the tracer; the trace ID
 * is mgmt/trctraceid when sysfs has it, else the static 0x10 + 2 * cpu of kernels before
 * dynamic trace IDs; ETMv4 blocks carry no TS_SOURCE word (perf 6.1 reads the count).
 */
#include <stdio.h>
#include <stdlib.h>

#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>

#include <internal/auxtrace-backend.h>
#include <internal/lib.h>

/* Header words, then per CPU: magic, cpu, number of parameters, parameters. */
enum {
	CS_HEADER_VERSION,
	CS_PMU_TYPE_CPUS,	/* pmu type << 32 | number of CPU blocks */
	CS_ETM_SNAPSHOT,
	CS_HEADER_NR,
};

enum {
	CS_ETM_MAGIC,
	CS_ETM_CPU,
	CS_ETM_NR_TRC_PARAMS,
	CS_ETM_COMMON_NR,
};

#define CS_HEADER_CURRENT_VERSION 1

/* Parameters of a block: the configuration, the trace ID, then the ID registers. */
#define CS_ETM_NR_DYNAMIC 2

static const struct cs_etm_tracer {
	const char *name;
	uint64_t magic;
	const char *ro[7];	/* sysfs files under cpu<N>/, NULL-terminated */
} cs_etmv3 = {
	"ETMv3", 0x3030303030303030ULL, { "mgmt/etmccer", "mgmt/etmidr" },
}, cs_etmv4 = {
	"ETMv4", 0x4040404040404040ULL,
	{ "trcidr/trcidr0", "trcidr/trcidr1", "trcidr/trcidr2", "trcidr/trcidr8",
	  "mgmt/trcauthstatus" },
}, cs_ete = {
	"ETE", 0x5050505050505050ULL,
	{ "trcidr/trcidr0", "trcidr/trcidr1", "trcidr/trcidr2", "trcidr/trcidr8",
	  "mgmt/trcauthstatus", "mgmt/trcdevarch" },
};

/* Event format terms and the TRCCONFIGR bits they turn on (ETMv4 and ETE). */
static const struct {
	const char *term;
	uint64_t trcconfigr;
} cs_etmv4_config[] = {
	{ "branch_broadcast",	1ULL << 3 },
	{ "cycacc",		1ULL << 4 },
	{ "contextid1",		1ULL << 6 },
	{ "contextid2",		1ULL << 7 | 1ULL << 15 },	/* VMID, VMID as context ID */
	{ "timestamp",		1ULL << 11 },
	{ "retstack",		1ULL << 12 },
};

/* ETMv3's ETMCR takes these terms at the same bit positions as the event config. */
static const char *const cs_etmv3_config[] = { "cycacc", "timestamp", "retstack" };

static int cs_etm_read(struct auxtrace_backend *be, int cpu, const char *file, uint64_t *val)
{
	char path[128];

	snprintf(path, sizeof(path), "cpu%d/%s", cpu, file);
	return perf_pmu__read_u64(be->itr.pmu, path, 0, val);
}

static const struct cs_etm_tracer *cs_etm_tracer(struct auxtrace_backend *be, int cpu)
{
	uint64_t val;

	/* TRCDEVARCH.ARCHVER (bits 15:12) is 5 for ETE. */
	if (!cs_etm_read(be, cpu, "mgmt/trcdevarch", &val) && ((val >> 12) & 0xf) >= 5)
		return &cs_ete;
	if (!cs_etm_read(be, cpu, "trcidr/trcidr0", &val))
		return &cs_etmv4;
	return &cs_etmv3;
}

static uint64_t cs_etm_config_reg(struct auxtrace_backend *be, const struct cs_etm_tracer *t,
				  uint64_t config)
{
	uint64_t reg = 0;
	size_t i;

	if (t == &cs_etmv3) {
		for (i = 0; i < ARRAY_SIZE(cs_etmv3_config); i++)
			reg |= config & auxtrace_backend__format_mask(be, cs_etmv3_config[i]);
		return reg;
	}
	for (i = 0; i < ARRAY_SIZE(cs_etmv4_config); i++) {
		if (config & auxtrace_backend__format_mask(be, cs_etmv4_config[i].term))
			reg |= cs_etmv4_config[i].trcconfigr;
	}
	return reg;
}

/* One CPU's block into priv (NULL: count only). Words written, or -errno. */
static int cs_etm_cpu_block(struct auxtrace_backend *be, int cpu, uint64_t config,
			    uint64_t *priv)
{
	const struct cs_etm_tracer *t = cs_etm_tracer(be, cpu);
	uint64_t traceid;
	int nr_ro, i;

	for (nr_ro = 0; t->ro[nr_ro]; nr_ro++)
		;
	if (!priv)
		return CS_ETM_COMMON_NR + CS_ETM_NR_DYNAMIC + nr_ro;
	if (cs_etm_read(be, cpu, "mgmt/trctraceid", &traceid))
		traceid = 0x10 + 2 * cpu;
	priv[CS_ETM_MAGIC] = t->magic;
	priv[CS_ETM_CPU] = cpu;
	priv[CS_ETM_NR_TRC_PARAMS] = CS_ETM_NR_DYNAMIC + nr_ro;
	priv[CS_ETM_COMMON_NR] = cs_etm_config_reg(be, t, config);
	priv[CS_ETM_COMMON_NR + 1] = traceid;
	for (i = 0; i < nr_ro; i++) {
		uint64_t *reg = &priv[CS_ETM_COMMON_NR + CS_ETM_NR_DYNAMIC + i];

		if (cs_etm_read(be, cpu, t->ro[i], reg)) {
			pr_err("cs_etm: CPU %d: cannot read %s register cpu%d/%s from sysfs: "
			       "record only CPUs whose tracer sysfs shows (-C)\n", cpu, t->name,
			       cpu, t->ro[i]);
			return -EINVAL;
		}
	}
	return CS_ETM_COMMON_NR + CS_ETM_NR_DYNAMIC + nr_ro;
}

/*
 * Walk the traced CPUs (the user's, or every online one in a per-thread session), sizing
 * or filling priv. Words, or -errno.
 */
static int cs_etm_info_walk(struct auxtrace_backend *be, struct evlist *evlist, uint64_t *priv)
{
	struct perf_cpu_map *user = evlist__user_cpus(evlist);
	struct perf_cpu_map *cpus;
	uint64_t config = be->evsel ? evsel__attr(be->evsel)->config : 0;
	struct perf_cpu cpu;
	int idx, words = CS_HEADER_NR;

	cpus = perf_cpu_map__is_any_cpu_or_is_empty(user) ? perf_cpu_map__new_online_cpus() :
							    perf_cpu_map__get(user);
	if (!cpus)
		return -errno;
	if (priv) {
		priv[CS_HEADER_VERSION] = CS_HEADER_CURRENT_VERSION;
		priv[CS_PMU_TYPE_CPUS] = (uint64_t)perf_pmu__type(be->itr.pmu) << 32 |
					 (uint32_t)perf_cpu_map__nr(cpus);
		priv[CS_ETM_SNAPSHOT] = be->snapshot_mode;
	}
	perf_cpu_map__for_each_cpu(cpu, idx, cpus) {
		int n = cs_etm_cpu_block(be, cpu.cpu, config, priv ? priv + words : NULL);

		if (n < 0) {
			words = n;
			break;
		}
		words += n;
	}
	perf_cpu_map__put(cpus);
	return words;
}

static size_t cs_etm_info_priv_size(struct auxtrace_record *itr, struct evlist *evlist)
{
	int words = cs_etm_info_walk(auxtrace_backend(itr), evlist, NULL);

	return words < 0 ? 0 : words * sizeof(uint64_t);
}

static int cs_etm_info_fill(struct auxtrace_record *itr, struct evlist *evlist,
			    struct perf_record_auxtrace_info *info, size_t priv_size)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	int words;
	int err = auxtrace_backend__check_priv_size(be, cs_etm_info_priv_size(itr, evlist),
						    priv_size);

	if (err)
		return err;
	words = cs_etm_info_walk(be, evlist, info->priv);
	if (words < 0)
		return words;
	info->type = PERF_AUXTRACE_CS_ETM;
	return 0;
}

static const struct auxtrace_size_rules cs_etm_sizes = {
	.min_full = 4 << 10,
	.min_overwrite = 4 << 10,
};

static int cs_etm_recording_options(struct auxtrace_record *itr, struct evlist *evlist,
				    struct auxtrace_opts *opts)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	struct perf_event_attr *attr;
	int err;

	if (opts->auxtrace_sample_mode) {
		pr_err("cs_etm: AUX area sampling is not supported: record the whole trace or "
		       "snapshots (-S)\n");
		return -EINVAL;
	}
	err = auxtrace_backend__options(be, evlist, opts, &cs_etm_sizes);
	if (err)
		return err;
	attr = evsel__attr(be->evsel);
	if (be->per_cpu) {
		/*
		 * Several tasks share a CPU's trace: time stamps order it against side-band,
		 * context IDs (the kernel's "contextid": CONTEXTIDR of the EL it runs at)
		 * tell the tasks apart.
		 */
		auxtrace_backend__set_config_if_unset(be, "timestamp", 1);
		auxtrace_backend__set_config_if_unset(be, "contextid", 1);
		attr->sample_type |= PERF_SAMPLE_TIME;
	}
	return auxtrace_backend__add_tracking(be, evlist, false);
}

const struct auxtrace_record cs_etm_record_ops = {
	.recording_options = cs_etm_recording_options,
	.info_priv_size = cs_etm_info_priv_size,
	.info_fill = cs_etm_info_fill,
	.find_snapshot = auxtrace_backend__find_snapshot_head,
	.reference = auxtrace_reference__monotonic_raw,
};
