/* plan_script.h — the fixed text of the plan's bash script: plan_script.sh.in,
 * embedded at build time (cmake/embed_text.cmake).  Private to render/. */
#ifndef TW_RENDER_PLAN_SCRIPT_H
#define TW_RENDER_PLAN_SCRIPT_H

/*
 * The template, NUL-terminated.  Its @NAME@ fields are filled in by
 * render_plan_script.c: @PLAN_SCHEMA@, @UDEV_RULES_FILE@, and the line
 * @PLAN_SUMMARY@ (one comment line per mount of the plan).
 */
extern const char render_plan_script_sh[];

#endif
