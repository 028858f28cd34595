#pragma once
// The model whose answer a test knows in closed form: Poisson robots, exponential service and an
// exponential obsolescence clock make the level a birth-death chain, born at lambda(i) and dying
// at mu + (i - 1) theta from level i >= 1 (the page at the indexer never expires).
#include <optional>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace crawlq::test_support {

inline model::Bmap poisson(double rate) {
  return model::Bmap({model::Matrix::Constant(1, 1, -rate), model::Matrix::Constant(1, 1, rate)});
}

// One mode a rate of `arrival_rates` (mode r's at index r - 1); no clock where impatience is 0.
inline model::Model birth_death(const std::vector<double>& arrival_rates, double service_rate,
                                int capacity, double impatience = 0) {
  std::vector<model::Bmap> modes;
  for (const double rate : arrival_rates) modes.push_back(poisson(rate));
  std::optional<model::PhaseType> clock;
  if (impatience > 0) clock = model::PhaseType::exponential(impatience);
  return model::Model{.name = "birth-death",
                      .capacity = capacity,
                      .arrivals = model::ArrivalModes(std::move(modes)),
                      .service = model::PhaseType::exponential(service_rate),
                      .obsolescence = clock,
                      .costs = {},
                      .policy = {}};
}

// The levels' probabilities: p_i proportional to prod_{j=1..i} lambda(j-1) / (mu + (j-1) theta),
// for the levels 0..K that `lambda_at` gives a birth rate each (the last one's is never used).
inline std::vector<double> birth_death_levels(const std::vector<double>& lambda_at, double mu,
                                              double theta) {
  std::vector<double> p{1.0};
  for (std::size_t i = 1; i < lambda_at.size(); ++i)
    p.push_back(p.back() * lambda_at[i - 1] / (mu + static_cast<double>(i - 1) * theta));
  double sum = 0;
  for (const double x : p) sum += x;
  for (double& x : p) x /= sum;
  return p;
}

}  // namespace crawlq::test_support
