/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event loop (sl_loop.h): poll() over a small table of file events,
 * the self-pipe first, and a small table of timers scanned each turn (a
 * handful: no heap needed).
 */

#define _GNU_SOURCE /* pipe2() */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sl_loop.h"

struct loop_file {
	int fd;                 /* -1: free */
	uint32_t gen;           /* this registration (a slot reused in a turn is another's) */
	unsigned int events;
	sl_loop_file_fn *fn;
	void *arg;
};

struct loop_timer {
	long id;                /* 0: free */
	uint64_t when_us;
	sl_loop_timer_fn *fn;
	void *arg;
	bool running;           /* in its handler: a nested run does not run it again */
};

struct sl_loop {
	int pipe[2];            /* the self-pipe: notify writes, the loop reads */
	struct loop_file files[SL_LOOP_MAX_FILES];
	struct loop_timer timers[SL_LOOP_MAX_TIMERS];
	long next_id;
	bool stop;
	uint32_t gen;           /* the last registration's */
	unsigned int depth;     /* sl_loop_run() calls in progress (a handler may run one) */
	sl_loop_step_fn *before, *notify;
	void *before_arg, *notify_arg;
};

uint64_t
sl_loop_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

struct sl_loop *
sl_loop_create(void)
{
	struct sl_loop *l = calloc(1, sizeof(*l));

	if (l == NULL)
		return NULL;
	if (pipe2(l->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		free(l);
		return NULL;
	}
	for (int i = 0; i < SL_LOOP_MAX_FILES; i++)
		l->files[i].fd = -1;
	return l;
}

void
sl_loop_free(struct sl_loop *l)
{
	if (l == NULL)
		return;
	close(l->pipe[0]);
	close(l->pipe[1]);
	free(l);
}

int
sl_loop_file_add(struct sl_loop *l, int fd, unsigned int events, sl_loop_file_fn *fn, void *arg)
{
	struct loop_file *free_slot = NULL;

	for (int i = 0; i < SL_LOOP_MAX_FILES; i++) {
		if (l->files[i].fd == fd) {
			free_slot = &l->files[i];
			break;
		}
		if (l->files[i].fd < 0 && free_slot == NULL)
			free_slot = &l->files[i];
	}
	if (free_slot == NULL)
		return -ENOSPC;
	*free_slot = (struct loop_file){ fd, ++l->gen, events, fn, arg };
	return 0;
}

void
sl_loop_file_del(struct sl_loop *l, int fd)
{
	for (int i = 0; i < SL_LOOP_MAX_FILES; i++)
		if (l->files[i].fd == fd)
			l->files[i].fd = -1;
}

long
sl_loop_timer_add(struct sl_loop *l, uint64_t delay_us, sl_loop_timer_fn *fn, void *arg)
{
	for (int i = 0; i < SL_LOOP_MAX_TIMERS; i++)
		if (l->timers[i].id == 0) {
			l->timers[i] = (struct loop_timer){ ++l->next_id,
				sl_loop_now_us() + delay_us, fn, arg, false };
			return l->timers[i].id;
		}
	return -ENOSPC;
}

void
sl_loop_timer_set(struct sl_loop *l, long id, uint64_t delay_us)
{
	for (int i = 0; i < SL_LOOP_MAX_TIMERS; i++)
		if (l->timers[i].id == id && id != 0)
			l->timers[i].when_us = sl_loop_now_us() + delay_us;
}

void
sl_loop_timer_del(struct sl_loop *l, long id)
{
	for (int i = 0; i < SL_LOOP_MAX_TIMERS; i++)
		if (l->timers[i].id == id)
			l->timers[i].id = 0;
}

void
sl_loop_before_sleep(struct sl_loop *l, sl_loop_step_fn *fn, void *arg)
{
	l->before = fn;
	l->before_arg = arg;
}

void
sl_loop_on_notify(struct sl_loop *l, sl_loop_step_fn *fn, void *arg)
{
	l->notify = fn;
	l->notify_arg = arg;
}

void
sl_loop_notify(struct sl_loop *l)
{
	char c = 1;
	int saved = errno; /* a signal handler leaves errno as it found it */

	/* Full pipe: a wake-up is already pending, which is all this asks. */
	if (write(l->pipe[1], &c, 1) < 0) {
		/* nothing to do */
	}
	errno = saved;
}

int
sl_loop_once(struct sl_loop *l, uint64_t max_wait_us)
{
	struct pollfd pfd[SL_LOOP_MAX_FILES + 1];
	int slot[SL_LOOP_MAX_FILES + 1];
	uint32_t gen[SL_LOOP_MAX_FILES + 1];
	uint64_t now, wait = max_wait_us;
	int n = 0, ran = 0, ready;

	if (l->before != NULL)
		l->before(l, l->before_arg);
	now = sl_loop_now_us();
	for (int i = 0; i < SL_LOOP_MAX_TIMERS; i++)
		if (l->timers[i].id != 0 && !l->timers[i].running)
			wait = l->timers[i].when_us <= now ? 0 :
			       l->timers[i].when_us - now < wait ? l->timers[i].when_us - now : wait;
	pfd[n] = (struct pollfd){ .fd = l->pipe[0], .events = POLLIN };
	slot[n++] = -1;
	for (int i = 0; i < SL_LOOP_MAX_FILES; i++)
		if (l->files[i].fd >= 0) {
			pfd[n] = (struct pollfd){ .fd = l->files[i].fd,
				.events = (short)(((l->files[i].events & SL_LOOP_READ) ? POLLIN : 0) |
						  ((l->files[i].events & SL_LOOP_WRITE) ? POLLOUT : 0)) };
			gen[n] = l->files[i].gen;
			slot[n++] = i;
		}
	/* Round up: a timer due in 300 us must not be polled for 0 ms again and again. */
	ready = poll(pfd, (nfds_t)n, wait > (uint64_t)1 << 30 ? 1 << 20 : (int)((wait + 999) / 1000));
	if (ready > 0) {
		for (int k = 0; k < n; k++) {
			struct loop_file *f;
			unsigned int ev = 0;

			if (pfd[k].revents == 0)
				continue;
			if (slot[k] < 0) {
				char buf[64];

				while (read(l->pipe[0], buf, sizeof(buf)) > 0)
					;
				if (l->notify != NULL)
					l->notify(l, l->notify_arg);
				ran++;
				continue;
			}
			f = &l->files[slot[k]];
			/*
			 * Deleted or replaced by a handler earlier in this turn (even
			 * with the same fd number, closed and opened again): the
			 * readiness polled was another registration's.
			 */
			if (f->fd != pfd[k].fd || f->gen != gen[k])
				continue;
			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
				ev |= SL_LOOP_READ;
			if (pfd[k].revents & POLLOUT)
				ev |= SL_LOOP_WRITE;
			ev &= f->events;
			if (ev == 0)
				continue;
			f->fn(l, f->fd, ev, f->arg);
			ran++;
		}
	}
	now = sl_loop_now_us();
	for (int i = 0; i < SL_LOOP_MAX_TIMERS; i++) {
		struct loop_timer *t = &l->timers[i];
		long id = t->id;
		int64_t again;

		if (id == 0 || t->running || t->when_us > now)
			continue;
		t->running = true;
		again = t->fn(l, t->arg);
		ran++;
		/* The handler may have deleted it, or it and added another in its slot. */
		if (t->id != id)
			continue;
		t->running = false;
		if (again < 0)
			t->id = 0;
		else
			t->when_us = sl_loop_now_us() + (uint64_t)again;
	}
	return ran;
}

void
sl_loop_run(struct sl_loop *l, bool (*until)(void *arg), void *arg)
{
	/* A stop ends every run in progress, the outer ones too, then is forgotten. */
	l->depth++;
	while (!l->stop && (until == NULL || !until(arg)))
		sl_loop_once(l, 1000000);
	if (--l->depth == 0)
		l->stop = false;
}

void
sl_loop_stop(struct sl_loop *l)
{
	l->stop = true;
}
