// SPDX-License-Identifier: LGPL-2.1
/*
 * What every AUX recording backend does the same way: find its event, size the AUX area,
 * add the side-band tracking event, stop/restart the event, read the time conversion for
 * AUXTRACE_INFO. The backends keep only their own rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <auxtrace/cpumap.h>
#include <auxtrace/evlist.h>
#include <auxtrace/evsel.h>
#include <auxtrace/mmap.h>

#include <internal/auxtrace-backend.h>
#include <internal/evsel.h>
#include <internal/lib.h>

#define KiB(x) ((size_t)(x) << 10)
#define MiB(x) ((size_t)(x) << 20)

void auxtrace_backend__free(struct auxtrace_record *itr)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);

	perf_pmu__delete(itr->pmu);
	free(be->filter);
	free(be->wrapped);
	for (int idx = 0; idx < be->nr_refs; idx++)
		free(be->refs[idx].buf);
	free(be->refs);
	free(be);
}

/* One event of the PMU: each ring has one AUX area, which one event's driver fills. */
int auxtrace_backend__find_evsel(struct auxtrace_backend *be, struct evlist *evlist)
{
	uint32_t type = perf_pmu__type(be->itr.pmu);
	struct evsel *evsel, *found = NULL;
	int nr = 0;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel__attr(evsel)->type != type)
			continue;
		found = evsel;
		nr++;
	}
	if (nr > 1) {
		pr_err("There may be only one %s event, the evlist has %d: merge their terms "
		       "into one -e %s/.../\n", auxtrace_backend__name(be), nr,
		       auxtrace_backend__name(be));
		return -EINVAL;
	}
	if (!found) {
		pr_err("%s: the evlist has no %s event to record\n", auxtrace_backend__name(be),
		       auxtrace_backend__name(be));
		return -EINVAL;
	}
	be->evsel = found;
	return 0;
}

/* The AUX area when the user gave no size; unprivileged users get what mlock allows. */
static void auxtrace_opts__default_aux(struct auxtrace_opts *opts, size_t page)
{
	if (opts->privileged) {
		opts->auxtrace_mmap_pages = MiB(4) / page;
		return;
	}
	opts->auxtrace_mmap_pages = KiB(128) / page;
	if (!opts->mmap_pages)
		opts->mmap_pages = KiB(256) / page;
}

/* Pages for bytes, rounded up to a power of two; 0 when it does not fit. */
static unsigned int auxtrace__pages_for(size_t bytes, size_t page)
{
	return libauxtrace__roundup_pow2(bytes / page + !!(bytes % page));
}

static int auxtrace_backend__snapshot_sizes(const char *name, struct auxtrace_opts *opts,
					    size_t page)
{
	size_t aux_bytes;

	if (!opts->auxtrace_snapshot_size && !opts->auxtrace_mmap_pages)
		auxtrace_opts__default_aux(opts, page);
	else if (opts->auxtrace_mmap_pages && !opts->privileged && !opts->mmap_pages)
		opts->mmap_pages = KiB(256) / page;
	if (!opts->auxtrace_snapshot_size)
		opts->auxtrace_snapshot_size = (size_t)opts->auxtrace_mmap_pages * page;
	if (!opts->auxtrace_mmap_pages)
		opts->auxtrace_mmap_pages = auxtrace__pages_for(opts->auxtrace_snapshot_size, page);
	if (!opts->auxtrace_snapshot_size || !opts->auxtrace_mmap_pages) {
		pr_err("%s: failed to calculate the default snapshot size and/or AUX area pages "
		       "(snapshot size %zu bytes): give both with -S<size> -m ,<pages>\n", name,
		       opts->auxtrace_snapshot_size);
		return -EINVAL;
	}
	aux_bytes = (size_t)opts->auxtrace_mmap_pages * page;
	if (opts->auxtrace_snapshot_size > aux_bytes) {
		pr_err("%s: snapshot size %zu bytes is larger than the AUX area (%zu bytes): "
		       "ask for a smaller -S size or a larger -m ,AUX\n", name,
		       opts->auxtrace_snapshot_size, aux_bytes);
		return -EINVAL;
	}
	return 0;
}

static int auxtrace_backend__sample_sizes(const char *name, struct auxtrace_opts *opts,
					  const struct auxtrace_size_rules *rules, size_t page)
{
	size_t aux_bytes;

	if (!opts->auxtrace_sample_size)
		opts->auxtrace_sample_size = rules->default_sample_size;
	if (!opts->auxtrace_mmap_pages) {
		opts->auxtrace_mmap_pages = auxtrace__pages_for(opts->auxtrace_sample_size, page);
		if (!opts->privileged && !opts->mmap_pages)
			opts->mmap_pages = KiB(256) / page;
	}
	aux_bytes = (size_t)opts->auxtrace_mmap_pages * page;
	if (!opts->auxtrace_sample_size || opts->auxtrace_sample_size > aux_bytes) {
		pr_err("%s: AUX sample size %zu bytes does not fit the AUX area (%zu bytes): "
		       "ask for a larger -m ,AUX\n", name, opts->auxtrace_sample_size, aux_bytes);
		return -EINVAL;
	}
	return 0;
}

int auxtrace_backend__sizes(const char *name, struct auxtrace_opts *opts,
			    const struct auxtrace_size_rules *rules)
{
	bool overwrite = opts->auxtrace_snapshot_mode || opts->auxtrace_sample_mode;
	size_t min = overwrite ? rules->min_overwrite : rules->min_full;
	size_t page = libauxtrace__page_size();
	size_t aux_bytes;
	int err = 0;

	if (opts->auxtrace_snapshot_mode)
		err = auxtrace_backend__snapshot_sizes(name, opts, page);
	else if (opts->auxtrace_sample_mode)
		err = auxtrace_backend__sample_sizes(name, opts, rules, page);
	else if (!opts->auxtrace_mmap_pages)
		auxtrace_opts__default_aux(opts, page);
	if (err)
		return err;

	aux_bytes = (size_t)opts->auxtrace_mmap_pages * page;
	if (!libauxtrace__is_pow2(aux_bytes) || aux_bytes < min) {
		pr_err("Invalid AUX area size for %s: %zu bytes (%u pages) asked; it must be a "
		       "power of 2 and at least %zu KiB in %s mode (-m ,SIZE)\n", name,
		       aux_bytes, opts->auxtrace_mmap_pages, min >> 10,
		       opts->auxtrace_snapshot_mode ? "snapshot" :
		       opts->auxtrace_sample_mode ? "sample" : "full-trace");
		return -EINVAL;
	}
	return 0;
}

int auxtrace_backend__options(struct auxtrace_backend *be, struct evlist *evlist,
			      struct auxtrace_opts *opts, const struct auxtrace_size_rules *rules)
{
	struct perf_event_attr *attr;
	int err = auxtrace_backend__find_evsel(be, evlist);

	if (err)
		return err;
	be->itr.evlist = evlist;
	be->per_cpu = auxtrace_evlist__per_cpu(evlist);
	be->snapshot_mode = opts->auxtrace_snapshot_mode;

	err = auxtrace_backend__sizes(auxtrace_backend__name(be), opts, rules);
	if (err)
		return err;

	attr = evsel__attr(be->evsel);
	attr->freq = 0;
	attr->sample_period = 1;
	if (be->per_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	/* Wake up at a quarter of the area: three quarters left while we copy. */
	if (!opts->auxtrace_snapshot_mode && !opts->auxtrace_sample_mode) {
		size_t watermark = (size_t)opts->auxtrace_mmap_pages * libauxtrace__page_size() / 4;

		attr->aux_watermark = watermark > UINT32_MAX ? UINT32_MAX : (uint32_t)watermark;
	}
	evsel__set_needs_auxtrace_mmap(be->evsel, true);
	opts->full_auxtrace = true;
	/* The AUX event must own each data ring: the others are redirected into it. */
	evlist__move_to_front(evlist, be->evsel);
	return 0;
}

int auxtrace_backend__add_tracking(struct auxtrace_backend *be, struct evlist *evlist,
				   bool switch_events)
{
	const struct perf_event_attr *aux = evsel__attr(be->evsel);
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       (be->per_cpu ? PERF_SAMPLE_CPU : 0),
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.ksymbol = 1,		/* BPF programs loaded while recording, as perf record */
		.bpf_event = 1,
		.context_switch = switch_events,
		.exclude_kernel = aux->exclude_kernel,
		.exclude_hv = 1,
		.disabled = aux->disabled,
		.enable_on_exec = aux->enable_on_exec,
	};
	struct evsel *tracking = evsel__new(&attr);
	int err;

	if (!tracking)
		return -errno;
	if (evsel__set_name(tracking, attr.exclude_kernel ? "dummy:u" : "dummy")) {
		evsel__delete(tracking);
		return -ENOMEM;
	}
	err = evlist__add(evlist, tracking);
	if (err)
		evsel__delete(tracking);	/* not taken: recording without it would not decode */
	return err;
}

/* The bits of term in its config word, with only the lowest one when lowest_only. */
static uint64_t auxtrace_backend__format_bits(const struct auxtrace_backend *be,
					      const char *term, bool lowest_only)
{
	struct perf_pmu_format fmt;

	if (perf_pmu__format(be->itr.pmu, term, &fmt))
		return 0;
	return lowest_only ? fmt.bits & -fmt.bits : fmt.bits;
}

uint64_t auxtrace_backend__format_bit(const struct auxtrace_backend *be, const char *term)
{
	return auxtrace_backend__format_bits(be, term, true);
}

uint64_t auxtrace_backend__format_mask(const struct auxtrace_backend *be, const char *term)
{
	return auxtrace_backend__format_bits(be, term, false);
}

uint64_t auxtrace_backend__config_value(const struct auxtrace_backend *be, const char *term,
					uint64_t config)
{
	struct perf_pmu_format fmt;

	if (perf_pmu__format(be->itr.pmu, term, &fmt))
		return 0;
	return perf_pmu__format_decode(&fmt, config);
}

void auxtrace_evsel__set_config_if_unset(const struct perf_pmu *pmu, struct evsel *evsel,
					 const char *term, uint64_t value)
{
	struct perf_pmu_format fmt;
	uint64_t config;

	if (perf_pmu__format(pmu, term, &fmt) || fmt.config ||
	    (evsel->user_config[0] & fmt.bits))
		return;
	config = evsel__attr(evsel)->config & ~fmt.bits;
	if (!perf_pmu__format_encode(&fmt, value, &config))
		evsel__attr(evsel)->config = config;
}

void auxtrace_backend__set_config_if_unset(struct auxtrace_backend *be, const char *term,
					   uint64_t value)
{
	auxtrace_evsel__set_config_if_unset(be->itr.pmu, be->evsel, term, value);
}

int auxtrace_time_conv__from_userpg(const struct perf_event_mmap_page *pc,
				    struct auxtrace_time_conv *tc)
{
	int tries;

	/* The kernel bumps pc->lock around every update: retry until a stable even count. */
	for (tries = 0; tries < 1000; tries++) {
		uint32_t seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);

		tc->time_shift = pc->time_shift;
		tc->time_mult = pc->time_mult;
		tc->time_zero = pc->time_zero;
		tc->time_cycles = pc->time_cycles;
		tc->time_mask = pc->time_mask;
		tc->cap_user_time_zero = pc->cap_user_time_zero;
		tc->cap_user_time_short = pc->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) && __atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq)
			return tc->time_mult ? 0 : -EINVAL;
	}
	return -EAGAIN;
}

int auxtrace_backend__time_conv(struct auxtrace_backend *be, struct evlist *evlist,
				struct auxtrace_time_conv *tc)
{
	struct perf_mmap *map = evlist__mmap_at(evlist, 0);
	char clock[64] = "unknown";
	char path[4096];
	int err;

	if (!map || !perf_mmap__userpg(map)) {
		pr_err("%s: AUXTRACE_INFO needs the time conversion of a mapped data ring: map "
		       "the evlist before writing it\n", auxtrace_backend__name(be));
		return -EINVAL;
	}
	err = auxtrace_time_conv__from_userpg(perf_mmap__userpg(map), tc);
	if (err == -EINVAL) {
		snprintf(path, sizeof(path),
			 "%s/devices/system/clocksource/clocksource0/current_clocksource",
			 libauxtrace__sysfs_root());
		if (libauxtrace__read_file(path, clock, sizeof(clock)) > 0)
			clock[strcspn(clock, "\n")] = '\0';
		pr_err("%s: the kernel publishes no TSC conversion (time_mult 0 in the perf "
		       "control page; clock source %s), and perf divides by time_mult when it "
		       "decodes: the trace needs a TSC clock source (%s)\n",
		       auxtrace_backend__name(be), clock, path);
	} else if (err) {
		pr_err("%s: the perf control page kept changing while its time fields were "
		       "read; try again\n", auxtrace_backend__name(be));
	}
	return err;
}

int auxtrace_backend__check_priv_size(struct auxtrace_backend *be, size_t expected,
				      size_t priv_size)
{
	if (priv_size == expected)
		return 0;
	pr_err("%s: AUXTRACE_INFO private data is %zu bytes, %zu given: size it with "
	       "auxtrace_record__info_priv_size()\n", auxtrace_backend__name(be), expected,
	       priv_size);
	return -EINVAL;
}

/* Stop and restart: ioctls only, since snapshot_start runs in a signal handler. */
int auxtrace_backend__snapshot_start(struct auxtrace_record *itr)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);

	return be->evsel ? evsel__disable(be->evsel) : -EINVAL;
}

int auxtrace_backend__snapshot_finish(struct auxtrace_record *itr)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);

	return be->evsel ? evsel__enable(be->evsel) : -EINVAL;
}

int auxtrace_backend__read_finish(struct auxtrace_record *itr, int idx)
{
	struct auxtrace_backend *be = auxtrace_backend(itr);
	struct perf_cpu cpu;
	int cpu_idx;

	if (!be->evsel)
		return -EINVAL;
	if (be->user_disabled)
		return 0;
	if (!be->per_cpu)
		return evsel__enable_thread(be->evsel, idx);
	cpu = perf_cpu_map__cpu(evlist__all_cpus(itr->evlist), idx);
	cpu_idx = perf_cpu_map__idx(evsel__cpus(be->evsel), cpu);
	if (cpu_idx < 0) {
		pr_err("%s: mmap idx %d (CPU %d) is not one of the event's CPUs\n",
		       auxtrace_backend__name(be), idx, cpu.cpu);
		return -EINVAL;
	}
	return evsel__enable_cpu(be->evsel, cpu_idx);
}

uint64_t auxtrace_reference__monotonic_raw(struct auxtrace_record *itr)
{
	struct timespec ts;

	(void)itr;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec ^ (uint64_t)ts.tv_nsec;
}

/* The time stamp counter, which the Intel PT/BTS decoders expect in each chunk. */
uint64_t auxtrace_reference__tsc(struct auxtrace_record *itr)
{
#if defined(__x86_64__) || defined(__i386__)
	(void)itr;
	return __rdtsc();
#else
	return auxtrace_reference__monotonic_raw(itr);
#endif
}

/*
 * arr, an array of *nr elements of elem bytes, grown to hold idx with the new elements
 * zeroed; NULL (arr untouched) when memory runs out.
 */
static void *auxtrace_backend__grow(void *arr, int *nr, int idx, size_t elem)
{
	int new_nr = idx + 1 > 2 * *nr ? idx + 1 : 2 * *nr;
	char *grown;

	if (idx < *nr)
		return arr;
	grown = realloc(arr, new_nr * elem);
	if (!grown)
		return NULL;
	memset(grown + *nr * elem, 0, (new_nr - *nr) * elem);
	*nr = new_nr;
	return grown;
}

/* The sticky per-idx flag of a len-byte buffer, the array grown on first use of idx. */
static int auxtrace_backend__wrapped(struct auxtrace_backend *be, int idx, size_t len,
				     bool **flag)
{
	bool *wrapped;

	if (idx < 0 || !len)
		return -EINVAL;
	wrapped = auxtrace_backend__grow(be->wrapped, &be->nr_wrapped, idx, sizeof(*wrapped));
	if (!wrapped)
		return -ENOMEM;
	be->wrapped = wrapped;
	*flag = &be->wrapped[idx];
	return 0;
}

/*
 * The snapshot reference of idx in a len-byte buffer, made on first use (and anew for an
 * area of another size): the buffer's last ref_size bytes, zeroed as the kernel hands
 * them out.
 */
static int auxtrace_backend__ref(struct auxtrace_backend *be, int idx, size_t len,
				 struct auxtrace_snapshot_ref **ref)
{
	struct auxtrace_snapshot_ref *refs;

	if (idx < 0 || !len)
		return -EINVAL;
	refs = auxtrace_backend__grow(be->refs, &be->nr_refs, idx, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	be->refs = refs;
	*ref = &refs[idx];
	if (!(*ref)->buf) {
		(*ref)->buf = malloc(be->snapshot_ref_size);
		if (!(*ref)->buf)
			return -ENOMEM;
	} else if ((*ref)->len == len) {
		return 0;
	}
	memset((*ref)->buf, 0, be->snapshot_ref_size);
	(*ref)->offset = len - be->snapshot_ref_size;
	(*ref)->len = len;
	return 0;
}

/* The n bytes at off of a len-byte ring (n <= len) run past its end into its start. */
static size_t auxtrace_ring__first_part(size_t len, size_t off, size_t n)
{
	return len - off < n ? len - off : n;
}

static bool auxtrace_ring__differs(const unsigned char *copy, const unsigned char *data,
				   size_t len, size_t off, size_t n)
{
	size_t first = auxtrace_ring__first_part(len, off, n);

	return memcmp(copy, data + off, first) || memcmp(copy + first, data, n - first);
}

static void auxtrace_ring__copy(unsigned char *copy, const unsigned char *data, size_t len,
				size_t off, size_t n)
{
	size_t first = auxtrace_ring__first_part(len, off, n);

	memcpy(copy, data + off, first);
	memcpy(copy + first, data, n - first);
}

/* Is pos strictly between off and off + n, going round a len-byte ring? */
static bool auxtrace_ring__inside(size_t len, size_t off, size_t n, size_t pos)
{
	size_t dist = (pos + len - off) % len;

	return dist && dist < n;
}

/* Has the writer come round to the reference window since the previous snapshot? */
static int auxtrace_snapshot__ref_test(struct auxtrace_backend *be, int idx,
				       const unsigned char *data, size_t len, uint64_t head,
				       bool *wrapped)
{
	size_t n = be->snapshot_ref_size, pos = head % len;
	struct auxtrace_snapshot_ref *ref;
	int err = auxtrace_backend__ref(be, idx, len, &ref);

	if (err)
		return err;
	*wrapped = auxtrace_ring__inside(len, ref->offset, n, pos) ||
		   auxtrace_ring__differs(ref->buf, data, len, ref->offset, n);
	ref->offset = (pos + len - n) % len;
	auxtrace_ring__copy(ref->buf, data, len, ref->offset, n);
	return 0;
}

/* Any non-zero u64 in [from, len) of the buffer (from a multiple of 8)? */
static bool auxtrace_buffer__written(const unsigned char *data, size_t len, size_t from)
{
	size_t i;

	for (i = from; i + 8 <= len; i += 8) {
		uint64_t v;

		memcpy(&v, data + i, sizeof(v));
		if (v)
			return true;
	}
	return false;
}

/* Once the end of the buffer holds data, it has wrapped: from then on, always. */
static int auxtrace_snapshot__sticky_test(struct auxtrace_backend *be, int idx,
					  const unsigned char *data, size_t len, bool *wrapped)
{
	size_t check = (len < KiB(4) ? len : KiB(4)) & ~(size_t)7;
	bool *flag;
	int err = auxtrace_backend__wrapped(be, idx, len, &flag);

	if (err)
		return err;
	if (!*flag)
		*flag = auxtrace_buffer__written(data, len, len - check);
	*wrapped = *flag;
	return 0;
}

int auxtrace_snapshot__tail_rule(struct auxtrace_backend *be, int idx,
				 const unsigned char *data, size_t len,
				 uint64_t *head, uint64_t *old)
{
	bool wrapped;
	int err = be->snapshot_ref_size && be->snapshot_ref_size < len ?
		  auxtrace_snapshot__ref_test(be, idx, data, len, *head, &wrapped) :
		  auxtrace_snapshot__sticky_test(be, idx, data, len, &wrapped);

	if (err)
		return err;
	if (wrapped) {
		*old = *head;
		*head += len;
		return 0;
	}
	/* head is an offset inside the buffer in overwrite mode; make old one too. */
	*old %= len;
	if (*old > *head)
		*head += len;
	return 0;
}

int auxtrace_snapshot__head_rule(struct auxtrace_backend *be, int idx,
				 const unsigned char *data, size_t len,
				 uint64_t *head, uint64_t *old)
{
	size_t from = len < 512 ? 0 : (len - 512) & ~(size_t)7;
	bool *wrapped;
	int err = auxtrace_backend__wrapped(be, idx, len, &wrapped);

	if (err)
		return err;
	if (!*wrapped) {
		/*
		 * Bytes before head are the fresh data: only those from head on tell of a
		 * wrap (from the next whole u64, so the one head stands in is not mistaken).
		 */
		uint64_t after_head = (*head + 7) & ~(uint64_t)7;

		if (*head >= len)
			*wrapped = true;
		else
			*wrapped = auxtrace_buffer__written(data, len,
							    after_head > from ? after_head : from);
	}
	if (!*wrapped)
		return 0;
	if (*head < len)
		*head += len;
	*old = *head - len;
	return 0;
}

int auxtrace_backend__find_snapshot_tail(struct auxtrace_record *itr, int idx,
					 struct auxtrace_mmap *mm, unsigned char *data,
					 uint64_t *head, uint64_t *old)
{
	return auxtrace_snapshot__tail_rule(auxtrace_backend(itr), idx, data,
					    auxtrace_mmap__len(mm), head, old);
}

int auxtrace_backend__find_snapshot_head(struct auxtrace_record *itr, int idx,
					 struct auxtrace_mmap *mm, unsigned char *data,
					 uint64_t *head, uint64_t *old)
{
	return auxtrace_snapshot__head_rule(auxtrace_backend(itr), idx, data,
					    auxtrace_mmap__len(mm), head, old);
}
