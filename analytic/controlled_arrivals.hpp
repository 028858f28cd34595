#pragma once
// The controlled arrival process: which mode's BMAP (D_k^(r)) drives the arrivals in a state of the
// chain. The generator's blocks, its matrix-free operator and the tagged page's arrival law all read
// the matrices through here, so a policy that chooses by more than the level changes one place.
#include "model/bmap.hpp"
#include "model/model.hpp"
#include "model/policy.hpp"

namespace crawlq::analytic {

class ControlledArrivals {
 public:
  // `model` and `policy` must outlive this.
  ControlledArrivals(const model::Model& model, const model::Policy& policy) : model_(model), policy_(policy) {}
  // The BMAP in force at `level`: that of the robots the policy runs there.
  const model::Bmap& at_level(int level) const { return model_.arrivals.mode(policy_.robots(level)); }

 private:
  const model::Model& model_;
  const model::Policy& policy_;
};

}  // namespace crawlq::analytic
