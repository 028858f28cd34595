#include "sim/phase_type_sampler.hpp"

namespace crawlq::sim {

namespace {
int pick(const std::vector<double>& cumulative, double u) {
  int i = 0;
  const int last = static_cast<int>(cumulative.size()) - 1;
  while (i < last && u >= cumulative[i]) ++i;
  return i;
}
}  // namespace

PhaseTypeSampler::PhaseTypeSampler(const model::PhaseType& law) : phases_(law.phases()) {
  const auto& t = law.subgenerator();
  double sum = 0;
  for (int i = 0; i < phases_; ++i) start_cumulative_.push_back(sum += law.initial()(i));
  start_cumulative_.back() = 1.0;
  for (int i = 0; i < phases_; ++i) {
    const double rate = -t(i, i);
    exit_rate_.push_back(rate);
    std::vector<double> cumulative;
    double c = 0;
    for (int j = 0; j < phases_; ++j) cumulative.push_back(c += (j == i ? 0.0 : t(i, j) / rate));
    cumulative.push_back(1.0);  // absorption (rate exits(i) / rate)
    jump_cumulative_.push_back(cumulative);
  }
}

double PhaseTypeSampler::sample(RandomStream& random) const {
  int phase = pick(start_cumulative_, random.uniform());
  double time = 0;
  while (true) {
    time += random.exponential(exit_rate_[phase]);
    const int next = pick(jump_cumulative_[phase], random.uniform());
    if (next == phases_) return time;
    phase = next;
  }
}

}  // namespace crawlq::sim
