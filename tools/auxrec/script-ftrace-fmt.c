// SPDX-License-Identifier: LGPL-2.1
/*
 * Compiled print formats (script-ftrace-fmt.h). libtraceevent reads a field as an unsigned
 * number of its size, applies a cast to it, and hands it to printf as the conversion's length
 * says (int, short, char, or 64 bits): the same steps here, for the subset that is certain
 * to come out the same.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include "script-ftrace-fmt.h"
#include "script-line.h"

enum fmt_kind {
	FMT_NUM,			/* %d %i %u %x */
	FMT_STR,			/* %s of a char array: up to its NUL */
	FMT_SYM,			/* %ps of an address: the function's name */
};

/* One conversion and the text before it. */
struct fmt_op {
	size_t text, text_len;		/* in fmt->text */
	enum fmt_kind kind;
	int offset, size;		/* the field in the payload; size 0: to its end */
	int width;
	int bits;			/* the conversion's length: 8, 16, 32 or 64 */
	bool zero_pad, hex, is_signed;
};

struct ftrace_fmt {
	struct tep_handle *tep;		/* kallsyms, for %ps */
	uint64_t sym_addr;		/* the last %ps: trace_marker's lines share one */
	const char *sym;
	char *text;			/* the format's literal text, "%%" as '%' */
	size_t tail, tail_len;		/* the text after the last conversion */
	int nr_ops;
	uint32_t min_size;		/* payload bytes the fields need */
	struct fmt_op ops[];
};

/* The casts that keep a 64-bit value as it is: what the syscall events use. */
static bool cast_keeps_value(const char *type)
{
	return !strcmp(type, "unsigned long") || !strcmp(type, "unsigned long long") ||
	       !strcmp(type, "u64");
}

/*
 * The field a conversion of this kind prints: for a number a fixed field, or one cast to a
 * type that keeps its value; for %s a char array in the record (not __string's dynamic
 * one); for %ps an address cast to (void *). NULL otherwise.
 */
static struct tep_format_field *arg_field(struct tep_event *event, struct tep_print_arg *arg,
					  enum fmt_kind kind)
{
	struct tep_format_field *field;
	bool cast = arg && arg->type == TEP_PRINT_TYPE;

	if (cast && (kind == FMT_SYM ? !strcmp(arg->typecast.type, "void *") :
		     kind == FMT_NUM && cast_keeps_value(arg->typecast.type)))
		arg = arg->typecast.item;
	else if (cast || kind == FMT_SYM)
		return NULL;
	if (!arg || arg->type != TEP_PRINT_FIELD)
		return NULL;
	field = tep_find_field(event, arg->field.name);
	if (!field || field->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE))
		return NULL;
	if (kind == FMT_STR)
		return (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ==
		       (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING) ? field : NULL;
	if (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))
		return NULL;
	if (kind == FMT_SYM)
		return field->size == 8 ? field : NULL;
	if (field->size != 1 && field->size != 2 && field->size != 4 && field->size != 8)
		return NULL;
	return field;
}

/*
 * "%[0][width][hh|h|l|ll](d|i|u|x)", "%s" or "%ps" at *p, past the '%'; false for anything
 * else.
 */
static bool parse_conversion(const char **p, struct fmt_op *op)
{
	const char *s = *p;
	int length = 0;

	if (*s == 's' || (s[0] == 'p' && s[1] == 's')) {
		op->kind = *s == 's' ? FMT_STR : FMT_SYM;
		*p = s + (*s == 's' ? 1 : 2);
		return true;
	}
	op->kind = FMT_NUM;
	op->zero_pad = *s == '0';
	if (op->zero_pad)
		s++;
	op->width = 0;
	while (*s >= '0' && *s <= '9')
		op->width = op->width * 10 + (*s++ - '0');
	for (; *s == 'l' && length < 2; s++)
		length++;
	for (; *s == 'h' && length > -2; s++)
		length--;
	op->bits = length > 0 ? 64 : length == 0 ? 32 : length == -1 ? 16 : 8;
	op->hex = *s == 'x';
	op->is_signed = *s == 'd' || *s == 'i';
	if (!op->hex && !op->is_signed && *s != 'u')
		return false;
	*p = s + 1;
	return true;
}

static bool compilable(struct tep_event *event)
{
	struct tep_handle *tep = event->tep;

	return !event->handler && event->print_fmt.format &&
	       !(event->flags & (TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_ISFUNCENT |
				 TEP_EVENT_FL_ISFUNCRET | TEP_EVENT_FL_FAILED |
				 TEP_EVENT_FL_PRINTRAW)) &&
	       tep_get_long_size(tep) == 8 &&
	       tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
}

struct ftrace_fmt *ftrace_fmt__compile(struct tep_event *event)
{
	const char *p = event->print_fmt.format;
	struct tep_print_arg *arg = event->print_fmt.args;
	struct ftrace_fmt *fmt;
	size_t len = 0, nr = 0;

	if (!compilable(event))
		return NULL;
	for (const char *s = p; *s; s++)
		nr += *s == '%';
	fmt = calloc(1, sizeof(*fmt) + nr * sizeof(fmt->ops[0]));
	if (!fmt || !(fmt->text = malloc(strlen(p) + 1))) {
		free(fmt);
		return NULL;
	}
	fmt->tep = event->tep;
	while (*p) {
		struct fmt_op *op = &fmt->ops[fmt->nr_ops];
		struct tep_format_field *field;

		if (*p != '%' || p[1] == '%') {
			fmt->text[len++] = *p;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		p++;
		if (!parse_conversion(&p, op) || !(field = arg_field(event, arg, op->kind)))
			goto fallback;
		op->text = fmt->tail;
		op->text_len = len - fmt->tail;
		op->offset = field->offset;
		op->size = field->size;
		if ((uint32_t)(field->offset + field->size) > fmt->min_size)
			fmt->min_size = (uint32_t)(field->offset + field->size);
		fmt->tail = len;
		fmt->nr_ops++;
		arg = arg->next;
	}
	if (arg)
		goto fallback;		/* more arguments than conversions */
	fmt->tail_len = len - fmt->tail;
	return fmt;
fallback:
	ftrace_fmt__delete(fmt);
	return NULL;
}

void ftrace_fmt__delete(struct ftrace_fmt *fmt)
{
	if (fmt)
		free(fmt->text);
	free(fmt);
}

static uint64_t read_field(const unsigned char *data, int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, data, 1);
		return v8;
	case 2:
		memcpy(&v16, data, 2);
		return v16;
	case 4:
		memcpy(&v32, data, 4);
		return v32;
	default:
		memcpy(&v64, data, 8);
		return v64;
	}
}

/* val as printf shows it after the conversion's length cut it to op->bits. */
static void print_value(const struct fmt_op *op, uint64_t val, struct script_line *l)
{
	int shift = 64 - op->bits;
	int64_t sval;
	uint64_t mag;
	int digits = 1;

	if (!op->is_signed) {
		script_line__u64(l, shift ? val << shift >> shift : val, op->width, op->hex,
				 op->zero_pad);
		return;
	}
	sval = (int64_t)(val << shift) >> shift;
	if (sval >= 0) {
		script_line__u64(l, (uint64_t)sval, op->width, false, op->zero_pad);
		return;
	}
	mag = -(uint64_t)sval;
	for (uint64_t m = mag; m >= 10; m /= 10)
		digits++;
	if (!op->zero_pad)
		script_line__str(l, "", op->width - digits - 1);
	script_line__char(l, '-');
	script_line__u64(l, mag, op->zero_pad ? op->width - 1 : 0, false, op->zero_pad);
}

/* One conversion's text; false when libtraceevent must print it (an unknown address). */
static bool print_op(struct ftrace_fmt *fmt, const struct fmt_op *op,
		     const unsigned char *data, uint32_t size, struct script_line *l)
{
	const char *s;

	switch (op->kind) {
	case FMT_STR:
		s = (const char *)data + op->offset;
		script_line__bytes(l, s, strnlen(s, op->size ? (size_t)op->size :
						   size - (size_t)op->offset));
		return true;
	case FMT_SYM:
		if (!fmt->sym || fmt->sym_addr != read_field(data + op->offset, 8)) {
			fmt->sym_addr = read_field(data + op->offset, 8);
			fmt->sym = tep_find_function(fmt->tep, fmt->sym_addr);
		}
		if (fmt->sym)
			script_line__str(l, fmt->sym, 0);
		return fmt->sym;
	default:
		print_value(op, read_field(data + op->offset, op->size), l);
		return true;
	}
}

bool ftrace_fmt__print(struct ftrace_fmt *fmt, const void *data, uint32_t size,
		       struct script_line *l)
{
	size_t start = l->len;

	if (size < fmt->min_size)
		return false;
	for (int i = 0; i < fmt->nr_ops; i++) {
		const struct fmt_op *op = &fmt->ops[i];

		script_line__bytes(l, fmt->text + op->text, op->text_len);
		if (!print_op(fmt, op, data, size, l)) {
			l->len = start;
			return false;
		}
	}
	script_line__bytes(l, fmt->text + fmt->tail, fmt->tail_len);
	return true;
}
