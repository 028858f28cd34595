#include "analytic/refresh_analysis.hpp"

#include "analytic/refresh_rates.hpp"
#include "model/golden_ratio_policy.hpp"

namespace crawlq::analytic {

RefreshAnalysis analyze_refresh(const model::RefreshModel& model) {
  RefreshAnalysis a;
  a.h = access_laplace_values(model);
  a.mean_access_time = model.access_time.mean();
  a.lower_bound = refresh_lower_bound(model, a.h);
  a.randomized = optimal_randomized_frequencies(model, a.h);
  for (double mu : model.change_rates) a.total_change_rate += mu;
  a.golden_ratio_limit = golden_ratio_limit_ratio(a.total_change_rate * a.mean_access_time);

  const model::RefreshPolicySpec& p = model.policy;
  switch (p.kind) {
    case model::RefreshPolicyKind::kRandomized:
      a.frequencies = p.frequencies ? *p.frequencies : a.randomized.frequencies;
      a.obsolescence_rates = randomized_obsolescence_rates(model, a.h, a.frequencies);
      break;
    case model::RefreshPolicyKind::kCyclic:
      a.cycle = p.sequence;
      a.frequencies = cycle_frequencies(a.cycle, model.pages());
      a.obsolescence_rates = cyclic_obsolescence_rates(model, a.h, a.cycle);
      break;
    case model::RefreshPolicyKind::kGoldenRatio: {
      a.frequencies = p.frequencies ? *p.frequencies : a.lower_bound.frequencies;
      const long length = p.cycle ? p.cycle : model::default_golden_ratio_cycle(model.pages());
      a.cycle_counts = model::golden_ratio_counts(a.frequencies, length);
      a.cycle = model::golden_ratio_cycle(a.cycle_counts);
      a.obsolescence_rates = cyclic_obsolescence_rates(model, a.h, a.cycle);
      break;
    }
  }
  a.cost = refresh_cost(model, a.obsolescence_rates);
  return a;
}

}  // namespace crawlq::analytic
