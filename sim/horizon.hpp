#pragma once
// The observed time of a replication when none is given: about a million offered pages at the rate
// the policy actually achieves, measured on a short pilot run. A rate taken from the model alone
// (its busiest mode, say) can be orders of magnitude off when the policy rarely uses that mode,
// leaving a replication with a handful of events and intervals that claim a precision it does not
// have.
#include <cstdint>

#include "model/model.hpp"
#include "sim/policy.hpp"

namespace crawlq::sim {

// Pages a replication should see when its length is chosen for it.
inline constexpr double kDefaultPagesPerReplication = 1e6;

// The pace of the system under `policy`, measured on a pilot of a few hundred thousand events on
// streams no replication uses.
struct Pace {
  double pages_per_time = 0;
  double events_per_time = 0;
};
Pace measure_pace(const model::Model& model, const Policy& policy, std::uint64_t seed);

// kDefaultPagesPerReplication at the pace the pilot measured.
double default_horizon(const Pace& pace);

// Under a rhythm, the warm-up and the horizon rounded up to whole periods (the horizon at least
// one), so that the estimates, started at a period's start, are of the period's averages; without
// one, both as they are.
void round_to_whole_periods(const model::Model& model, double& warmup, double& horizon);

// What a run's kept replications hold (each its estimates), known before it starts, so that one
// that cannot finish is refused at once.
double replication_bytes(const model::Model& model);

}  // namespace crawlq::sim
