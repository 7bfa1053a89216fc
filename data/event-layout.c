// SPDX-License-Identifier: LGPL-2.1
/*
 * The fixed fields of each record type, as a little format string: enough to check that a
 * record holds them (and that its strings end), and to swap a foreign record field by field.
 *
 *	'2' '4' '8'  an integer of that many bytes
 *	'x'          4 bytes that are not an integer (tags, build IDs, messages)
 *	'f'          8 bytes of C bit-fields: a foreign compiler numbered the bits the other way
 *	'*'          u64s up to the end (of the body, before a trailer)
 *	's'          a NUL-terminated string up to the end
 *	'r'          bytes up to the end
 */
#include <internal/session.h>

struct perf_event_layout {
	uint16_t min_size;	/* header included */
	const char *fmt;
};

#define MMAP2_FMT(u) "44888" u "44s"

static const struct perf_event_layout perf_event_layouts[] = {
	[PERF_RECORD_MMAP]		= { 40, "44888s" },
	[PERF_RECORD_LOST]		= { 24, "88" },
	[PERF_RECORD_COMM]		= { 16, "44s" },
	[PERF_RECORD_EXIT]		= { 32, "44448" },
	[PERF_RECORD_THROTTLE]		= { 32, "888" },
	[PERF_RECORD_UNTHROTTLE]	= { 32, "888" },
	[PERF_RECORD_FORK]		= { 32, "44448" },
	[PERF_RECORD_READ]		= { 24, "44*" },
	[PERF_RECORD_MMAP2]		= { 72, MMAP2_FMT("4488") },
	[PERF_RECORD_AUX]		= { 32, "888" },
	[PERF_RECORD_ITRACE_START]	= { 16, "44" },
	[PERF_RECORD_LOST_SAMPLES]	= { 16, "8" },
	[PERF_RECORD_SWITCH]		= { 8, "" },
	[PERF_RECORD_SWITCH_CPU_WIDE]	= { 16, "44" },
	[PERF_RECORD_NAMESPACES]	= { 24, "44*" },
	[PERF_RECORD_KSYMBOL]		= { 24, "8422s" },
	[PERF_RECORD_BPF_EVENT]		= { 24, "224xx" },
	[PERF_RECORD_CGROUP]		= { 16, "8s" },
	[PERF_RECORD_TEXT_POKE]		= { 20, "822r" },
	[PERF_RECORD_AUX_OUTPUT_HW_ID]	= { 16, "8" },
	[PERF_RECORD_HEADER_ATTR]	= { 8 + PERF_ATTR_SIZE_VER0, "" },	/* see below */
	[PERF_RECORD_HEADER_TRACING_DATA] = { 16, "44" },
	[PERF_RECORD_HEADER_BUILD_ID]	= { 36, "4xxxxxxs" },
	[PERF_RECORD_FINISHED_ROUND]	= { 8, "" },
	[PERF_RECORD_ID_INDEX]		= { 16, "*" },
	[PERF_RECORD_AUXTRACE_INFO]	= { 16, "44*" },
	[PERF_RECORD_AUXTRACE]		= { 48, "8884444" },
	[PERF_RECORD_AUXTRACE_ERROR]	= { 40, "44444488xxxxxxxxxxxxxxxx44" },
	[PERF_RECORD_EVENT_UPDATE]	= { 24, "88r" },
	[PERF_RECORD_TIME_CONV]		= { 32, "88888xx" },
	[PERF_RECORD_HEADER_FEATURE]	= { 16, "8r" },
	[PERF_RECORD_FINISHED_INIT]	= { 8, "" },
};

/* An attr, by PERF_ATTR_SIZE_VER8 (the bit-field word after read_format). */
static const char perf_event_attr_fmt[] = "448888f4488884484224488";

/* C bit-fields are numbered from the other end of each byte by a foreign compiler. */
static uint8_t byte__reverse_bits(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

static void field__swap(unsigned char *p, char code)
{
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	int i;

	switch (code) {
	case '2':
		memcpy(&v16, p, 2);
		v16 = __builtin_bswap16(v16);
		memcpy(p, &v16, 2);
		break;
	case '4':
		memcpy(&v32, p, 4);
		v32 = __builtin_bswap32(v32);
		memcpy(p, &v32, 4);
		break;
	case '8':
		memcpy(&v64, p, 8);
		v64 = __builtin_bswap64(v64);
		memcpy(p, &v64, 8);
		break;
	case 'f':
		for (i = 0; i < 8; i++)
			p[i] = byte__reverse_bits(p[i]);
		break;
	}
}

static size_t field__size(char code)
{
	switch (code) {
	case '2': return 2;
	case '4': case 'x': return 4;
	default: return 8;
	}
}

/*
 * Walk fmt over [p, end). Fixed fields that do not fit end the walk quietly (min_size
 * checked what must be there). Returns 0, or -1 when a string has no NUL.
 */
static int layout__walk(const char *fmt, unsigned char *p, unsigned char *end, bool swap)
{
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case '*':
			for (; end - p >= 8; p += 8)
				if (swap)
					field__swap(p, '8');
			return 0;
		case 's':
			return p < end && memchr(p, 0, end - p) ? 0 : -1;
		case 'r':
			return 0;
		default:
			if ((size_t)(end - p) < field__size(*fmt))
				return 0;
			if (swap)
				field__swap(p, *fmt);
			p += field__size(*fmt);
		}
	}
	return 0;
}

bool perf_event__has_layout(uint32_t type)
{
	return type < ARRAY_SIZE(perf_event_layouts) && perf_event_layouts[type].fmt;
}

void perf_event_attr__swap(struct perf_event_attr *attr, size_t size)
{
	layout__walk(perf_event_attr_fmt, (unsigned char *)attr, (unsigned char *)attr + size,
		     true);
}

size_t perf_sample_id__size(const struct perf_event_attr *attr)
{
	if (!attr->sample_id_all)
		return 0;
	return 8 * __builtin_popcountll(attr->sample_type &
					(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
					 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
					 PERF_SAMPLE_IDENTIFIER));
}

/* HEADER_ATTR: the attr (its own size), then u64 IDs. */
static int perf_event__check_attr_layout(struct perf_session *s, union perf_event *event,
					 uint64_t offset, bool swap)
{
	unsigned char *body = (unsigned char *)&event->attr.attr;
	unsigned char *end = (unsigned char *)event + event->header.size;
	uint32_t attr_size = perf_u32(body + 4, swap);

	if (!attr_size)
		attr_size = PERF_ATTR_SIZE_VER0;
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > (size_t)(end - body) ||
	    (end - body - attr_size) % 8)
		return perf_session__corrupt(s, offset, "HEADER_ATTR of %u bytes cannot hold "
					     "an attr of %u bytes and whole u64 IDs",
					     event->header.size, attr_size);
	if (swap) {
		perf_event_attr__swap(&event->attr.attr, attr_size < sizeof(struct perf_event_attr) ?
				      attr_size : sizeof(struct perf_event_attr));
		layout__walk("*", body + attr_size, end, true);
	}
	return 0;
}

int perf_event__check_layout(struct perf_session *s, union perf_event *event, uint64_t offset,
			     size_t trailer_size, bool swap)
{
	uint32_t type = event->header.type;
	const struct perf_event_layout *l;
	unsigned char *body = (unsigned char *)event + sizeof(event->header);
	unsigned char *end = (unsigned char *)event + event->header.size;
	const char *fmt;
	char name[32];

	if (!perf_event__has_layout(type))
		return 0;	/* the caller decides about types without a layout */
	l = &perf_event_layouts[type];
	if (event->header.size < l->min_size + trailer_size)
		return perf_session__corrupt(s, offset, "a %s record of %u bytes is shorter than "
					     "its fields (%zu bytes)",
					     perf_event__name(type, name, sizeof(name)),
					     event->header.size, l->min_size + trailer_size);
	if (type == PERF_RECORD_HEADER_ATTR)
		return perf_event__check_attr_layout(s, event, offset, swap);
	fmt = l->fmt;
	if (type == PERF_RECORD_MMAP2 && (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		fmt = MMAP2_FMT("xxxxxx");
	if (layout__walk(fmt, body, end - trailer_size, swap))
		return perf_session__corrupt(s, offset, "the string of a %s record of %u bytes "
					     "has no terminating NUL",
					     perf_event__name(type, name, sizeof(name)),
					     event->header.size);
	return 0;
}
