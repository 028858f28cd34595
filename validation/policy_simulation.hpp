#pragma once
// The simulator as `reproduce` uses it: the cost of a level-map policy with its 95% interval, and
// the difference of two policies on common random numbers. Warm-up: a twentieth of the horizon (the
// paper's chains forget an empty start within a few hundred pages; MSER-5 pilots would double the
// work of the hundred or so runs a report makes).
#include <cmath>
#include <cstdint>

#include "model/model.hpp"
#include "model/policy.hpp"
#include "sim/replications.hpp"

namespace crawlq::validation {

class PolicySimulation {
 public:
  PolicySimulation(std::uint64_t seed, int threads, bool quick)
      : seed_(seed), threads_(threads), quick_(quick) {}

  // Until the cost's half-width is within `precision` of it (0.1%: printed costs have 3 to 5
  // digits; 20 s at most); quick: 4 short replications.
  sim::Interval cost(const model::Model& model, const model::Policy& policy,
                     double precision = 0.001) const;
  // A fixed run of 10 replications (quick: 3 short ones): points of a figure.
  sim::Interval cost_point(const model::Model& model, const model::Policy& policy) const;
  // Cost of b minus cost of a, paired replication by replication on the same streams.
  sim::Interval cost_difference(const model::Model& model, const model::Policy& a,
                                const model::Policy& b) const;

 private:
  sim::ReplicationPlan plan(const model::Model& model, int replications,
                            double horizon_share) const;
  std::uint64_t seed_;
  int threads_;
  bool quick_;
};

// |x - value| <= half-width.
inline bool covers(const sim::Interval& i, double value) {
  return std::abs(i.mean - value) <= i.half_width;
}

}  // namespace crawlq::validation
