/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The option ids of trace-cmd's file format that the writer and the reader use. In version 7
 * a section has the id of the option that holds its offset (and the options section 0).
 */
#ifndef AUXTRACE_TRACEFS_TRACE_DAT_IDS_H
#define AUXTRACE_TRACEFS_TRACE_DAT_IDS_H

enum {
	TD_OPT_DONE		= 0,	/* also the options section */
	TD_OPT_DATE		= 1,
	TD_OPT_CPUSTAT		= 2,
	TD_OPT_BUFFER		= 3,	/* also the flyrecord section */
	TD_OPT_TRACECLOCK	= 4,
	TD_OPT_UNAME		= 5,
	TD_OPT_OFFSET		= 7,
	TD_OPT_CPUCOUNT		= 8,
	TD_OPT_VERSION		= 9,
	TD_OPT_HEADER_INFO	= 16,	/* version 7: header_page and header_event */
	TD_OPT_FTRACE_EVENTS	= 17,
	TD_OPT_EVENT_FORMATS	= 18,
	TD_OPT_KALLSYMS		= 19,
	TD_OPT_PRINTK		= 20,
	TD_OPT_CMDLINES		= 21,
};

#endif
