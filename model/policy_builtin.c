/* The default policies built into the binary (policies/NAME.yaml, embedded at
 * build time by cmake/embed_policies.cmake). */
#include "policy_priv.h"

int model_policy_load_builtin(struct model_policy_set **out,
			      struct tw_diags *diags)
{
	return model_policy_load_texts(model_builtin_policies,
				       model_builtin_policies_n,
				       MODEL_POLICY_BUILTIN, out, diags);
}
