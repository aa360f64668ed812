/* inventory_base.c — what the inventory's other files use of the device
 * list (inventory_priv.h): a device found by name, a string list freed. */
#include <string.h>

#include "inventory_priv.h"
#include "tw_util.h"

void probe_inv_strv_free(struct probe_strv *s)
{
	tw_strv_free(s->v, s->n);
	s->v = NULL;
	s->n = 0;
}

const struct probe_dev *probe_inventory_find(const struct probe_inventory *inv,
					     const char *name)
{
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	for (size_t i = 0; i < inv->n; i++) {
		if (!strcmp(inv->v[i].name, name))
			return &inv->v[i];
		for (size_t p = 0; p < inv->v[i].n_parts; p++)
			if (!strcmp(inv->v[i].parts[p].name, name))
				return &inv->v[i];
	}
	return NULL;
}
