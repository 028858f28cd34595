#pragma once
// The derivative and elasticity of every scalar measure with respect to every rate and start
// probability of the model's laws (rate_parameters.hpp), by adjoint: one solve with the generator
// per measure (stationary_adjoint.hpp), shared by every parameter, however many. A measure m(p, q)
// of the stationary vector p and the rates q moves by
//   dm = (dm/dp) dp + (dm/dq) dq = -p dQ x + (dm/dq) dq,   Q x = dm/dp - (p . dm/dp) e,
// where p dQ is one product with the moved generator (exact: Q is linear in each parameter) and
// dm/dq, with p held, is extrapolated (Richardson) from three forward steps of the measures alone
// (no stationary solve; a new tagged page's chain for the service's and clocks' parameters).
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "validation/sensitivity.hpp"

namespace crawlq::validation {

// The per-rate rows for `evaluation` (a converged solve of `evaluator`'s model under a policy that
// is not a full-state table), parameter by parameter in rate_parameters' order, each with every
// scalar measure; elasticity = derivative x the rate or probability / the measure. `threads`
// share the measures' solves and the parameters; the numbers do not depend on them. Throws
// std::invalid_argument for a table policy and std::runtime_error when an adjoint solve fails.
std::vector<Sensitivity> rate_sensitivities(const analytic::PolicyEvaluator& evaluator,
                                            const analytic::PolicyEvaluation& evaluation,
                                            int threads);

}  // namespace crawlq::validation
