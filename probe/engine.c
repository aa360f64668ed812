/* engine.c — engine selection (as fio keeps ioengines.c apart from
 * backend.c): find an engine by name, open one with the io_uring -> psync
 * fall-back, close it; and the engine name check the command runs before a
 * probe (probe.h), so that it needs no private header. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "probe.h"
#include "tw_util.h"

const struct probe_engine_ops *probe_engine_find(const char *name)
{
	static const struct probe_engine_ops *const all[] = {
		&probe_engine_uring, &probe_engine_psync, &probe_engine_null,
	};

	for (size_t i = 0; name && i < ARRAY_SIZE(all); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

int probe_engine_open(struct probe_engine *e,
		      const struct probe_engine_ops *preferred,
		      const struct probe_engine_params *p, bool fallback)
{
	struct probe_engine_params plain = *p;
	char why[PROBE_ENGINE_MSG];
	int ret;

	*e = (struct probe_engine){ 0 };
	ret = preferred->init(p, &e->priv, &e->info);
	if (!ret) {
		e->ops = preferred;
		return 0;
	}
	snprintf(e->msg, sizeof(e->msg), "%s", e->info.err);
	if (!fallback || preferred != &probe_engine_uring ||
	    !probe_engine_uring_refused(ret))
		return ret;
	snprintf(why, sizeof(why), "%s", e->info.err);
	plain.opts = NULL;
	ret = probe_engine_psync.init(&plain, &e->priv, &e->info);
	if (ret) {
		snprintf(e->msg, sizeof(e->msg), "%.80s; psync failed too: %.80s",
			 why, e->info.err);
		return ret;
	}
	e->ops = &probe_engine_psync;
	e->fell_back = true;
	snprintf(e->msg, sizeof(e->msg), "%.150s; using psync", why);
	return 0;
}

void probe_engine_close(struct probe_engine *e)
{
	if (!e || !e->ops)
		return;
	e->ops->cleanup(e->priv);
	e->ops = NULL;
	e->priv = NULL;
}

bool probe_engine_known(const char *name)
{
	return probe_engine_find(name) != NULL;
}
