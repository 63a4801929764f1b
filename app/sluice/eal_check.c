/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks of the EAL arguments before rte_eal_init() (eal_check.h). */

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eal_check.h"
#include "sl_err.h"

#define MAX_IDS 1024

/* CPU n exists for EAL (lib/eal/linux/eal_lcore.c: its topology is there). */
static bool
cpu_detected(unsigned int n)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/core_id", n);
	return access(path, F_OK) == 0;
}

/* The CPUs this machine has, as "0-1" (counted from 0 while they exist). */
static void
cpus_str(char *buf, size_t len)
{
	unsigned int n = 0;

	while (n < MAX_IDS && cpu_detected(n))
		n++;
	if (n <= 1)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "0-%u", n - 1);
}

/*
 * Parse one set at *s: "3", "1-4", or "(1-4,7)"; mark its ids in set.
 * Returns the character after it, or NULL if it is not a set.
 */
static const char *
parse_set(const char *s, bool *set)
{
	bool paren = *s == '(';

	if (paren)
		s++;
	do {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*s))
			return NULL;
		a = strtoul(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1]))
				return NULL;
			b = strtoul(s + 1, &end, 10);
			s = end;
		}
		if (a > b || b >= MAX_IDS)
			return NULL;
		for (unsigned long i = a; i <= b; i++)
			set[i] = true;
	} while (paren && *s == ',' && s++);
	if (paren && *s++ != ')')
		return NULL;
	return s;
}

/*
 * The CPUs an lcore list asks for: -l's list, or --lcores' elements
 * (LCORES[@CPUS]: the lcores themselves when there is no '@'). false: the
 * spec does not parse, which is left to EAL (it says what is wrong).
 */
static bool
cpus_of(const char *spec, bool lcores_syntax, bool *cpu)
{
	const char *s = spec;

	while (*s != '\0') {
		bool l[MAX_IDS] = { false }, c[MAX_IDS] = { false };
		const char *e = parse_set(s, l);

		if (e == NULL)
			return false;
		s = e;
		if (lcores_syntax && *s == '@') {
			s = parse_set(s + 1, c);
			if (s == NULL)
				return false;
		} else {
			memcpy(c, l, sizeof(c));
		}
		for (unsigned int i = 0; i < MAX_IDS; i++)
			cpu[i] |= c[i];
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return false;
	}
	return true;
}

int
sl_eal_lcores_check(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *opt = argv[i], *val = NULL;
		bool cpu[MAX_IDS] = { false }, lc;
		char cpus[32];

		if (strcmp(opt, "-l") == 0 || strcmp(opt, "--lcores") == 0)
			val = i + 1 < argc ? argv[i + 1] : NULL;
		else if (strncmp(opt, "-l", 2) == 0 && opt[2] != '-' && opt[2] != '\0')
			val = opt + 2;
		else if (strncmp(opt, "--lcores=", 9) == 0)
			val = opt + 9;
		if (val == NULL)
			continue;
		lc = opt[1] == '-';
		if (!cpus_of(val, lc, cpu))
			continue;
		for (unsigned int n = 0; n < MAX_IDS; n++) {
			unsigned int top = n;

			if (!cpu[n] || cpu_detected(n))
				continue;
			while (top + 1 < MAX_IDS && cpu[top + 1])
				top++;
			for (unsigned int k = top; k < MAX_IDS; k++)
				if (cpu[k])
					top = k;
			cpus_str(cpus, sizeof(cpus));
			if (lc)
				sl_err("--lcores %s: CPU %u is not on this machine (its CPUs are %s): put "
				       "the lcores on its CPUs after '@', e.g. --lcores '0,(1-4)@(%s)' "
				       "(lcores 1 to 4 on CPUs %s)", val, n, cpus, cpus, cpus);
			else
				sl_err("-l %s: lcore %u has no CPU %u here (the CPUs are %s): for more "
				       "lcores than CPUs use --lcores with '@', e.g. --lcores "
				       "'0,(1-%u)@(%s)' (lcores 1 to %u on CPUs %s)", val, n, n, cpus, top,
				       cpus, top, cpus);
			return -1;
		}
	}
	return 0;
}
