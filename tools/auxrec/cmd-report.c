// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec report [-D | --html [-o FILE]] [DIR | FILE]: what a recording holds, from its files.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "error.h"
#include "recording-file.h"
#include "report.h"
#include "report-html.h"

#define REPORT_DEFAULT_DIR	"auxrec.data"

static const char report_usage[] =
	"usage: auxrec report [-D | --html [-o FILE]] [DIR | FILE]\n"
	"\n"
	"What a recording holds, read from its files: DIR/perf.data and, when ftrace events\n"
	"were recorded, DIR/trace.dat (DIR: " REPORT_DEFAULT_DIR " by default), or one file of\n"
	"either kind. Per source (perf samples, side-band, AUX, ftrace) and per CPU: bytes,\n"
	"records, every kind of loss, the time span and the start's date. What ran: per task its\n"
	"time on CPU (from sched_switch or context-switch records), samples and events; per\n"
	"event its records per CPU, first and last; the top symbols of each sampled event.\n"
	"\n"
	"  -D, --dump-raw-trace  every perf.data record, as perf report -D shows it, AUX data\n"
	"                        through its decoder (Intel PT packets, BTS branches)\n"
	"  --html                a self-contained page with the timeline (DIR/report.html)\n"
	"  -o, --output FILE     where the page goes\n"
	"  -h, --help            this text\n";

enum { OPT_HTML = 256 };

static const unsigned char perf_magic[8] = "PERFILE2";
static const unsigned char trace_magic[10] = "\x17\x08\x44tracing";

static char *path_join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* Which kind of file path is, from its first bytes: 'p' perf.data, 't' trace.dat, 0. */
static int file_kind(const char *path)
{
	unsigned char head[16] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return -errno;
	/* perf.data in either byte order, and the pipe format's magic too */
	if (!memcmp(head, perf_magic, 8) || !memcmp(head, "2ELIFREP", 8))
		return 'p';
	if (!memcmp(head, trace_magic, sizeof(trace_magic)))
		return 't';
	return 0;
}

int report_input__init(struct report_input *in, const char *arg)
{
	bool by_default = !arg;
	struct stat st;
	int kind;

	memset(in, 0, sizeof(*in));
	arg = arg ? arg : REPORT_DEFAULT_DIR;
	in->where = strdup(arg);
	if (!in->where)
		return -ENOMEM;
	if (stat(arg, &st)) {
		int err = -errno;

		auxrec_error("%s: %s%s", arg, strerror(errno), by_default && errno == ENOENT ?
			     " (auxrec record writes there; or name a recording)" : "");
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		in->perf_path = path_join(arg, "perf.data");
		in->trace_path = path_join(arg, "trace.dat");
		if (!in->perf_path || !in->trace_path)
			return -ENOMEM;
		if (access(in->perf_path, F_OK)) {
			int err = -errno;

			auxrec_error("%s: %s: %s is not a recording directory (auxrec record writes perf.data there)",
				     in->perf_path, strerror(errno), arg);
			return err;
		}
		kind = recording_file__check(in->perf_path);
		if (!kind)
			kind = recording_file__optional(in->trace_path);
		if (kind == 0) {
			free(in->trace_path);
			in->trace_path = NULL;
		}
		return kind < 0 ? kind : 0;
	}
	kind = recording_file__check(arg);
	if (kind)
		return kind;
	kind = file_kind(arg);
	if (kind == 'p' || kind == 't') {
		*(kind == 'p' ? &in->perf_path : &in->trace_path) = strdup(arg);
		return in->perf_path || in->trace_path ? 0 : -ENOMEM;
	}
	if (kind < 0)
		auxrec_error("%s: %s", arg, strerror(-kind));
	else
		auxrec_error("%s: neither perf.data (PERFILE2) nor trace.dat (\\x17\\x08\\x44tracing) by its first bytes",
			     arg);
	return kind < 0 ? kind : -EINVAL;
}

void report_input__exit(struct report_input *in)
{
	free(in->where);
	free(in->perf_path);
	free(in->trace_path);
}

/* The page into a temporary file beside out, renamed to out only when it is whole. */
static int report_html__save(const struct report_data *d, const char *out)
{
	char *tmp;
	FILE *f;
	int err = 0;

	if (asprintf(&tmp, "%s.XXXXXX", out) < 0)
		return -ENOMEM;
	{
		int fd = mkstemp(tmp);

		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			err = -errno;
			auxrec_error("cannot create %s: %s", tmp, strerror(errno));
			if (fd >= 0)
				close(fd);
			free(tmp);
			return err;
		}
	}
	fchmod(fileno(f), 0644);
	if (report_html__write(f, d->m) < 0)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, out))
		err = -errno;
	if (err) {
		auxrec_error("cannot write %s: %s", out, strerror(-err));
		unlink(tmp);
	}
	free(tmp);
	return err;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "html", no_argument, NULL, OPT_HTML },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *input = NULL;
	bool dump = false, html = false;
	int nr_inputs = 0;
	struct report_input in;
	struct report_data d;
	char *page = NULL;
	int c, err;

	/*
	 * Options go anywhere, as in perf (auxrec report --html DIR -o FILE): the leading '-'
	 * hands each non-option over in its place, whatever POSIXLY_CORRECT says.
	 */
	optind = 1;
	while ((c = getopt_long(argc, argv, "-Do:h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			input = input ? input : optarg;
			nr_inputs++;
			break;
		case 'D':
			dump = true;
			break;
		case OPT_HTML:
			html = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			fputs(report_usage, stderr);
			return 2;
		}
	}
	for (; optind < argc; optind++, nr_inputs++)	/* what follows "--" */
		input = input ? input : argv[optind];
	if (nr_inputs > 1 || (dump && html) || (out && !html)) {
		auxrec_error(nr_inputs > 1 ? "report takes one directory or file" :
			     out ? "-o names the page: it goes with --html" :
			     "-D and --html are two different reports: choose one");
		fputs(report_usage, stderr);
		return 2;
	}
	err = report_input__init(&in, input);
	if (err)
		goto out;
	if (dump) {
		if (!in.perf_path) {
			auxrec_error("%s: -D shows perf.data records, and this is a trace.dat (trace-cmd report shows its events)",
				     in.where);
			err = -EINVAL;
		} else {
			err = report_dump__print(stdout, in.perf_path);
		}
		goto out;
	}
	err = report_data__read(&d, &in);
	if (err)
		goto out;
	if (html) {
		struct stat st;

		if (!out)
			page = stat(in.where, &st) == 0 && S_ISDIR(st.st_mode) ?
			       path_join(in.where, "report.html") : strdup("report.html");
		err = out || page ? report_html__save(&d, out ? out : page) : -ENOMEM;
		if (!err)
			printf("%s\n", out ? out : page);
	} else {
		report_text__print(stdout, &d);
	}
	report_data__exit(&d);
out:
	report_input__exit(&in);
	free(page);
	return err ? 1 : 0;
}
