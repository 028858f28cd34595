#pragma once
// What a computation throws once the flag its caller set from another thread (a lab request whose
// client has gone, Ctrl-C) is seen: PolicyEvaluator::evaluate, the policy searches, the transients'
// and the sojourn laws' products.
#include <stdexcept>

namespace crawlq::analytic {

class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace crawlq::analytic
