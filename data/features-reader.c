// SPDX-License-Identifier: LGPL-2.1
/*
 * Feature sections (a file's, after the data; a pipe's, in HEADER_FEATURE records) into
 * struct perf_env, evsel names and the AUXTRACE index. Strings are used where they lie
 * (the mapping, or the pipe record's copy the session keeps), after checking that they end
 * inside their section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <internal/session.h>

struct feat_cursor {
	struct perf_session *s;
	const unsigned char *start, *p, *end;
	uint64_t offset;	/* file offset of start */
	int feat;
	int err;
};

static const char *feature__name(int feat, char *buf, size_t size)
{
	static const char *const names[] = {
		[HEADER_TRACING_DATA] = "TRACING_DATA", [HEADER_BUILD_ID] = "BUILD_ID",
		[HEADER_HOSTNAME] = "HOSTNAME", [HEADER_OSRELEASE] = "OSRELEASE",
		[HEADER_VERSION] = "VERSION", [HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS",
		[HEADER_CPUDESC] = "CPUDESC", [HEADER_CPUID] = "CPUID",
		[HEADER_TOTAL_MEM] = "TOTAL_MEM", [HEADER_CMDLINE] = "CMDLINE",
		[HEADER_EVENT_DESC] = "EVENT_DESC", [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
		[HEADER_AUXTRACE] = "AUXTRACE", [HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
		[HEADER_CLOCKID] = "CLOCKID", [HEADER_CLOCK_DATA] = "CLOCK_DATA",
	};

	if (feat >= 0 && (size_t)feat < ARRAY_SIZE(names) && names[feat])
		return names[feat];
	snprintf(buf, size, "feature %d", feat);
	return buf;
}

static bool feat__need(struct feat_cursor *c, uint64_t n, const char *what)
{
	char name[32];

	if (c->err)
		return false;
	if (n <= (uint64_t)(c->end - c->p))
		return true;
	c->err = perf_session__corrupt(c->s, c->offset + (c->p - c->start), "the HEADER_%s "
				       "section of %zu bytes ends inside its %s (%llu bytes "
				       "needed, %zu left)",
				       feature__name(c->feat, name, sizeof(name)),
				       (size_t)(c->end - c->start), what, (unsigned long long)n,
				       (size_t)(c->end - c->p));
	return false;
}

static uint32_t feat__u32(struct feat_cursor *c, const char *what)
{
	uint32_t v = 0;

	if (feat__need(c, 4, what)) {
		v = perf_u32(c->p, c->s->needs_swap);
		c->p += 4;
	}
	return v;
}

static uint64_t feat__u64(struct feat_cursor *c, const char *what)
{
	uint64_t v = 0;

	if (feat__need(c, 8, what)) {
		v = perf_u64(c->p, c->s->needs_swap);
		c->p += 8;
	}
	return v;
}

/* perf's string: u32 len (NUL and padding included), then len bytes holding a NUL. */
static const char *feat__string(struct feat_cursor *c, const char *what)
{
	uint32_t len = feat__u32(c, what);
	const char *str = (const char *)c->p;
	char name[32];

	if (!feat__need(c, len, what))
		return NULL;
	if (!memchr(str, 0, len)) {
		c->err = perf_session__corrupt(c->s, c->offset + (c->p - c->start), "the %s in "
					       "HEADER_%s (%u bytes) has no terminating NUL", what,
					       feature__name(c->feat, name, sizeof(name)), len);
		return NULL;
	}
	c->p += len;
	return str;
}

/* nr entries of at least min_size bytes each must fit what is left: checked before an
 * array of nr is allocated, so a damaged count cannot ask for gigabytes. */
static bool feat__need_entries(struct feat_cursor *c, uint64_t nr, uint64_t min_size,
			       const char *what)
{
	if (nr > (uint64_t)(c->end - c->p) / min_size)
		return feat__need(c, UINT64_MAX, what);
	return true;
}

static int feat__cmdline(struct feat_cursor *c, struct perf_env *env)
{
	uint32_t nr = feat__u32(c, "argument count"), i;
	const char **argv;

	if (!feat__need_entries(c, nr, 4, "arguments"))
		return c->err;
	argv = calloc(nr + 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	for (i = 0; i < nr && !c->err; i++)
		argv[i] = feat__string(c, "argument");
	if (c->err) {
		free(argv);
		return c->err;
	}
	free(env->cmdline);
	env->cmdline = argv;
	env->nr_cmdline = nr;
	return 0;
}

static int feat__pmu_mappings(struct feat_cursor *c, struct perf_env *env)
{
	uint32_t nr = feat__u32(c, "PMU count"), i;
	struct perf_env_pmu *pmus;

	if (!feat__need_entries(c, nr, 8, "PMUs"))
		return c->err;
	pmus = calloc(nr ? nr : 1, sizeof(*pmus));
	if (!pmus)
		return -ENOMEM;
	for (i = 0; i < nr && !c->err; i++) {
		pmus[i].type = feat__u32(c, "PMU type");
		pmus[i].name = feat__string(c, "PMU name");
	}
	if (c->err) {
		free(pmus);
		return c->err;
	}
	free((void *)env->pmu_mappings);
	env->pmu_mappings = pmus;
	env->nr_pmu_mappings = nr;
	return 0;
}

int perf_session__set_evsel_name(struct perf_session *s, uint64_t id, size_t index,
				 const char *name)
{
	struct perf_sid *sid = id ? perf_session__sid(s, id) : NULL;
	struct evsel *evsel = sid ? sid->where.evsel : NULL;

	if (!evsel && index < (size_t)s->nr_evsels)
		evsel = s->evsel_ids[index].evsel;
	return evsel ? evsel__set_name(evsel, name) : 0;
}

/* {u32 nr; u32 attr_size; {attr; u32 nr_ids; string name; u64 ids[nr_ids]}[nr]}: the names. */
static int feat__event_desc(struct feat_cursor *c, struct perf_env *env)
{
	uint32_t nr = feat__u32(c, "event count");
	uint32_t attr_size = feat__u32(c, "attr size"), i;

	if (!c->err && (attr_size < PERF_ATTR_SIZE_VER0 || attr_size % 8))
		return feat__need(c, UINT64_MAX, "attr size");
	for (i = 0; i < nr && !c->err; i++) {
		const char *name;
		uint32_t nr_ids;
		uint64_t id = 0;

		if (!feat__need(c, attr_size, "attr"))
			break;
		c->p += attr_size;
		nr_ids = feat__u32(c, "ID count");
		name = feat__string(c, "event name");
		if (nr_ids && feat__need(c, 8, "IDs"))
			id = perf_u64(c->p, c->s->needs_swap);
		if (!feat__need(c, (uint64_t)nr_ids * 8, "IDs"))
			break;
		c->p += (uint64_t)nr_ids * 8;
		if (perf_session__set_evsel_name(c->s, id, i, name))
			return -ENOMEM;
	}
	env->nr_event_desc = c->err ? 0 : nr;
	return c->err;
}

/* Read through byte offsets: a record inside a feature section need not be aligned. */
int perf_env__add_build_id(struct perf_session *s, const void *record, size_t size, bool swap)
{
	const unsigned char *raw = record;
	const size_t name_at = offsetof(struct perf_record_header_build_id, filename);
	uint16_t misc = perf_u16(raw + offsetof(struct perf_event_header, misc), swap);
	uint8_t id_size = raw[offsetof(struct perf_record_header_build_id, size)];
	struct perf_env *env = &s->env;
	struct perf_env_build_id *ids, *e;

	ids = realloc((void *)env->build_ids, (env->nr_build_ids + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	env->build_ids = ids;
	e = &ids[env->nr_build_ids];
	memset(e, 0, sizeof(*e));
	e->filename = strndup((const char *)raw + name_at, size - name_at);
	if (!e->filename)
		return -ENOMEM;
	e->pid = (int32_t)perf_u32(raw + offsetof(struct perf_record_header_build_id, pid), swap);
	e->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	e->size = (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) && id_size <= 20 ? id_size : 20;
	memcpy(e->build_id, raw + offsetof(struct perf_record_header_build_id, build_id),
	       sizeof(e->build_id));
	env->nr_build_ids++;
	return 0;
}

/* A sequence of perf_record_header_build_id records, each header.size long. */
static int feat__build_ids(struct feat_cursor *c)
{
	const size_t min = offsetof(struct perf_record_header_build_id, filename) + 1;

	while (!c->err && c->p < c->end) {
		uint16_t size;

		if (!feat__need(c, min, "build ID record"))
			break;
		size = perf_u16(c->p + offsetof(struct perf_event_header, size), c->s->needs_swap);
		if (size < min || !feat__need(c, size, "build ID record"))
			return c->err ?: feat__need(c, UINT64_MAX, "build ID record size");
		if (!memchr(c->p + min - 1, 0, size - (min - 1)))
			return feat__need(c, UINT64_MAX, "build ID file name");
		if (perf_env__add_build_id(c->s, c->p, size, c->s->needs_swap))
			return -ENOMEM;
		c->p += size;
	}
	return c->err;
}

/* The index is read from the fd: only a mapped file has one to read from. */
static int feat__auxtrace(struct feat_cursor *c)
{
	struct perf_session *s = c->s;
	int err;

	if (!s->map || c->start < s->map || c->start >= s->map + s->file_size) {
		pr_debug("%s: an AUXTRACE index in a pipe is of no use: ignored\n", s->path);
		return 0;
	}
	if (!s->auxtrace_index) {
		s->auxtrace_index = auxtrace_index__new();
		if (!s->auxtrace_index)
			return -ENOMEM;
	}
	if (lseek(s->fd, c->start - s->map, SEEK_SET) < 0)
		return libauxtrace__err(-errno);
	err = auxtrace_index__read(s->auxtrace_index, s->fd, c->end - c->start, s->needs_swap);
	if (err == -EINVAL)
		return perf_session__corrupt(s, c->offset, "the HEADER_AUXTRACE section of %zu "
					     "bytes is not an index", (size_t)(c->end - c->start));
	return err;
}

static int feat__process(struct feat_cursor *c)
{
	struct perf_env *env = &c->s->env;

	switch (c->feat) {
	case HEADER_HOSTNAME:	env->hostname = feat__string(c, "host name"); break;
	case HEADER_OSRELEASE:	env->os_release = feat__string(c, "OS release"); break;
	case HEADER_VERSION:	env->version = feat__string(c, "perf version"); break;
	case HEADER_ARCH:	env->arch = feat__string(c, "architecture"); break;
	case HEADER_CPUDESC:	env->cpu_desc = feat__string(c, "CPU description"); break;
	case HEADER_CPUID:	env->cpuid = feat__string(c, "CPU ID"); break;
	case HEADER_NRCPUS:
		env->nr_cpus_avail = feat__u32(c, "available CPUs");
		env->nr_cpus_online = feat__u32(c, "online CPUs");
		break;
	case HEADER_TOTAL_MEM:	env->total_mem = feat__u64(c, "memory size"); break;
	case HEADER_CLOCKID:	env->clockid_res_ns = feat__u64(c, "clock resolution"); break;
	case HEADER_SAMPLE_TIME:
		env->first_sample_time = feat__u64(c, "first sample time");
		env->last_sample_time = feat__u64(c, "last sample time");
		break;
	case HEADER_CLOCK_DATA:
		feat__u32(c, "version");
		env->clockid = feat__u32(c, "clockid");
		env->clock_wall_ns = feat__u64(c, "wall-clock time");
		env->clock_clockid_ns = feat__u64(c, "clock time");
		env->has_clock_data = !c->err;
		break;
	case HEADER_CMDLINE:	return feat__cmdline(c, env);
	case HEADER_PMU_MAPPINGS: return feat__pmu_mappings(c, env);
	case HEADER_EVENT_DESC:	return feat__event_desc(c, env);
	case HEADER_BUILD_ID:	return feat__build_ids(c);
	case HEADER_AUXTRACE:	return feat__auxtrace(c);
	default:		break;	/* kept as raw bytes: perf_session__feature() */
	}
	return c->err;
}

int perf_session__process_feature(struct perf_session *s, int feat, const void *data,
				  uint64_t size, uint64_t offset)
{
	struct feat_cursor c = {
		.s = s, .start = data, .p = data, .end = (const unsigned char *)data + size,
		.offset = offset, .feat = feat,
	};

	return libauxtrace__err(feat__process(&c));
}

void perf_env__exit(struct perf_session *s)
{
	struct perf_env *env = &s->env;
	uint32_t i;

	free(env->cmdline);
	free((void *)env->pmu_mappings);
	for (i = 0; i < env->nr_build_ids; i++)
		free((void *)env->build_ids[i].filename);
	free((void *)env->build_ids);
}
