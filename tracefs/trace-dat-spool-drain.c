// SPDX-License-Identifier: LGPL-2.1
/*
 * What a recording that died left in the kernel: its tracefs instance stays, events enabled
 * and still writing into the ring buffer, until somebody removes it. The spool names the
 * instance (trace-dat-spool-dir.c); these add what its ring buffer still holds to the spool,
 * as the writer's last flush drain would have, before it is laid out.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <internal/lib.h>
#include <tracefs/tracefs.h>
#include "trace-dat-internal.h"

char *trace_dat__spool_instance(const char *path)
{
	char *spool = NULL, name[256];
	ssize_t n = -1;
	int fd;

	if (!path)
		return libauxtrace__ptr_err(-EINVAL);
	if (asprintf(&spool, "%s.spool/" TD_SPOOL_INSTANCE, path) < 0)
		return libauxtrace__ptr_err(-ENOMEM);
	fd = open(spool, O_RDONLY | O_CLOEXEC);
	free(spool);
	if (fd >= 0) {
		n = read(fd, name, sizeof(name) - 1);
		close(fd);
	}
	/* a name with a slash, or none, is no instance of ours to touch */
	if (n <= 0 || memchr(name, '/', n) || memchr(name, '\0', n) || !strncmp(name, "..", n))
		return libauxtrace__ptr_err(-ENOENT);
	name[n] = '\0';
	return strdup(name) ?: libauxtrace__ptr_err(-ENOMEM);
}

/* Everything CPU cpu of inst holds into s. Bytes, or -errno logged. */
static int64_t spool__drain_cpu(struct td_spool *s, struct tracefs_instance *inst, int cpu)
{
	struct tracefs_cpu *tcpu = tracefs_cpu_open(inst, cpu, true);
	int64_t total = 0;
	ssize_t n = tcpu ? 1 : -errno;

	/* a drain stops after one buffer's worth: the next takes the rest */
	while (n > 0) {
		n = tracefs_cpu_flush_drain(tcpu, &s->sink);
		total += n > 0 ? n : 0;
	}
	tracefs_cpu_close(tcpu);
	if (n < 0)
		pr_err("tracefs instance %s, CPU %d: cannot drain what it holds: %s\n",
		       tracefs_instance_get_name(inst) ?: "(top)", cpu, strerror((int)-n));
	return n < 0 ? n : total;
}

int64_t trace_dat__spool_drain(const char *path, struct tracefs_instance *inst)
{
	struct td_spool_dir d = { .fd = -1 };
	struct td_layout l;
	struct td_spool s;
	unsigned int page_size;
	bool closed = false;
	int64_t total = 0, n = 0;
	int err;

	if (!path || !inst || !tracefs_instance_get_name(inst))
		return libauxtrace__err(-EINVAL);	/* the top level is nobody's to drain */
	if (asprintf(&d.path, "%s.spool", path) < 0)
		return libauxtrace__err(-ENOMEM);
	d.fd = open(d.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = d.fd < 0 ? -errno : td_spool_dir__page_size(d.fd, d.path, &page_size);
	if (!err)
		err = td_layout__read(&l, inst);
	if (!err && l.page_size != page_size) {
		pr_err("tracefs instance %s has %u-byte sub-buffers, the spool %s %u-byte ones: not the instance it was recorded from\n",
		       tracefs_instance_get_name(inst), l.page_size, d.path, page_size);
		err = -EINVAL;
	}
	/* nothing new comes in while we drain, so the drain ends */
	if (!err && tracefs_trace_off(inst) < 0)
		err = -errno;
	for (int cpu = 0; !err && n >= 0; cpu++) {
		err = td_spool__reopen(&s, d.fd, cpu, &l, &closed);
		if (err == -ENOENT) {	/* past the file's last CPU */
			err = 0;
			break;
		}
		n = err ? 0 : spool__drain_cpu(&s, inst, cpu);
		total += n > 0 ? n : 0;
		if (!err)
			td_spool__exit(&s);
	}
	if (err && err != -EINVAL)
		pr_err("cannot add what tracefs instance %s holds to %s: %s\n",
		       tracefs_instance_get_name(inst), d.path, strerror(-err));
	td_spool_dir__forget(&d);
	if (!err && n < 0)
		err = (int)n;
	return err ? libauxtrace__err(err) : total;
}
