#pragma once
// The weights of the cost criterion (2): c_loss, c_obs, a, c_rob, c_star, and a holding cost per
// page in the system per unit time (not in the paper; 0 unless a file gives it).
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "model/measure_list.hpp"

namespace crawlq::model {

struct Costs {
  double loss = 0.0;
  double obsolescence = 0.0;
  double sojourn = 0.0;
  double robot = 0.0;
  double starvation = 0.0;
  double holding = 0.0;
};

// Every weight with its key under `costs:` (the scenario file, sweep's costs.KEY), named once.
struct CostWeight {
  std::string_view key;
  double Costs::*weight;
  std::string_view meaning;
};
inline const std::array<CostWeight, 6>& cost_weights() {
  static const std::array<CostWeight, 6> list{{
      {"loss", &Costs::loss, "per page lost at a full buffer"},
      {"obsolescence", &Costs::obsolescence, "per page gone stale while waiting"},
      {"sojourn", &Costs::sojourn, "times the mean sojourn of served pages"},
      {"robot", &Costs::robot, "per active robot per unit time"},
      {"starvation", &Costs::starvation, "per unit time the indexer is idle"},
      {"holding", &Costs::holding, "per page in the system per unit time"},
  }};
  return list;
}

// The criterion (2): lambda (c_loss P_loss + c_obs P_obs) + a V^(1) + c_rob N_act + c_star P_star,
// with V^(1) the mean sojourn of served pages, plus c_hold L (L the mean pages in the system).
// Every term but a V^(1) is a long-run average of a cost rate.
inline double cost_criterion(const Costs& c, const MeasureSet<double>& m) {
  return m.lambda * (c.loss * m.p_loss + c.obsolescence * m.p_obsolete) +
         c.sojourn * m.mean_sojourn_served + c.robot * m.mean_active_robots +
         c.starvation * m.p_starvation + c.holding * m.mean_in_system;
}

// R = 100 (1 - C* / min_r C_r), the relative profit of Table 2: what the best policy saves over the
// best constant number of robots, in per cent. 0 when every constant policy costs nothing (nothing
// to save, rather than 0/0).
inline double relative_profit(double best_cost, const std::vector<double>& constant_costs) {
  const double least = *std::min_element(constant_costs.begin(), constant_costs.end());
  return least > 0 ? 100.0 * (1.0 - best_cost / least) : 0.0;
}

}  // namespace crawlq::model
