#pragma once
// The weights of the cost criterion (2): c_loss, c_obs, a, c_rob, c_star.

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

}  // namespace crawlq::model
