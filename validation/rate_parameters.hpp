#pragma once
// Every rate and start probability of a model's laws, one at a time: what the per-rate
// sensitivities (`solve --sensitivity-rates`) differentiate. A rate is that of one transition: of
// D_k^(r) (the batches of k pages, or for k = 0 a phase change without one), of the service's S
// (a phase change) or exit, of the obsolescence clock's Gamma or exit. Moving it moves its row's
// diagonal the other way, so that the generator's rows keep summing to zero. An entry of beta or
// gamma moves with the other entries lowered in proportion, so that the law still sums to 1.
#include <string>
#include <vector>

#include "model/model.hpp"

namespace crawlq::validation {

struct RateParameter {
  enum class Law { kArrivals, kService, kObsolescence };
  enum class Kind { kRate, kExit, kStart };
  Law law = Law::kArrivals;
  Kind kind = Kind::kRate;
  int mode = 0;   // arrivals: r - 1
  int batch = 0;  // arrivals: k of D_k
  int row = 0, column = 0;
  // Its name, the path to it in a scenario file ("arrivals.modes[0].D[1][0][1]", "service.S[0][1]",
  // "service.exit[1]", "obsolescence.gamma[0]"), indices from 0 as in the file.
  std::string name;
  double value = 0;  // the rate or the probability in the model
  // The largest step up that keeps the model valid (the whole rate, or what the others can give).
  double room = 0;
  // Whether it moves the tagged page's chain (the service and the clocks) and not only Q.
  bool tagged() const { return law != Law::kArrivals; }
};

// The nonzero rates of every D_k^(r) (D_0's diagonal excepted), of S and Gamma off their diagonals
// and of their exits, and every entry of beta and gamma below 1; in that order.
std::vector<RateParameter> rate_parameters(const model::Model& model);

// `model` with `parameter` moved by `step` (0 < step < room, or any step down to -value for a
// rate); throws model::InputError when the moved model breaks a rule.
model::Model moved(const model::Model& model, const RateParameter& parameter, double step);

}  // namespace crawlq::validation
