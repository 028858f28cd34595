#include "sim/phase_type_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace crawlq::sim {

namespace {
constexpr double kExitRoundOff = 1e-12;
}  // namespace

PhaseTypeSampler::PhaseTypeSampler(const model::PhaseType& law) : phases_(law.phases()) {
  const auto& t = law.subgenerator();
  const auto& exits = law.exit_rates();
  if (const std::optional<double> rate = law.common_exit_rate()) lumped_mean_ = 1 / *rate;
  if (phases_ == 2 && lumped_mean_ == 0 && (t(0, 1) > 0 || t(1, 0) > 0)) {
    // -T's eigenvalues are real (its off-diagonal product is >= 0), and alpha t lies in
    // [0, lambda_fast], since lambda_fast is at least either diagonal entry.
    const double half_trace = -(t(0, 0) + t(1, 1)) / 2, half_gap = (t(0, 0) - t(1, 1)) / 2;
    const double spread = std::sqrt(half_gap * half_gap + t(0, 1) * t(1, 0));
    const double fast = half_trace + spread;
    const double slow = (t(0, 0) * t(1, 1) - t(0, 1) * t(1, 0)) / fast;  // det(-T) / fast
    fast_mean_ = 1 / fast;
    slow_mean_ = 1 / slow;
    slow_first_ = std::clamp(1 - law.initial().dot(exits) / fast, 0.0, 1.0);
  }
  double sum = 0;
  for (int i = 0; i < phases_; ++i) {
    start_.push_back(sum += law.initial()(i));
    if (law.initial()(i) == 1.0) start_single_ = i;
  }
  start_.back() = 1.0;
  for (int i = 0; i < phases_; ++i) {
    const double rate = -t(i, i);
    int moves = 0, last_move = -1;
    double c = 0;
    const int offset = static_cast<int>(jump_cumulative_.size());
    for (int j = 0; j < phases_; ++j) {
      const double p = j == i ? 0.0 : t(i, j) / rate;
      if (p > 0) ++moves, last_move = j;
      jump_cumulative_.push_back(c += p);
    }
    jump_cumulative_.push_back(1.0);  // absorption
    // An exit below round-off of the phase's rate is none: the row's sum is zero as given.
    const bool never_exits = exits(i) <= kExitRoundOff * rate;
    table_.push_back({1.0 / rate, offset, moves == 0, moves == 1 && never_exits ? last_move : -1});
  }
}

}  // namespace crawlq::sim
