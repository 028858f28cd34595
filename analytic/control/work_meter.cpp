#include "analytic/control/work_meter.hpp"

#include <fmt/format.h>

namespace crawlq::analytic {

void WorkMeter::spend(double policies, double each) {
  afford(policies, each);
  spent_ += policies * each;
  policies_ += policies;
}

void WorkMeter::afford(double policies, double each) const {
  const double more = policies * each;
  if (most_ > 0 && spent_ + more > most_)
    throw SearchBeyondBudget(
        fmt::format("after {:.0f} policies solved ({:.3g} units), the next {:.0f} ({:.3g} units) "
                    "would pass the {:.3g} units "
                    "one search may take",
                    policies_, spent_, policies, more, most_));
}

}  // namespace crawlq::analytic
