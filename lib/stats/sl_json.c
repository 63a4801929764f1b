/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sl_stats.h"

static void
json_key(struct sl_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	if (key != NULL)
		fprintf(j->f, "\"%s\": ", key);
}

static void
json_push(struct sl_json *j, const char *key, char c)
{
	json_key(j, key);
	fputc(c, j->f);
	if (j->depth < (int)(sizeof(j->need_comma) / sizeof(j->need_comma[0])) - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void
json_pop(struct sl_json *j, char c)
{
	j->depth--;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	fputc(c, j->f);
}

void
sl_json_begin(struct sl_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

void
sl_json_obj_open(struct sl_json *j, const char *key)
{
	if (j->depth == 0 && !j->need_comma[0]) {
		j->need_comma[0] = true;
		fputc('{', j->f);
		j->depth = 1;
		j->need_comma[1] = false;
		return;
	}
	json_push(j, key, '{');
}

void
sl_json_obj_close(struct sl_json *j)
{
	json_pop(j, '}');
}

void
sl_json_arr_open(struct sl_json *j, const char *key)
{
	json_push(j, key, '[');
}

void
sl_json_arr_close(struct sl_json *j)
{
	json_pop(j, ']');
}

void
sl_json_u64(struct sl_json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void
sl_json_i64(struct sl_json *j, const char *key, int64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void
sl_json_dbl(struct sl_json *j, const char *key, double v)
{
	json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.10g", v);
	else
		fputs("null", j->f);
}

void
sl_json_str(struct sl_json *j, const char *key, const char *v)
{
	json_key(j, key);
	fputc('"', j->f);
	for (; *v != '\0'; v++) {
		if (*v == '"' || *v == '\\')
			fprintf(j->f, "\\%c", *v);
		else if ((unsigned char)*v < 0x20)
			fprintf(j->f, "\\u%04x", *v);
		else
			fputc(*v, j->f);
	}
	fputc('"', j->f);
}

void
sl_json_bool(struct sl_json *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

int
sl_json_end(struct sl_json *j)
{
	fputc('\n', j->f);
	return ferror(j->f) ? -1 : 0;
}
