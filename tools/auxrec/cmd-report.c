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
#include "report.h"
#include "recording-file.h"
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
	"One walk over both files in time order; files on different clocks are each reported,\n"
	"saying so; a damaged file is named with the offset, what was read before it reported.\n"
	"\n"
	"  -D, --dump-raw-trace  every perf.data record, as perf report -D shows it, AUX data\n"
	"                        through its decoder (Intel PT packets, BTS branches)\n"
	"  --html                a self-contained page with the timeline (DIR/report.html)\n"
	"  -o, --output FILE     where the page goes\n"
	"  -h, --help            this text\n";

enum { OPT_HTML = 256 };

static char *path_join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * What is there is checked before the opener opens it: a FIFO is never opened (the opener
 * reads a file's magic, then opens it again: a FIFO's second open waits for ever), and a
 * directory's trace.dat that is there but cannot be read is an error, not a report without
 * the ftrace side.
 */
static int report_input__check(const struct report_input *in)
{
	char *perf, *trace;
	int err;

	if (!is_dir(in->where))
		return recording_file__check(in->where);
	perf = path_join(in->where, "perf.data");
	trace = path_join(in->where, "trace.dat");
	err = perf && trace ? recording_file__optional(perf) : -ENOMEM;
	err = err < 0 ? err : recording_file__optional(trace);
	free(perf);
	free(trace);
	return err < 0 ? err : 0;
}

int report_input__init(struct report_input *in, const char *arg)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->named = arg;
	in->where = strdup(arg ? arg : REPORT_DEFAULT_DIR);
	if (!in->where)
		return -ENOMEM;
	if (stat(in->where, &st)) {
		int err = -errno;

		auxrec_error("%s: %s%s", in->where, strerror(errno), !arg && errno == ENOENT ?
			     " (auxrec record writes there; or name a recording)" : "");
		return err;
	}
	recording_file__say_unfinished(in->where);
	return report_input__check(in);
}

void report_input__exit(struct report_input *in)
{
	free(in->where);
	free(in->perf_path);
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
	if (report_html__write(f, d->m, d->sched) < 0)
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
		/* -D reads perf.data alone: a directory's, or the file named */
		in.perf_path = is_dir(in.where) ? path_join(in.where, "perf.data")
						: strdup(in.where);
		err = in.perf_path ? report_dump__print(stdout, in.perf_path) : -ENOMEM;
		goto out;
	}
	in.tasks = html;
	err = report_data__read(&d, &in);
	if (err)
		goto out;
	/* a damaged file: the text still shows what was read; no page stands for the whole */
	err = d.read_error;
	if (html && !err) {
		if (!out)
			page = is_dir(in.where) ? path_join(in.where, "report.html")
						: strdup("report.html");
		err = out || page ? report_html__save(&d, out ? out : page) : -ENOMEM;
		if (!err)
			printf("%s\n", out ? out : page);
	} else if (!html) {
		report_text__print(stdout, &d);
	}
	report_data__exit(&d);
out:
	report_input__exit(&in);
	free(page);
	return err ? 1 : 0;
}
