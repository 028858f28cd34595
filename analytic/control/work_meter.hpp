#pragma once
// The work a policy search has solved, counted as it goes against the most it may take, so that no
// search runs without bound whatever its descent meets (search_work.hpp counts it before it
// starts).
#include <stdexcept>
#include <string>

namespace crawlq::analytic {

// Thrown by a search whose next batch of policies would take it past the most it was given.
class SearchBeyondBudget : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Charged before each batch of policies by the thread that makes the batches, so the count, and
// where a search stops, do not depend on the thread count.
class WorkMeter {
 public:
  // `most`: the work (policies x states each, search_work.hpp's unit) a search may take; 0: no
  // bound.
  explicit WorkMeter(double most = 0) : most_(most) {}
  // Counts `policies` policies of `each` units; throws SearchBeyondBudget, before counting them,
  // when they would pass the most.
  void spend(double policies, double each);
  // The same refusal without counting: before candidates are built, the ones spend will count.
  void afford(double policies, double each) const;
  double spent() const { return spent_; }
  double policies() const { return policies_; }

 private:
  double most_;
  double spent_ = 0, policies_ = 0;
};

// meter->spend and meter->afford when there is a meter.
inline void spend(WorkMeter* meter, double policies, double each) {
  if (meter) meter->spend(policies, each);
}
inline void afford(const WorkMeter* meter, double policies, double each) {
  if (meter) meter->afford(policies, each);
}

}  // namespace crawlq::analytic
