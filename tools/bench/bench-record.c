// SPDX-License-Identifier: LGPL-2.1
/*
 * The recorder's own cost: auxrec record against perf record on one tracepoint load, side
 * by side in one run.
 *
 * Each recorder records syscalls:sys_enter_getppid on CPU 0 (-C 0, the same ring size,
 * -m 1024) into /dev/shm while this bench runs a getppid() loop pinned to CPU 0. The
 * recorder's command is a gate (`sh -c`): both tools enable a CPU-wide event before they
 * start the command, so the gate's "ready" byte says the event is on, and the gate exits, and
 * the recorder stops, only when the bench closes its pipe after the loop ended. So each tool
 * sees every call, whatever the machine's load: with a fixed `sleep` instead, a loop slowed
 * by other jobs outlived the recording and the file held 40-60% of the calls with nothing
 * lost, which compared two different amounts of work. Then the recording is read back with
 * libauxtrace's perf.data reader: samples of the loop captured per call made, and the losses
 * (PERF_RECORD_LOST and LOST_SAMPLES). The recorder's CPU time (user + system, from wait4;
 * the gate costs it nothing worth counting) per captured sample is the figure: the issue's
 * target is at most 0.1x perf record's. Beside them, the floor: a bare loop in a child of
 * the bench that opens the same event and ring and writes each new span of it into a file
 * (bare_recorder), and, for comparison, writing as many bytes from memory already in cache.
 *
 * Then once more each with -z (zstd level 1): the file's size against the bytes of records
 * it holds, and the recorder's CPU per MB of records, auxrec -z against perf record -z; and
 * the size ratio of -z on a sched load, perf.data and trace.dat.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <auxtrace/session.h>
#include "util.h"

#define CALLS	2000000L	/* about 2-3 s of getppid() with the tracepoint on */
#define REPS	3
/* The recorders' command: "ready" on fd 3 once started, then wait for EOF on fd 4. */
#define GATE	"sh", "-c", "echo >&3; exec cat <&4"

struct result {
	double cpu_s;		/* the recorder's user + system time */
	uint64_t captured;	/* samples of the loop in the file */
	uint64_t lost;		/* PERF_RECORD_LOST and LOST_SAMPLES counts */
	long calls;
	uint64_t record_bytes;	/* of the records the reader delivered (decompressed) */
	uint64_t file_size;
};

struct count_ctx {
	struct perf_tool tool;
	pid_t tid;
	uint64_t captured;
	uint64_t bytes;
};

static int count_sample(struct perf_tool *tool, struct perf_session *session,
			union perf_event *event, struct perf_sample *sample, struct evsel *evsel)
{
	struct count_ctx *c = (struct count_ctx *)tool;

	(void)session;
	(void)evsel;
	c->captured += sample->tid == (uint32_t)c->tid;
	c->bytes += event->header.size;
	return 0;
}

/* Samples of tid and the losses in the recording at path, read with our reader. */
static int count_file(const char *path, pid_t tid, struct result *r)
{
	AUXTRACE_OPTS(perf_session_opts, opts);
	struct count_ctx c = { .tool = { .sz = sizeof(c.tool), .sample = count_sample },
			       .tid = tid };
	struct perf_session *session = perf_session__new(path, &opts);
	int err;

	if (!session)
		return -errno;
	err = perf_session__process_events(session, &c.tool);
	r->captured = c.captured;
	r->record_bytes = c.bytes;
	r->lost = perf_session__stats(session)->total_lost +
		  perf_session__stats(session)->total_lost_samples;
	perf_session__delete(session);
	return err;
}

/* A recorder: a command writing path, or a function run in a child (then fn(path)). */
struct recorder {
	char *const *argv;
	int (*fn)(const char *path);
	const char *path;
};

/*
 * The records of tid and the losses in a file of raw ring bytes (bare_recorder's): records
 * lie back to back, a sample's pid and tid after its ip (SAMPLE_TYPE below).
 */
static int count_raw(const char *path, pid_t tid, struct result *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *p;
	size_t off = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int err = -errno;

		if (fd >= 0)
			close(fd);
		return err;
	}
	p = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	while (off + sizeof(struct perf_event_header) <= (size_t)st.st_size) {
		struct perf_event_header h;
		uint32_t pid_tid[2];
		uint64_t lost;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > (size_t)st.st_size)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= 24) {
			memcpy(pid_tid, p + off + 16, sizeof(pid_tid));
			r->captured += pid_tid[1] == (uint32_t)tid;
		} else if (h.type == PERF_RECORD_LOST && h.size >= 24) {
			memcpy(&lost, p + off + 16, sizeof(lost));	/* after the id */
			r->lost += lost;
		}
		r->record_bytes += h.size;
		off += h.size;
	}
	if (p)
		munmap(p, st.st_size);
	return off == (size_t)st.st_size ? 0 : -EPROTO;
}

/* Write the ring's bytes from its tail to its head into out, then move the tail. */
static int bare_drain(struct perf_event_mmap_page *pc, const unsigned char *data, size_t size,
		      int out)
{
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE), tail = pc->data_tail;

	while (tail < head) {
		size_t off = tail % size, len = head - tail < size - off ? head - tail : size - off;
		ssize_t n = write(out, data + off, len);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		tail += (uint64_t)n;
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

/*
 * The floor under any recorder of this load, measured like one: the same event and ring
 * (auxrec's sample_type, 1024 pages), woken at the kernel's default mark (half the ring) as
 * auxrec is, each new span of the ring written into a new tmpfs file and the tail moved;
 * nothing else (no record looked at, no perf.data header, no build-ids). What it costs per
 * sample, the kernel's side of reading the ring and writing the file, no recorder avoids.
 */
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)
#define RING_PAGES 1024

static int bare_recorder(const char *path)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr), .sample_period = 1,
		.sample_type = SAMPLE_TYPE, .disabled = 1,
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = RING_PAGES * page;
	struct pollfd pfd[2] = { { .fd = -1, .events = POLLIN }, { .fd = 4, .events = POLLIN } };
	int id = bench__tracepoint_id("syscalls/sys_enter_getppid");
	unsigned char *base;
	int fd, out, err = 0;

	if (id < 0)
		return id;
	attr.config = (uint64_t)id;
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	base = mmap(NULL, page + size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || write(3, "\n", 1) != 1)
		return -errno;
	pfd[0].fd = fd;
	while (!err && !(pfd[1].revents & (POLLIN | POLLHUP))) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			return -errno;
		err = bare_drain((void *)base, base + page, size, out);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return err ? err : bare_drain((void *)base, base + page, size, out);
}

/*
 * The recorder, quiet, with the gate's pipe ends as fds 3 (it writes "ready") and 4 (it
 * reads until the bench closes the other end).
 */
static pid_t spawn_recorder(const struct recorder *rec, const int ready[2], const int done[2])
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		/* the pipes are O_CLOEXEC: only these two copies reach the gate */
		if (dup2(ready[1], 3) < 0 || dup2(done[0], 4) < 0 || fcntl(3, F_SETFD, 0) ||
		    fcntl(4, F_SETFD, 0))
			_exit(127);
		if (rec->fn) {
			/*
			 * No exec closes the pipes' other fds here, and the gate's EOF needs the
			 * write end's copies gone (3 and 4 are the ones dup2 made).
			 */
			for (int i = 0; i < 2; i++) {
				if (ready[i] > 4)
					close(ready[i]);
				if (done[i] > 4)
					close(done[i]);
			}
			_exit(-rec->fn(rec->path));	/* its errno, for run() */
		}
		execvp(rec->argv[0], rec->argv);
		_exit(127);
	}
	return pid;
}

/* The load: calls getppid() calls pinned to CPU 0, in a child of ours. */
static pid_t start_loop(int done_fd, long calls)
{
	pid_t pid = fork();

	if (pid == 0) {
		close(done_fd);
		bench__pin_self(0);
		for (long i = 0; i < calls; i++)
			getppid();
		_exit(0);
	}
	return pid;
}

/* Wait for the gate's byte: the recorder has its event on. 0, or -errno. */
static int wait_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, 30000) != 1)
		return -ETIMEDOUT;
	return read(fd, &c, 1) == 1 ? 0 : -EPIPE;	/* EOF: the recorder died first */
}

/* One recording of a loop of `calls` getppid() calls (0: the recorder's fixed cost). */
static int run(const struct recorder *recorder, long calls, struct result *r)
{
	const char *path = recorder->path;
	struct stat st;
	struct rusage ru;
	int status, ready[2], done[2], err;
	pid_t rec, loop = -1;

	/*
	 * The last run's file goes here, not in the recorder: freeing 150 MB of tmpfs pages
	 * costs 20-30 ms of CPU, which perf record (renaming it to perf.data.old over the one
	 * before) and auxrec (removing it) would otherwise count as their own.
	 */
	unlink(path);
	if (pipe2(ready, O_CLOEXEC) || pipe2(done, O_CLOEXEC))
		return -errno;
	rec = spawn_recorder(recorder, ready, done);
	close(ready[1]);
	close(done[0]);
	err = rec < 0 ? -errno : wait_ready(ready[0]);
	if (!err) {
		loop = start_loop(done[1], calls);
		if (loop < 0 || waitpid(loop, &status, 0) != loop)
			err = -ECHILD;
	}
	close(done[1]);		/* the gate exits, the recorder stops */
	close(ready[0]);
	if (rec < 0)
		return err;
	if (wait4(rec, &status, 0, &ru) != rec || !WIFEXITED(status))
		return err ? err : -EPROTO;
	if (WEXITSTATUS(status))	/* the bare loop's exit status is its errno */
		return recorder->fn ? -WEXITSTATUS(status) : err ? err : -EPROTO;
	if (err)
		return err;
	r->cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		   ru.ru_stime.tv_usec / 1e6;
	r->calls = calls;
	r->file_size = stat(path, &st) ? 0 : (uint64_t)st.st_size;
	return recorder->fn ? count_raw(path, loop, r) : count_file(path, loop, r);
}

/*
 * The floor under any recorder of this load: the CPU time of writing `bytes` into a new
 * tmpfs file, 256 KiB at a time from a ring-sized (4 MiB) buffer. Most of it is the kernel
 * allocating, charging and filling page cache pages, which no user-space work avoids.
 */
static int write_floor(const char *dir, uint64_t bytes, double *cpu_s)
{
	enum { RING = 4 << 20, CHUNK = 256 << 10 };
	char path[96];
	char *buf = malloc(RING);
	uint64_t done = 0;
	double t0;
	int fd;

	snprintf(path, sizeof(path), "%s/floor", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (!buf || fd < 0) {
		free(buf);
		return -errno;
	}
	memset(buf, 0x5a, RING);
	t0 = bench__thread_cpu_s(NULL);
	while (done < bytes) {
		size_t len = bytes - done < CHUNK ? bytes - done : CHUNK;

		if (write(fd, buf + done % RING, len) != (ssize_t)len)
			break;
		done += len;
	}
	*cpu_s = bench__thread_cpu_s(NULL) - t0;
	close(fd);
	unlink(path);
	free(buf);
	return done < bytes ? -EIO : 0;
}

static void print(const char *name, const struct result *r)
{
	printf("  %-14s captured %9llu of %ld calls (%.4f)  lost %8llu  CPU %6.3f s  "
	       "%7.1f ns/sample\n", name, (unsigned long long)r->captured, r->calls,
	       (double)r->captured / r->calls, (unsigned long long)r->lost, r->cpu_s,
	       r->captured ? r->cpu_s * 1e9 / r->captured : 0.0);
}

static void print_z(const char *name, const struct result *r)
{
	double mb = r->record_bytes / 1048576.0;

	printf("  %-17s %7.1f MiB of records in %6.2f MiB (%5.1fx)  lost %6llu  CPU %6.3f s  "
	       "%6.1f ms/MB\n", name, mb, r->file_size / 1048576.0,
	       r->file_size ? (double)r->record_bytes / r->file_size : 0.0,
	       (unsigned long long)r->lost, r->cpu_s, mb ? r->cpu_s * 1e3 / mb : 0.0);
}

/* One -z run of each: sizes and CPU per MB of records. */
static int compare_compressed(const char *auxrec, const char *out_auxrec, const char *perf_path,
			      const char *out_perf)
{
	char *const a[] = { (char *)auxrec, "record", "-z", "-e", "syscalls:sys_enter_getppid",
			    "-C", "0", "-m", "1024", "-o", (char *)out_auxrec, "--", GATE, NULL };
	char *const p[] = { "perf", "record", "-z", "-e", "syscalls:sys_enter_getppid", "-C", "0",
			    "-m", "1024", "-o", (char *)out_perf, "--", GATE, NULL };
	struct result ra = { 0 }, rp = { 0 };
	int err = run(&(struct recorder){ .argv = a, .path = perf_path }, CALLS, &ra);

	if (!err)
		err = run(&(struct recorder){ .argv = p, .path = out_perf }, CALLS, &rp);
	if (err)
		return err;
	printf("-z (zstd level 1), the same load:\n");
	print_z("auxrec -z", &ra);
	print_z("perf record -z", &rp);
	printf("CPU per MB of records: auxrec -z %.1f ms, perf record -z %.1f ms: %.2fx\n",
	       ra.cpu_s * 1e3 / (ra.record_bytes / 1048576.0),
	       rp.cpu_s * 1e3 / (rp.record_bytes / 1048576.0),
	       (ra.cpu_s / ra.record_bytes) / (rp.cpu_s / rp.record_bytes));
	return 0;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/*
 * A sched recording, as the issue asks the ratio for both syscall and sched loads: each tool
 * records sched:sched_switch on CPU 0 (auxrec with the same event as ftrace too, for
 * trace.dat) while `perf bench sched pipe` ping-pongs there, once plain and once with -z.
 * The same load twice: the ratio is the plain file's size over the compressed one's.
 */
static int compare_compressed_sched(const char *auxrec, const char *out_auxrec,
				    const char *out_perf)
{
	char perf_path[96], trace_path[96];
	long size[2][3];	/* [plain, -z][auxrec perf.data, auxrec trace.dat, perf] */

	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", out_auxrec);
	snprintf(trace_path, sizeof(trace_path), "%s/trace.dat", out_auxrec);
	for (int z = 0; z < 2; z++) {
		char *const a[] = { (char *)auxrec, "record", "-e", "sched:sched_switch", "--ftrace",
				    "sched:sched_switch", "-C", "0", "-m", "1024", "-o",
				    (char *)out_auxrec, z ? "-z" : "-q", "--", "taskset", "-c", "0",
				    "perf", "bench", "sched", "pipe", "-l", "100000", NULL };
		char *const p[] = { "perf", "record", "-e", "sched:sched_switch", "-C", "0", "-m",
				    "1024", "-o", (char *)out_perf, z ? "-z" : "-q", "--", "taskset",
				    "-c", "0", "perf", "bench", "sched", "pipe", "-l", "100000", NULL };
		struct bench_run ra = bench__run(a), rp = bench__run(p);

		if (ra.status || rp.status)
			return -EPROTO;
		size[z][0] = file_size(perf_path);
		size[z][1] = file_size(trace_path);
		size[z][2] = file_size(out_perf);
	}
	printf("-z on a sched load (sched:sched_switch, perf bench sched pipe -l 100000 on CPU 0):\n"
	       "  auxrec perf.data %.1f -> %.1f MiB (%.1fx), trace.dat %.1f -> %.1f MiB (%.1fx); "
	       "perf record %.1f -> %.1f MiB (%.1fx)\n",
	       size[0][0] / 1048576.0, size[1][0] / 1048576.0, (double)size[0][0] / size[1][0],
	       size[0][1] / 1048576.0, size[1][1] / 1048576.0, (double)size[0][1] / size[1][1],
	       size[0][2] / 1048576.0, size[1][2] / 1048576.0, (double)size[0][2] / size[1][2]);
	return 0;
}

int main(void)
{
	char self[PATH_MAX], auxrec[PATH_MAX + 16], dir[] = "/dev/shm/bench-record-XXXXXX";
	char out_auxrec[64], out_perf[64], perf_path[96];
	double aux_ns[REPS], perf_ns[REPS], aux_load_ns[REPS], perf_load_ns[REPS];
	double floor_s[REPS], floor_ns[REPS], bare_ns[REPS];
	char out_bare[64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0 || !mkdtemp(dir)) {
		perror("bench-record");
		return 1;
	}
	self[n] = '\0';
	snprintf(auxrec, sizeof(auxrec), "%.*s/auxrec", (int)(strrchr(self, '/') - self), self);
	snprintf(out_auxrec, sizeof(out_auxrec), "%s/auxrec", dir);
	snprintf(out_perf, sizeof(out_perf), "%s/perf.data", dir);
	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", out_auxrec);
	snprintf(out_bare, sizeof(out_bare), "%s/bare", dir);
	printf("bench-record: syscalls:sys_enter_getppid on CPU 0, %ld pinned getppid() calls, "
	       "-m 1024, into /dev/shm\n", CALLS);
	for (int i = 0; i < REPS; i++) {
		char *const a[] = { auxrec, "record", "-e", "syscalls:sys_enter_getppid", "-C", "0",
				    "-m", "1024", "-o", out_auxrec, "--", GATE, NULL };
		char *const p[] = { "perf", "record", "-e", "syscalls:sys_enter_getppid", "-C", "0",
				    "-m", "1024", "-o", out_perf, "--", GATE, NULL };
		const struct recorder ar = { .argv = a, .path = perf_path };
		const struct recorder pr = { .argv = p, .path = out_perf };
		const struct recorder br = { .fn = bare_recorder, .path = out_bare };
		struct result ra = { 0 }, rp = { 0 }, ia = { 0 }, ip = { 0 }, rb = { 0 };
		int err = run(&ar, CALLS, &ra);

		if (!err)
			err = run(&pr, CALLS, &rp);
		if (!err)
			err = run(&br, CALLS, &rb);
		if (!err)
			err = run(&ar, 0, &ia);
		if (!err)
			err = run(&pr, 0, &ip);
		if (!err)
			err = write_floor(dir, ra.file_size, &floor_s[i]);
		if (err) {
			fprintf(stderr, "bench-record: run %d failed: %s\n", i, strerror(-err));
			return 1;
		}
		printf("run %d\n", i + 1);
		print("auxrec", &ra);
		print("perf record", &rp);
		print("bare ring loop", &rb);
		printf("  no load: auxrec %.3f s, perf record %.3f s; writing auxrec's %.0f MiB into "
		       "a new tmpfs file: %.3f s\n", ia.cpu_s, ip.cpu_s, ra.file_size / 1048576.0,
		       floor_s[i]);
		aux_ns[i] = ra.cpu_s * 1e9 / (ra.captured ? ra.captured : 1);
		perf_ns[i] = rp.cpu_s * 1e9 / (rp.captured ? rp.captured : 1);
		aux_load_ns[i] = (ra.cpu_s - ia.cpu_s) * 1e9 / (ra.captured ? ra.captured : 1);
		perf_load_ns[i] = (rp.cpu_s - ip.cpu_s) * 1e9 / (rp.captured ? rp.captured : 1);
		floor_ns[i] = floor_s[i] * 1e9 / (ra.captured ? ra.captured : 1);
		bare_ns[i] = rb.cpu_s * 1e9 / (rb.captured ? rb.captured : 1);
	}
	/* the medians of each column: bench__median sorts, so the ratios come first */
	printf("median CPU per captured sample: auxrec %.1f ns, perf record %.1f ns: %.2fx "
	       "(target <= 0.1x)\n", bench__median(aux_ns, REPS), bench__median(perf_ns, REPS),
	       bench__median(aux_ns, REPS) / bench__median(perf_ns, REPS));
	printf("  beyond the no-load run: auxrec %.1f ns, perf record %.1f ns: %.2fx\n",
	       bench__median(aux_load_ns, REPS), bench__median(perf_load_ns, REPS),
	       bench__median(aux_load_ns, REPS) / bench__median(perf_load_ns, REPS));
	printf("  the floor, a bare loop writing the same ring into tmpfs: %.1f ns per sample, "
	       "%.2fx perf record's CPU (auxrec %.2fx the bare loop)\n", bench__median(bare_ns, REPS),
	       bench__median(bare_ns, REPS) / bench__median(perf_ns, REPS),
	       bench__median(aux_ns, REPS) / bench__median(bare_ns, REPS));
	printf("  writing the same bytes from memory this thread filled: %.1f ns per sample, "
	       "%.2fx\n", bench__median(floor_ns, REPS),
	       bench__median(floor_ns, REPS) / bench__median(perf_ns, REPS));
	n = compare_compressed(auxrec, out_auxrec, perf_path, out_perf);
	if (n)
		fprintf(stderr, "bench-record: the -z runs failed: %s\n", strerror((int)-n));
	n = compare_compressed_sched(auxrec, out_auxrec, out_perf);
	if (n)
		fprintf(stderr, "bench-record: the sched -z runs failed: %s\n", strerror((int)-n));
	if (system(NULL)) {
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "bench-record: could not remove %s\n", dir);
	}
	return 0;
}
