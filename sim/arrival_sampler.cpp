#include "sim/arrival_sampler.hpp"

namespace crawlq::sim {

ArrivalSampler::ArrivalSampler(const model::ArrivalModes& modes) : phases_(modes.phases()) {
  for (int r = 1; r <= modes.modes(); ++r) {
    const model::Bmap& b = modes.mode(r);
    for (int nu = 0; nu < phases_; ++nu) {
      PhaseTable t;
      t.rate = -b.d(0)(nu, nu);
      t.mean_stay = 1.0 / t.rate;
      double c = 0;
      for (int k = 0; k <= b.max_batch(); ++k)
        for (int next = 0; next < phases_; ++next) {
          const double rate = (k == 0 && next == nu) ? 0.0 : b.d(k)(nu, next);
          if (rate <= 0) continue;
          t.cumulative.push_back(c += rate / t.rate);
          t.outcomes.push_back({k, next});
        }
      if (!t.cumulative.empty()) t.cumulative.back() = 1.0;  // round-off of the row sum
      tables_.push_back(std::move(t));
    }
    std::vector<double> cumulative;
    double c = 0;
    for (int nu = 0; nu < phases_; ++nu) cumulative.push_back(c += b.stationary()(nu));
    cumulative.back() = 1.0;
    stationary_cumulative_.push_back(cumulative);
  }
}

ArrivalJump ArrivalSampler::jump(int robots, int phase, RandomStream& random) const {
  const PhaseTable& t = table(robots, phase);
  const double u = random.uniform();
  // Counted rather than searched: no mispredicted branch per outcome passed.
  std::size_t i = 0;
  for (std::size_t j = 0; j + 1 < t.cumulative.size(); ++j) i += u >= t.cumulative[j];
  return t.outcomes[i];
}

int ArrivalSampler::initial_phase(int robots, RandomStream& random) const {
  const auto& cumulative = stationary_cumulative_[robots - 1];
  const double u = random.uniform();
  int i = 0;
  while (i + 1 < phases_ && u >= cumulative[i]) ++i;
  return i;
}

}  // namespace crawlq::sim
