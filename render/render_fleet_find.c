/* render_fleet_find.c — the fleet's renderers by name: the one place that
 * knows them all (text, Markdown and JSON in render_fleet.c, HTML in
 * render_fleet_html.c), so that neither file calls the other's. */
#include <string.h>

#include "render_fleet.h"

const struct fleet_render_ops *fleet_render_find(const char *name)
{
	static const struct fleet_render_ops *const all[] = { &fleet_render_text, &fleet_render_md,
		&fleet_render_json, &fleet_render_html };

	for (size_t i = 0; name && i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
