/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * auxrec script -j N: the lines of the samples the AUX decoders synthesize, formatted on
 * more threads than one. Formatting a line (a thread's columns, two addresses resolved to
 * sym+off (dso)) costs more than decoding its branch, and one thread formatting every line
 * is what bounds a script's rate; the lines of a run of samples depend on nothing but the
 * samples and the processes' state, which no sample changes.
 *
 * The caller's thread gathers the samples in order (copied) into a batch, and hands a full
 * one to the workers while it gathers the next. The workers and the caller's thread format
 * a batch's chunks, each into a text of its own, and the caller's thread writes the texts in
 * the chunks' order before the next batch is handed over, before any other line and before
 * the side-band changes a process (script_par__flush): the output is byte for byte the one
 * thread's. Memory: two batches of samples and their text.
 */
#ifndef AUXREC_SCRIPT_PAR_H
#define AUXREC_SCRIPT_PAR_H

struct script_par;
struct script_print;
struct auxtrace_sample;
struct evsel;

/*
 * script_par__new() makes nr_workers threads (>= 1) that format as print (initialized,
 * borrowed: it must outlive the script_par) does, writing to print->out; until
 * script_par__delete, print looks the machine up under the workers' lock, since they may
 * format while the caller's thread gathers. NULL + errno.
 */
struct script_par *script_par__new(struct script_print *print, unsigned int nr_workers);
/* Stops the workers and frees sp; what was not flushed is dropped. NULL: nothing. */
void script_par__delete(struct script_par *sp);
/*
 * script_par__add() queues sample (copied) of evsel; a full batch is formatted and written.
 * 0, or -errno: a write's, ENOMEM.
 */
int script_par__add(struct script_par *sp, const struct auxtrace_sample *sample,
		    struct evsel *evsel);
/*
 * script_par__flush() formats and writes what is queued: before any other line, and
 * before the side-band changes a process. 0, or -errno.
 */
int script_par__flush(struct script_par *sp);
/* The side-band changed (after script_par__flush): what each worker kept is forgotten. */
void script_par__forget(struct script_par *sp);

#endif
