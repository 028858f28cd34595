#pragma once
// How far the log pins the EM's regimes down, from the likelihood's curvature at its top: the
// observed information (minus the Hessian of the log-likelihood, by central differences) in the
// parameters the EM keeps free (each regime's log rate, and each row of P as the logits of its
// entries against the row's last), inverted, and carried to the regimes' means and to P by the
// delta method. The first regime's law is held at its estimate: one run says next to nothing of it.
// A row of P on the boundary (an entry below 1e-9) has no curvature to read: the means' errors are
// then those of the other parameters with that row held, and P's are not given.
#include <optional>
#include <string>
#include <vector>

#include "fit/regime_map_em.hpp"
#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct RegimeMapStandardErrors {
  std::vector<double> means;                 // of each regime's mean time
  std::optional<model::Matrix> transitions;  // of each P_ij; nothing when a row is on the boundary
  // Why there is nothing (the information not positive definite: a flat direction); empty when
  // the errors are given.
  std::string absent;
};

RegimeMapStandardErrors regime_map_standard_errors(const std::vector<std::vector<double>>& runs,
                                                   const RegimeMapEm& fit);

}  // namespace crawlq::fit
