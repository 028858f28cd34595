#pragma once
// How long each replication of a long run observes and how much it drops first, by one rule for
// simulate, compare and validate: what the user gave, else about a million offered pages at the
// pace the policy keeps (horizon.hpp) and the warm-up MSER-5 finds on a pilot (warmup.hpp); under a
// rhythm both in whole periods.
#include <cstdint>
#include <optional>

#include "model/model.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"

namespace crawlq::sim {

struct RunLength {
  double horizon = 0, warmup = 0;
};

// `pace`, where the caller measured it already (to refuse a run that cannot fit); else it is
// measured when the horizon needs it.
RunLength run_length(const model::Model& model, const Policy& policy, std::uint64_t seed,
                     std::optional<double> horizon, std::optional<double> warmup,
                     const std::optional<Pace>& pace = std::nullopt);

}  // namespace crawlq::sim
