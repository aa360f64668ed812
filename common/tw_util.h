/* tw_util.h — the small toolbox every stage shares (as util-linux's c.h and
 * strutils.c): array size, a monotonic clock, CPU time, string
 * lists, shell quoting. */
#ifndef TW_UTIL_H
#define TW_UTIL_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "tw_fmt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* CLOCK_MONOTONIC in nanoseconds (inline: the probe stamps every I/O with it). */
static inline uint64_t tw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Nanoseconds as a timespec: a CLOCK_MONOTONIC time from tw_now_ns() (for
 * pthread_cond_timedwait on a condition variable of that clock) or a
 * duration (nanosleep). */
static inline struct timespec tw_ts_of_ns(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

/* CPU seconds on a CPU-time clock: CLOCK_PROCESS_CPUTIME_ID (every thread of
 * the process) or CLOCK_THREAD_CPUTIME_ID (the calling thread). */
static inline double tw_cpu_clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds this process has used, all threads. */
static inline double tw_cpu_s(void)
{
	return tw_cpu_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* Bytes, counts and times for people: tw_fmt.h. */

/* Levenshtein distance of a and b (names, keys: (size_t)-1 when either has
 * 64 characters or more), for "did you mean" suggestions. */
size_t tw_edit_distance(const char *a, const char *b);

/*
 * String lists: (*v)[0 .. *n), each malloc'd.  Append a formatted string:
 * 0, or -ENOMEM with the list unaltered.  Free every string and the array.
 */
int tw_strv_addf(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int tw_strv_vaddf(char ***v, size_t *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void tw_strv_free(char **v, size_t n);

/* Write s as one POSIX shell word: in single quotes, each ' as '\''. */
void tw_shell_quote(FILE *out, const char *s);

#endif
