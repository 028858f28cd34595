#pragma once
// The weights of the cost criterion (2): c_loss, c_obs, a, c_rob, c_star.
#include <algorithm>
#include <vector>

namespace crawlq::model {

struct Costs {
  double loss = 0.0;
  double obsolescence = 0.0;
  double sojourn = 0.0;
  double robot = 0.0;
  double starvation = 0.0;
};

// The criterion (2): lambda (c_loss P_loss + c_obs P_obs) + a V^(1) + c_rob N_act + c_star P_star,
// with V^(1) the mean sojourn of served pages.
inline double cost_criterion(const Costs& c, double lambda, double p_loss, double p_obsolete,
                             double mean_sojourn_served, double mean_active_robots, double p_starvation) {
  return lambda * (c.loss * p_loss + c.obsolescence * p_obsolete) + c.sojourn * mean_sojourn_served +
         c.robot * mean_active_robots + c.starvation * p_starvation;
}

// R = 100 (1 - C* / min_r C_r), the relative profit of Table 2: what the best policy saves over the
// best constant number of robots, in per cent. 0 when every constant policy costs nothing (nothing
// to save, rather than 0/0).
inline double relative_profit(double best_cost, const std::vector<double>& constant_costs) {
  const double least = *std::min_element(constant_costs.begin(), constant_costs.end());
  return least > 0 ? 100.0 * (1.0 - best_cost / least) : 0.0;
}

}  // namespace crawlq::model
