/* inputs.h — what the commands read, loaded one way for all of them:
 * profiles, policies and prices (score, explain, plan, report, compare) and
 * fleets (fleet, export).  Every problem goes to stderr.  Private to cli/. */
#ifndef TW_CLI_INPUTS_H
#define TW_CLI_INPUTS_H

#include <stdio.h>

struct fleet;
struct profile;
struct profile_device;
struct model_policy_set;
struct tw_diags;

/* What the commands that score read: profiles, the policy set, prices applied. */
struct cli_inputs {
	size_t n_profiles;
	struct profile **profiles;
	struct model_policy_set *policies;
	size_t n_devs;
	const struct profile_device **devs;	/* every device of every profile */
	char policies_from[4200];	/* where the policies came from, for people:
					   "DIR (--policies)", "policies (./policies)",
					   "DIR (installed)", "built-in (...)" */
};

/* Each diagnostic of d on its own line of stderr ("FILE:LINE:COLUMN: key: message"). */
void cli_print_diags(const struct tw_diags *d);

/* "\nPREFIXPolicies: <in->policies_from>\n" to out: every output that
 * scores says where its settings came from (prefix "" or md's "- "). */
void cli_print_policies_from(FILE *out, const struct cli_inputs *in, const char *prefix);

/*
 * Read the profiles files[0..n), the policies of policy_dir (NULL: ./policies,
 * else $TW_SRCDIR/policies, else the installed share/tierwise/policies, else
 * the built-in ones) and the price list (NULL = none).  Problems go to
 * stderr as FILE:LINE:COLUMN: key: message.  Returns TW_EXIT_OK, or the exit
 * code to return (in is then empty).  Free with cli_inputs_free().
 * A device id that a device of another profile carries too is qualified by
 * its profile: see cli_inputs_qualify_ids().  cmd names the command whose
 * --help the messages point to.
 */
int cli_inputs_load(const char *cmd, struct cli_inputs *in, char *const *files,
		    size_t n, const char *policy_dir, const char *prices);

/* As cli_inputs_load(), the ids as the files give them (compare pairs the
 * devices of BEFORE and AFTER by id). */
int cli_inputs_load_unqualified(const char *cmd, struct cli_inputs *in, char *const *files,
				size_t n, const char *policy_dir, const char *prices);

/* The profiles files[0..n) alone (n >= 1), ids qualified as by
 * cli_inputs_load(): for a report that needs no policies.  Returns
 * TW_EXIT_OK or the exit code; free in with cli_inputs_free() either way. */
int cli_inputs_load_profiles(struct cli_inputs *in, char *const *files, size_t n);

/* Free what in holds and empty it.  NULL-safe. */
void cli_inputs_free(struct cli_inputs *in);

/*
 * Qualify by its profile ("hostA:zram0": the host, else the file name of
 * files[i] without ".json") every device id that a device of another profile
 * of in carries too.  Returns 0 or -ENOMEM (ids then partly qualified).
 */
int cli_inputs_qualify_ids(struct cli_inputs *in, char *const *files);

/*
 * Read the fleet of paths[0..n) (profiles, directories of them, the plans
 * beside them) for command cmd; every problem goes to stderr.  Returns the
 * exit code; on TW_EXIT_OK *f holds the fleet (free with fleet_free()).
 */
int cli_fleet_load(const char *cmd, char *const *paths, size_t n, struct fleet **f);

#endif
