#pragma once
// `validate --times`: the simulator's transient (sim/transient_replications.hpp) beside the exact
// one (analytic/transient/), curve by curve: each key and each level's probability at each time,
// with one familywise verdict over all of them (Bonferroni at validation::kFamilyLevel, as the long
// run's verdict).
//
// The rates: the simulator estimates each as the average over the stretch since the previous time
// (it sees events, not intensities); the exact value it is judged against is the same average,
// the difference of the exact expected counts over the stretch's length.
//
// The z-scores: a value that comes out rarely (a page lost in one replication of 600) shows too
// little spread in the sample for its variance to be estimated from it. Every key but the cost
// takes whole numbers (a rate is a count over its stretch), and a whole-number value with mean mu
// has a variance of at least {mu} (1 - {mu}): with the exact value as mu, that floor stands under
// the sample's variance. A value the same in every replication is then judged too.
#include <optional>

#include "analytic/transient/transient_analysis.hpp"
#include "sim/transient_replications.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::validation {

// `exact`: nothing when the exact engine could not run (every verdict is then "simulated only").
EngineComparison compare_transients(const analytic::TransientResult* exact,
                                    const sim::TransientSimulation& simulated);

}  // namespace crawlq::validation
