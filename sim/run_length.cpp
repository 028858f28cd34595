#include "sim/run_length.hpp"

#include "sim/warmup.hpp"

namespace crawlq::sim {

RunLength run_length(const model::Model& model, const Policy& policy, std::uint64_t seed,
                     std::optional<double> horizon, std::optional<double> warmup,
                     const std::optional<Pace>& pace) {
  RunLength length;
  length.horizon =
      horizon ? *horizon : default_horizon(pace ? *pace : measure_pace(model, policy, seed));
  length.warmup = warmup ? *warmup : mser5_warmup(model, policy, seed, length.horizon);
  round_to_whole_periods(model, length.warmup, length.horizon);
  return length;
}

}  // namespace crawlq::sim
