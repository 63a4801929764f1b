/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "sl_err.h"

void
sl_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sluice: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
