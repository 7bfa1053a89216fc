// SPDX-License-Identifier: LGPL-2.1
/*
 * A workload in two known halves: getppid-phases N1 FIFO N2 makes N1 getppid() calls, waits
 * for a line on FIFO (the test does something in between, such as stopping a collector),
 * then makes N2 more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[64];
	FILE *go;

	if (argc != 4) {
		fprintf(stderr, "usage: getppid-phases N1 FIFO N2\n");
		return 2;
	}
	for (long i = 0; i < atol(argv[1]); i++)
		getppid();
	go = fopen(argv[2], "r");
	if (!go || !fgets(line, sizeof(line), go)) {
		perror(argv[2]);
		return 1;
	}
	fclose(go);
	for (long i = 0; i < atol(argv[3]); i++)
		getppid();
	return 0;
}
