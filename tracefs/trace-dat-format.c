// SPDX-License-Identifier: LGPL-2.1
/*
 * What an event format from a file must look like before libtraceevent parses it: the
 * kernel's layout of events/<system>/<event>/format. libtraceevent 1.7 trusts the text (an
 * unclosed bracket in a field, or a size that takes in the next format, crashes it), so a
 * file's format is held to that layout first: name, ID, format:, field lines with balanced
 * brackets, and a print fmt whose quotes and parentheses close.
 */
#include <stdbool.h>
#include <string.h>

#include "trace-dat-format.h"

struct fmt_text {
	const char *p, *end;
};

static bool fmt_text__skip(struct fmt_text *t, const char *lit)
{
	size_t len = strlen(lit);

	if ((size_t)(t->end - t->p) < len || memcmp(t->p, lit, len))
		return false;
	t->p += len;
	return true;
}

/* One or more characters of set; false when there is none. */
static bool fmt_text__span(struct fmt_text *t, const char *set)
{
	const char *start = t->p;

	while (t->p < t->end && *t->p && strchr(set, *t->p))
		t->p++;
	return t->p > start;
}

#define FMT_IDENT	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
#define FMT_DIGITS	"0123456789"

/*
 * "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n". Outside brackets a
 * declaration is a type and a name: two names or more, with spaces and '*' (libtraceevent
 * 1.7 leaks a token of anything else, such as "unsign:d short" or "intxcommon_pid"); an
 * array's size may be an expression.
 */
static bool fmt_text__field(struct fmt_text *t)
{
	int depth = 0, names = 0;

	if (!fmt_text__skip(t, "\tfield:"))
		return false;
	for (; t->p < t->end && *t->p != ';'; t->p++) {
		if (*t->p == '[' || (depth && *t->p == '('))
			depth++;
		else if (*t->p == ']' || (depth && *t->p == ')'))
			depth--;
		else if (!strchr(depth ? FMT_IDENT " *:,-+<>" : FMT_IDENT " *", *t->p))
			return false;
		else if (!depth && strchr(FMT_IDENT, *t->p) && !strchr(FMT_IDENT, t->p[-1]))
			names++;	/* t->p[-1] is at worst the ':' of "field:" */
		if (depth < 0 || depth > 4)
			return false;
	}
	return depth == 0 && names >= 2 && fmt_text__skip(t, ";\toffset:") && fmt_text__span(t, FMT_DIGITS) &&
	       fmt_text__skip(t, ";\tsize:") && fmt_text__span(t, FMT_DIGITS) &&
	       fmt_text__skip(t, ";\tsigned:") && fmt_text__span(t, FMT_DIGITS) &&
	       fmt_text__skip(t, ";") && (fmt_text__skip(t, "\n") || t->p == t->end);
}

static const char *fmt_text__blanks(const char *p, const char *end, bool parens)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || (parens && *p == '(')))
		p++;
	return p;
}

/*
 * Whether the operand after a '/' or '%' at p is one the kernel's formats divide by: a
 * number other than 0, or a sizeof(...). libtraceevent folds the arguments it can and
 * divides by whatever it made of the rest, 0 for a string, a name it does not know, or a
 * "sizeof" without its parenthesis.
 */
static bool fmt_text__divisor_ok(const char *p, const char *end)
{
	bool nonzero = false;

	p = fmt_text__blanks(p, end, true);
	if ((size_t)(end - p) >= 6 && !memcmp(p, "sizeof", 6)) {
		p = fmt_text__blanks(p + 6, end, false);
		return p < end && *p == '(';
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	if (end - p > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end && strchr("0123456789abcdefABCDEF", *p); p++)
		nonzero |= *p != '0';
	return nonzero;
}

/*
 * A quoted format, then arguments, to the end of the text: quotes close, parentheses
 * balance (the kernel's formats may break lines inside their strings), divisions by what
 * the kernel divides by.
 */
static bool fmt_text__print_fmt(struct fmt_text *t)
{
	char quote = '"';	/* in the format string first */
	int depth = 0;

	if (!fmt_text__skip(t, "print fmt: \""))
		return false;
	for (; t->p < t->end; t->p++) {
		char c = *t->p;

		if (quote) {
			if (c == '\\' && t->p + 1 < t->end)
				t->p++;
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			quote = c;
		else if ((c == '/' || c == '%') && !fmt_text__divisor_ok(t->p + 1, t->end))
			return false;
		else if (c == '(' || c == '[')
			depth++;
		else if (c == ')' || c == ']')
			depth--;
		if (depth < 0 || depth > 32)
			return false;
	}
	return !quote && depth == 0;
}

const char *td_format__check(const char *text, size_t len)
{
	struct fmt_text t = { text, text + len };

	for (size_t i = 0; i < len; i++)
		if ((text[i] < ' ' || text[i] > '~') && text[i] != '\t' && text[i] != '\n')
			return "a byte that is not printable text";
	if (!fmt_text__skip(&t, "name: ") || !fmt_text__span(&t, FMT_IDENT) ||
	    !fmt_text__skip(&t, "\nID: ") || !fmt_text__span(&t, FMT_DIGITS) ||
	    !fmt_text__skip(&t, "\nformat:\n"))
		return "no 'name:', 'ID:' and 'format:' lines at its start";
	while (!fmt_text__skip(&t, "\nprint fmt: ")) {
		if (fmt_text__skip(&t, "\n"))
			continue;
		if (!fmt_text__field(&t))
			return "a field line that is not '\\tfield:<declaration>;\\toffset:<n>;\\tsize:<n>;\\tsigned:<n>;'";
	}
	t.p -= strlen("print fmt: ");
	return fmt_text__print_fmt(&t) ? NULL :
	       "a print fmt that is not a quoted format and arguments whose parentheses close (and that divide only by numbers or sizeof)";
}

/*
 * printk_formats: lines of '0x<address> : "<format>"'. libtraceevent 1.7 reads past a line
 * without the quotes, so only text of that shape is given to it.
 */
const char *td_printk__check(const char *text, size_t len)
{
	struct fmt_text t = { text, text + len };

	while (t.p < t.end) {
		const char *nl = memchr(t.p, '\n', (size_t)(t.end - t.p));
		const char *eol = nl ? nl : t.end;

		if (eol > t.p && (!fmt_text__skip(&t, "0x") ||
				  !fmt_text__span(&t, FMT_DIGITS "abcdefABCDEF") ||
				  !fmt_text__skip(&t, " : \"") || t.p >= eol || eol[-1] != '"' ||
				  memchr(t.p, 0, (size_t)(eol - t.p))))
			return "a line that is not '0x<address> : \"<format>\"'";
		t.p = nl ? nl + 1 : t.end;
	}
	return NULL;
}
