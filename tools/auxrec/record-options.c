// SPDX-License-Identifier: LGPL-2.1
/*
 * auxrec record's command line: perf record's letters where they exist, and every value
 * checked before anything is opened, so that a mistake is reported with its cause and the
 * fix instead of a kernel error blamed on an event, or a recording that never stops.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <auxtrace/cpumap.h>
#include "error.h"
#include "record.h"

static const char record_usage[] =
	"usage: auxrec record [options] [-- command [args]]\n"
	"\n"
	"  -e, --event EVENT       perf event: cpu-clock, dummy, sched:sched_switch, sched:*,\n"
	"                          pmu/term=value,.../ukh (repeatable, comma lists allowed)\n"
	"      --filter FILTER     for the events of the -e before it: a tracepoint filter\n"
	"                          ('common_pid == 42'), or address filters of an AUX event\n"
	"                          ('filter main @ ./prog', perf's syntax; repeatable)\n"
	"      --ftrace SYS:EVENT  ftrace events, read from a tracefs instance of auxrec's own;\n"
	"                          globs (sched:*, syscalls:sys_enter_*) or a whole SYSTEM\n"
	"      --ftrace-all-tasks  with -p or a command, the ftrace events of every task (by\n"
	"                          default only the process's and its children's)\n"
	"      --ftrace-mode MODE  splice (default), mapped or read\n"
	"      --ftrace-buffer-kb N  each CPU's ftrace buffer (trace-cmd's -b)\n"
	"                          (--ftrace ftrace:print records the top level's trace_marker)\n"
	"  -g                      callchains: --call-graph fp\n"
	"      --call-graph MODE   callchains: fp (frame pointers), dwarf[,SIZE] (registers and\n"
	"                          SIZE bytes of user stack, default 8192, unwound by perf),\n"
	"                          lbr (the CPU's last branch record), no\n"
	"      --user-callchains   only the user-space part of each callchain\n"
	"      --kernel-callchains only the kernel part of each callchain\n"
	"  -a, --all-cpus          every online CPU\n"
	"  -C, --cpu CPUS          these CPUs (\"0-1,3\")\n"
	"  -p, --pid PID           the threads of a running process (ends when it exits)\n"
	"      --per-thread        one ring per thread instead of one per CPU\n"
	"  -m, --mmap-pages D[,A]  data ring and AUX area sizes: pages or 4K/2M sizes\n"
	"  -S, --snapshot[=e][SIZE] AUX snapshot mode: copy the AUX area on SIGUSR2 (e: and at exit)\n"
	"      --duration SECONDS  stop after this long (default: when the command exits, or ^C)\n"
	"                          (-d is perf's --data, as in perf record)\n"
	"  -F, --freq HZ|max       sample at HZ (default 4000) events that set no period\n"
	"  -c, --count N           sample every N events instead (events that set no period)\n"
	"  -d, --data              sample data addresses (PERF_SAMPLE_ADDR), record data mmaps\n"
	"      --switch-events     record context switches (PERF_RECORD_SWITCH)\n"
	"      --no-bpf-event      no BPF side-band (PERF_RECORD_BPF_EVENT, loaded programs)\n"
	"      --sample-cpu        the CPU in every sample, --per-thread too (else it always is)\n"
	"  -T, --timestamp         a time in every sample (auxrec always records it)\n"
	"  -k, --clockid CLOCK     the events' clock (monotonic, monotonic_raw, boottime, tai,\n"
	"                          realtime, or its number), and the ftrace instance's too\n"
	"  -q, --quiet             errors only: no summary, notes or warnings\n"
	"  -v, --verbose           the library's messages too (-vv: its debug messages)\n"
	"  -o, --output DIR        where perf.data and trace.dat go (default auxrec.data; an\n"
	"                          existing one is kept as DIR.old); -o FILE.data with perf\n"
	"                          events only writes perf.data as FILE.data, as perf; -o -\n"
	"                          streams perf.data in perf's pipe format to stdout (the\n"
	"                          default events then leave their ftrace half out)\n"
	"  -z, --compression-level[=N]  zstd-compress perf.data's records (perf record -z)\n"
	"                          and trace.dat (version 7), level N 1..22 (default 1)\n"
	"  -N, --net HOST:PORT     send the ftrace events to a trace-cmd listen server there\n"
	"                          (trace-cmd record -N), which writes the trace.dat; should it\n"
	"                          go away, the rest is kept in DIR/trace.dat (-o -: in\n"
	"                          ./auxrec-PID.trace.dat); perf.data goes where -o says"
	"\n"
	"With a command and neither -a nor -C, the command's threads are recorded on every CPU.\n"
	"With no -e and no --ftrace, auxrec records this machine's AUX PMU if it has one, else\n"
	"cpu-clock samples with side-band and ftrace sched:sched_switch and sched:sched_wakeup.\n";

enum {
	OPT_FTRACE = 256, OPT_FTRACE_MODE, OPT_FTRACE_BUFFER, OPT_PER_THREAD, OPT_FILTER,
	OPT_CALL_GRAPH, OPT_USER_CALLCHAINS, OPT_KERNEL_CALLCHAINS, OPT_DURATION,
	OPT_SWITCH_EVENTS, OPT_SAMPLE_CPU, OPT_FTRACE_ALL_TASKS, OPT_NO_BPF_EVENT,
};

int record__add(char ***list, int *nr, char *item)
{
	char **n = realloc(*list, (*nr + 1) * sizeof(**list));

	if (!n)
		return -ENOMEM;
	n[(*nr)++] = item;
	*list = n;
	return 0;
}

static int record__parse_pid(struct record *rec, const char *arg)
{
	char *end;
	long long pid;

	errno = 0;
	pid = strtoll(arg, &end, 10);
	if (errno || *end || end == arg || pid <= 0 || pid > INT_MAX) {
		auxrec_error("-p '%s': not a process id (a positive number up to %d)", arg,
			     INT_MAX);
		return -EINVAL;
	}
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
		auxrec_error("-p %lld: no such process", pid);
		return -ESRCH;
	}
	rec->pid = (pid_t)pid;
	return 0;
}

static int record__parse_duration(struct record *rec, const char *arg)
{
	char *end;

	errno = 0;
	rec->duration = strtod(arg, &end);
	/* nan, inf and 1e999 (inf with ERANGE) would record for ever */
	if (errno || *end || end == arg || !isfinite(rec->duration) || rec->duration <= 0 ||
	    rec->duration > 365.0 * 24 * 3600) {
		auxrec_error("--duration '%s': give a positive, finite number of seconds (e.g. 0.5 "
			     "or 10)", arg);
		return -EINVAL;
	}
	return 0;
}

static int record__parse_call_graph(struct record *rec, const char *arg)
{
	char why[256];

	if (callchain_param__parse(&rec->callchain, arg, why, sizeof(why)) == 0) {
		/*
		 * As perf record: dwarf samples data addresses too, which records the data
		 * mappings, the ELF headers' among them, that perf's unwinder places a
		 * program's debug information by.
		 */
		if (rec->callchain.mode == CALLCHAIN_DWARF)
			rec->sample_address = true;
		return 0;
	}
	auxrec_error("--call-graph: %s", why);
	return -EINVAL;
}

static bool record__is_number(const char *s)
{
	char *end;

	strtod(s, &end);
	return end != s && !*end;
}

long record__sysctl(const char *name, long dflt)
{
	char path[128];
	long val = dflt;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "re");
	if (f && fscanf(f, "%ld", &val) != 1)
		val = dflt;
	if (f)
		fclose(f);
	return val;
}

/* kernel.perf_event_max_sample_rate: what -F max means, and the most -F can have */
static unsigned int record__max_sample_rate(void)
{
	long rate = record__sysctl("perf_event_max_sample_rate", 0);

	return rate > 0 && rate <= UINT_MAX ? (unsigned int)rate : 0;
}

/* -F as perf takes it: a frequency in Hz or max; above the kernel's limit, throttled to it. */
static int record__parse_freq(struct record *rec, const char *arg)
{
	unsigned int max = record__max_sample_rate();
	unsigned long long hz;
	char *end;

	if (!strcmp(arg, "max")) {
		if (!max) {
			auxrec_error("-F max: kernel.perf_event_max_sample_rate cannot be read; "
				     "give a frequency in Hz");
			return -EINVAL;
		}
		rec->freq = max;
		return 0;
	}
	errno = 0;
	hz = strtoull(arg, &end, 10);
	if (errno || *end || end == arg || *arg == '-' || !hz || hz > UINT_MAX) {
		auxrec_error("-F '%s': give a sampling frequency in Hz (e.g. 999) or max", arg);
		return -EINVAL;
	}
	if (max && hz > max) {
		fprintf(stderr, "auxrec: -F %llu is above kernel.perf_event_max_sample_rate: "
			"sampling at %u Hz\n", hz, max);
		hz = max;
	}
	rec->freq = (unsigned int)hz;
	return 0;
}

static int record__parse_count(struct record *rec, const char *arg)
{
	char *end;

	errno = 0;
	rec->count = strtoull(arg, &end, 0);
	if (errno || *end || end == arg || *arg == '-' || !rec->count) {
		auxrec_error("-c '%s': give the sampling period, a positive count of events", arg);
		return -EINVAL;
	}
	return 0;
}

static int record__parse_ftrace_mode(struct record *rec, const char *arg)
{
	static const struct { const char *name; enum ftrace_mode mode; } modes[] = {
		{ "splice", FTRACE_SPLICE }, { "mapped", FTRACE_MAPPED }, { "read", FTRACE_READ },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(arg, modes[i].name)) {
			rec->ftrace_mode = modes[i].mode;
			return 0;
		}
	}
	auxrec_error("--ftrace-mode '%s': use splice, mapped or read", arg);
	return -EINVAL;
}

static int record__parse_buffer_kb(struct record *rec, const char *arg)
{
	char *end;
	long kb;

	errno = 0;
	kb = strtol(arg, &end, 10);
	if (errno || *end || end == arg || kb < 1 || kb > 4L << 20) {
		auxrec_error("--ftrace-buffer-kb '%s': give KiB per CPU, 1 to %ld", arg, 4L << 20);
		return -EINVAL;
	}
	rec->ftrace_buffer_kb = (int)kb;
	return 0;
}

/* -z as perf record's: a bare -z is level 1, the fastest; zstd goes to 22. */
static int record__parse_compression(struct record *rec, const char *arg)
{
	char *end;
	long level = arg ? strtol(arg, &end, 10) : 1;

	if (arg && (*end || end == arg || level < 1 || level > 22)) {
		auxrec_error("--compression-level '%s': give a zstd level, 1 (fastest, the "
			     "default) to 22 (smallest)", arg);
		return -EINVAL;
	}
	rec->compression_level = (int)level;
	return 0;
}

/* -C: a CPU list whose every CPU is online, so the recording cannot be silently empty. */
static int record__check_cpu_list(const char *list)
{
	struct perf_cpu_map *cpus, *online;
	char buf[256] = "?";
	int err = 0;

	if (!*list) {
		auxrec_error("-C '': the CPU list is empty; give CPUs such as 0-3,7 (or -a for all)");
		return -EINVAL;
	}
	cpus = perf_cpu_map__new(list);
	if (!cpus) {
		auxrec_error("-C '%s': not a CPU list (%s); give e.g. 0-3,7", list, strerror(errno));
		return -EINVAL;
	}
	online = perf_cpu_map__new_online_cpus();
	if (online && !perf_cpu_map__is_subset(online, cpus)) {
		perf_cpu_map__snprint(online, buf, sizeof(buf));
		auxrec_error("-C '%s': not every CPU in it is online (online CPUs: %s)", list, buf);
		err = -EINVAL;
	}
	perf_cpu_map__put(online);
	perf_cpu_map__put(cpus);
	return err;
}

/*
 * -k as perf takes it: a clock's name (with or without CLOCK_, perf's short forms too) or
 * its number. The ftrace instance runs on the same clock, so that trace.dat and perf.data
 * share one timeline; CLOCK_REALTIME has no trace clock.
 */
static int record__parse_clockid(struct record *rec, const char *arg)
{
	static const struct { const char *name, *alias; int id; const char *trace_clock; } clocks[] = {
		{ "monotonic", "mono", CLOCK_MONOTONIC, "mono" },
		{ "monotonic_raw", "raw", CLOCK_MONOTONIC_RAW, "mono_raw" },
		{ "boottime", "boot", CLOCK_BOOTTIME, "boot" },
		{ "tai", NULL, CLOCK_TAI, "tai" },
		{ "realtime", "real", CLOCK_REALTIME, NULL },
	};
	const char *name = strncasecmp(arg, "CLOCK_", 6) ? arg : arg + 6;
	char *end;
	long id = strtol(arg, &end, 10);

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (strcasecmp(name, clocks[i].name) &&
		    (!clocks[i].alias || strcasecmp(name, clocks[i].alias)) &&
		    (*arg == '\0' || *end || id != clocks[i].id))
			continue;
		rec->clockid = clocks[i].id;
		rec->trace_clock = clocks[i].trace_clock;
		return 0;
	}
	auxrec_error("-k '%s': not a clock perf records with; give monotonic, monotonic_raw, "
		     "boottime, tai or realtime (or its number)", arg);
	return -EINVAL;
}

/* Targets that exclude each other are refused, with what each one means. */
static int record__check_target(struct record *rec)
{
	if (rec->pid && (rec->system_wide || rec->cpu_list)) {
		auxrec_error("-p and %s exclude each other: -p records the process's threads on "
			     "every CPU they run on, %s every task on %s", rec->system_wide ?
			     "-a" : "-C", rec->system_wide ? "-a" : "-C",
			     rec->system_wide ? "every CPU" : "those CPUs");
		return -EINVAL;
	}
	if (rec->per_thread && (rec->system_wide || rec->cpu_list)) {
		auxrec_error("--per-thread and %s exclude each other: a per-thread recording has "
			     "one ring per thread and no CPUs; drop one", rec->system_wide ? "-a" : "-C");
		return -EINVAL;
	}
	if (rec->user_callchains && rec->kernel_callchains) {
		auxrec_error("--user-callchains and --kernel-callchains exclude each other: each "
			     "keeps one half of the chain; give neither for both");
		return -EINVAL;
	}
	if (rec->system_wide && rec->cpu_list) {
		auxrec_error("-a and -C exclude each other: -a is every online CPU");
		return -EINVAL;
	}
	if (rec->pid && rec->argv) {
		auxrec_error("-p and a command exclude each other");
		return -EINVAL;
	}
	if (rec->per_thread && !rec->pid && !rec->argv) {
		auxrec_error("--per-thread needs threads to follow: give a command (-- cmd) or -p PID");
		return -EINVAL;
	}
	if (!rec->argv && !rec->system_wide && !rec->cpu_list && !rec->pid) {
		auxrec_error("nothing to record: give a command (-- cmd), -a, -C CPUS or -p PID");
		return -EINVAL;
	}
	if (rec->cpu_list)
		return record__check_cpu_list(rec->cpu_list);
	return 0;
}

static int record__check_output(struct record *rec)
{
	rec->output_given = rec->output != NULL;
	if (!rec->output)
		rec->output = "auxrec.data";
	rec->to_stdout = !strcmp(rec->output, "-");
	if (rec->to_stdout && rec->nr_ftrace_events && !rec->collector) {
		auxrec_error("-o - streams perf.data only: trace.dat needs a directory; give -o DIR "
			     "with --ftrace (or -N HOST:PORT to send the ftrace events to trace-cmd "
			     "listen)");
		return -EINVAL;
	}
	if (!*rec->output) {
		auxrec_error("-o '': give a directory, or - for perf's pipe format on stdout");
		return -EINVAL;
	}
	if (rec->clockid >= 0 && !rec->trace_clock && rec->nr_ftrace_events) {
		auxrec_error("-k realtime: ftrace has no such clock, so trace.dat could not share "
			     "perf.data's timeline; give -k monotonic, boottime or tai with --ftrace");
		return -EINVAL;
	}
	return 0;
}

int record__parse_args(struct record *rec, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "ftrace", required_argument, NULL, OPT_FTRACE },
		{ "ftrace-mode", required_argument, NULL, OPT_FTRACE_MODE },
		{ "ftrace-all-tasks", no_argument, NULL, OPT_FTRACE_ALL_TASKS },
		{ "ftrace-buffer-kb", required_argument, NULL, OPT_FTRACE_BUFFER },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "user-callchains", no_argument, NULL, OPT_USER_CALLCHAINS },
		{ "kernel-callchains", no_argument, NULL, OPT_KERNEL_CALLCHAINS },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "snapshot", optional_argument, NULL, 'S' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "data", no_argument, NULL, 'd' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "switch-events", no_argument, NULL, OPT_SWITCH_EVENTS },
		{ "no-bpf-event", no_argument, NULL, OPT_NO_BPF_EVENT },
		{ "sample-cpu", no_argument, NULL, OPT_SAMPLE_CPU },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "clockid", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "compression-level", optional_argument, NULL, 'z' },
		{ "net", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, err = 0;

	rec->clockid = -1;
	rec->trace_clock = "perf";	/* perf's own clock, as trace-cmd -C perf */
	optind = 1;
	while (!err && (c = getopt_long(argc, argv, "+e:gaC:p:m:S::dF:c:Tk:o:z::N:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			err = record__add(&rec->events, &rec->nr_events, optarg);
			break;
		case OPT_FILTER:
			err = record__add_filter(rec, optarg);
			break;
		case OPT_FTRACE:
			err = record__add(&rec->ftrace_events, &rec->nr_ftrace_events, optarg);
			break;
		case OPT_FTRACE_ALL_TASKS:
			rec->ftrace_all_tasks = true;
			break;
		case OPT_FTRACE_MODE:
			err = record__parse_ftrace_mode(rec, optarg);
			break;
		case OPT_FTRACE_BUFFER:
			err = record__parse_buffer_kb(rec, optarg);
			break;
		case 'g':	/* perf's default record mode: frame pointers */
			rec->callchain.mode = CALLCHAIN_FP;
			break;
		case OPT_CALL_GRAPH:
			err = record__parse_call_graph(rec, optarg);
			break;
		case OPT_USER_CALLCHAINS:
			rec->user_callchains = true;
			break;
		case OPT_KERNEL_CALLCHAINS:
			rec->kernel_callchains = true;
			break;
		case 'a':
			rec->system_wide = true;
			break;
		case 'C':
			rec->cpu_list = optarg;
			break;
		case 'p':
			err = record__parse_pid(rec, optarg);
			break;
		case OPT_PER_THREAD:
			rec->per_thread = true;
			break;
		case 'm':
			rec->mmap_pages = optarg;
			break;
		case 'S':
			rec->snapshot = optarg ? optarg : "";
			break;
		case OPT_DURATION:
			err = record__parse_duration(rec, optarg);
			break;
		case 'd':
			rec->sample_address = true;
			rec->data_letter = true;
			break;
		case 'F':
			err = record__parse_freq(rec, optarg);
			break;
		case 'c':
			err = record__parse_count(rec, optarg);
			break;
		case OPT_NO_BPF_EVENT:
			rec->no_bpf_event = true;
			break;
		case OPT_SWITCH_EVENTS:
			rec->switch_events = true;
			break;
		case OPT_SAMPLE_CPU:
			rec->sample_cpu = true;
			break;
		case 'T':	/* every sample has its time already: perf.data needs it to sort */
			break;
		case 'q':	/* below "auxrec -v": the library's warnings go too */
			rec->quiet = true;
			auxrec_verbose = -1;
			break;
		case 'v':	/* as auxrec -v record */
			auxrec_verbose = auxrec_verbose < 0 ? 1 : auxrec_verbose + 1;
			break;
		case 'k':
			err = record__parse_clockid(rec, optarg);
			break;
		case 'o':
			rec->output = optarg;
			break;
		case 'z':
			err = record__parse_compression(rec, optarg);
			break;
		case 'N':
			rec->collector = optarg;
			break;
		case 'h':
			fputs(record_usage, stdout);
			rec->help = true;
			return 0;
		default:
			fputs(record_usage, stderr);
			return -EINVAL;
		}
	}
	if (err)
		return err;
	if (optind < argc)
		rec->argv = argv + optind;
	if (rec->freq && rec->count) {
		auxrec_error("-F and -c exclude each other: -F samples at a frequency, -c every N "
			     "events; give one");
		return -EINVAL;
	}
	/* "-d 10" from auxrec before it followed perf: 10 is no command, say what -d is now */
	if (rec->data_letter && rec->argv && record__is_number(rec->argv[0])) {
		auxrec_error("-d is perf's --data (sample addresses), not a duration: give "
			     "--duration %s", rec->argv[0]);
		return -EINVAL;
	}
	err = record__check_target(rec);
	if (!err)
		err = record__check_net(rec);
	return err ? err : record__check_output(rec);
}
