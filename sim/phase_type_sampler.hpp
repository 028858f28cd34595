#pragma once
// Draws phase-type times (alpha, T) by walking the phases to absorption: the service time of a page
// when it enters service, the obsolescence time of a page when it enters the buffer.
#include <vector>

#include "model/phase_type.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

class PhaseTypeSampler {
 public:
  explicit PhaseTypeSampler(const model::PhaseType& law);
  double sample(RandomStream& random) const;

 private:
  int phases_;
  std::vector<double> start_cumulative_;  // alpha
  std::vector<double> exit_rate_;         // -T_ii
  // Per phase: cumulative probabilities of the next phase (0..n-1), the last entry = absorption.
  std::vector<std::vector<double>> jump_cumulative_;
};

}  // namespace crawlq::sim
