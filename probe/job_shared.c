/* The state a job's controller and workers share (job_int.h): made,
 * reference-counted, and the failures and cancels recorded in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "job_int.h"

/*
 * The shared state of job, with one reference (the controller's), a copy
 * of job and a duplicate of its fd (when it has one).  Returns NULL with
 * *err = -errno on failure.
 */
struct probe_job_shared *probe_job_shared_new(const struct probe_job *job, int *err)
{
	struct probe_job_shared *sh = calloc(1, sizeof(*sh));
	pthread_condattr_t ca;

	if (!sh || pthread_condattr_init(&ca)) {
		free(sh);
		*err = -ENOMEM;
		return NULL;
	}
	sh->jc = *job;
	sh->job = &sh->jc;
	if (job->fd >= 0 && (sh->jc.fd = fcntl(job->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		*err = -errno;
		pthread_condattr_destroy(&ca);
		free(sh);
		return NULL;
	}
	atomic_init(&sh->refs, 1);
	sh->engine = job->engine ? job->engine : &probe_engine_uring;
	sh->threads = job->threads ? job->threads : 1;
	atomic_init(&sh->m_start, UINT64_MAX);
	atomic_init(&sh->m_stop, UINT64_MAX);
	atomic_init(&sh->stop, false);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sh->ctl_cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&sh->go_cv, NULL);
	pthread_mutex_init(&sh->lock, NULL);
	return sh;
}

/* Drop a reference; the last one frees sh, its workers and its fd. */
void probe_job_shared_put(struct probe_job_shared *sh)
{
	if (atomic_fetch_sub(&sh->refs, 1) != 1)
		return;
	if (sh->jc.fd >= 0)
		close(sh->jc.fd);
	pthread_cond_destroy(&sh->ctl_cv);
	pthread_cond_destroy(&sh->go_cv);
	pthread_mutex_destroy(&sh->lock);
	free(sh->w);
	free(sh);
}

/* Record the first failure of the job and wake the controller. */
void probe_job_fail(struct probe_job_shared *sh, int err, enum probe_io_op op,
		    uint64_t off, const char *msg)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->error) {
		sh->error = err;
		sh->error_op = op;
		sh->error_offset = off;
		snprintf(sh->errmsg, sizeof(sh->errmsg), "%s", msg);
	}
	sh->event = true;
	atomic_store(&sh->stop, true);
	pthread_cond_signal(&sh->ctl_cv);
	pthread_mutex_unlock(&sh->lock);
}

void probe_job_fail_io(struct probe_job_shared *sh, const struct probe_io *io)
{
	char msg[PROBE_ENGINE_MSG];
	const char *what = io->op == PROBE_OP_WRITE ? "write" : "read";

	if (io->res < 0)
		snprintf(msg, sizeof(msg), "%s of %u bytes at offset %llu: %s",
			 what, io->len, (unsigned long long)io->offset,
			 strerror(-io->res));
	else
		snprintf(msg, sizeof(msg),
			 "short %s at offset %llu: %d of %u bytes", what,
			 (unsigned long long)io->offset, io->res, io->len);
	probe_job_fail(sh, io->res < 0 ? io->res : -EIO, (enum probe_io_op)io->op,
	     io->offset, msg);
}

void probe_job_note_cancel(struct probe_job_shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	sh->cancelled = true;
	sh->event = true;
	atomic_store(&sh->stop, true);
	pthread_cond_signal(&sh->ctl_cv);
	pthread_mutex_unlock(&sh->lock);
}
