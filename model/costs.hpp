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

}  // namespace crawlq::model
