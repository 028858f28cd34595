#include "analytic/refresh/refresh_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "analytic/refresh/refresh_rates.hpp"
#include "model/golden_ratio_policy.hpp"

namespace crawlq::analytic {

namespace {

bool reads_every_page(const std::vector<long>& counts) {
  return std::all_of(counts.begin(), counts.end(), [](long m) { return m > 0; });
}

// The paper's rounding, floor(f_i F_k) <= M_i <= ceil(f_i F_k) with sum M_i = F_k, can leave a page
// of frequency well below 1 / F_k unread (h_i ~ 0 on another page makes such frequencies): a policy
// that never reads a page is no stationary policy CLW (1), so name the shortest cycle that reads
// them all.
void require_every_page_read(const std::vector<long>& counts, const std::vector<double>& f,
                             long cycle) {
  if (reads_every_page(counts)) return;
  const auto unread =
      static_cast<std::size_t>(std::find(counts.begin(), counts.end(), 0L) - counts.begin());
  for (long k : model::fibonacci_numbers())
    if (k > cycle && reads_every_page(model::golden_ratio_counts(f, k)))
      throw std::invalid_argument(fmt::format(
          "{}: leaves page {} unread (f_i F_k = {:.3g} rounds to 0); the shortest golden-ratio cycle that "
          "reads every page is {}",
          cycle, unread, f[unread] * static_cast<double>(cycle), k));
  throw std::invalid_argument(fmt::format(
      "{}: leaves page {} unread, as does every Fibonacci cycle a long holds: its frequency is {:.3g}{}",
      cycle, unread, f[unread],
      f[unread] == 0
          ? " (the optimum of (7) does not read it for these weights); give refresh.policy.frequencies"
          : "; give it a larger share in refresh.policy.frequencies"));
}

// Refuses a cycle whose reads would not fit in memory, naming the largest Fibonacci cycle that
// would.
void require_cycle_fits(const model::RefreshModel& model, long cycle, bool chosen,
                        double available_bytes) {
  const double need = refresh_analysis_bytes(model, cycle);
  if (need <= available_bytes) return;
  long largest = 0;
  for (long f : model::fibonacci_numbers())
    if (f >= model.pages() && refresh_analysis_bytes(model, f) <= available_bytes) largest = f;
  throw std::invalid_argument(fmt::format(
      "{}{}: a golden-ratio cycle of that many reads needs about {:.3g} GiB, more than the {:.3g} GiB this machine "
      "can give; {}",
      cycle, chosen ? fmt::format(" (the shortest reading all {} pages)", model.pages()) : "",
      need / (1 << 30), available_bytes / (1 << 30),
      largest ? fmt::format("the largest cycle that fits is {}", largest)
              : fmt::format("no cycle of at least {} reads fits", model.pages())));
}

// From the default for N pages on, the shortest Fibonacci cycle whose rounding reads every page
// (the default itself unless some f_i is well below 1 / F_k).
long shortest_cycle_reading_every_page(const std::vector<double>& f, int pages) {
  const long first = model::default_golden_ratio_cycle(pages);
  for (long k : model::fibonacci_numbers())
    if (k >= first && reads_every_page(model::golden_ratio_counts(f, k))) return k;
  return first;
}

}  // namespace

double refresh_analysis_bytes(const model::RefreshModel& model, long cycle_length) {
  // Per read, the larger of two peaks: building the cycle (its owner, the (long double, long) pair
  // sorted, the sequence: 4 + 32 + 4) and printing it (the cycle, its JSON value and text: 4 + 16 +
  // about 12); measured: 40 bytes a read for a cycle of 165580141. Per page: the model, the Laplace
  // values and a dozen vectors of results.
  constexpr double kPerRead = 48, kPerPage = 400;
  return kPerRead * static_cast<double>(cycle_length) + kPerPage * model.pages();
}

RefreshAnalysis analyze_refresh(const model::RefreshModel& model, double available_bytes) {
  const model::RefreshPolicySpec& p = model.policy;
  if (p.kind == model::RefreshPolicyKind::kGoldenRatio && p.cycle)
    require_cycle_fits(model, p.cycle, false, available_bytes);
  RefreshAnalysis a;
  a.laplace = access_laplace_values(model);
  a.h = laplace_transforms(a.laplace);
  a.mean_access_time = model.access_time.mean();
  a.lower_bound = refresh_lower_bound(model, a.laplace);
  a.randomized = optimal_randomized_frequencies(model, a.laplace);
  for (double mu : model.change_rates) a.change_per_read += mu * a.mean_access_time;
  a.golden_ratio_limit = golden_ratio_limit_ratio(a.change_per_read);

  switch (p.kind) {
    case model::RefreshPolicyKind::kRandomized:
      a.frequencies = p.frequencies ? *p.frequencies : a.randomized.frequencies;
      a.obsolescence_rates = randomized_obsolescence_rates(model, a.laplace, a.frequencies);
      break;
    case model::RefreshPolicyKind::kCyclic:
      a.cycle = p.sequence;
      a.frequencies = cycle_frequencies(a.cycle, model.pages());
      a.obsolescence_rates = cyclic_obsolescence_rates(model, a.laplace, a.cycle);
      break;
    case model::RefreshPolicyKind::kGoldenRatio: {
      a.frequencies = p.frequencies ? *p.frequencies : a.lower_bound.frequencies;
      const long length =
          p.cycle ? p.cycle : shortest_cycle_reading_every_page(a.frequencies, model.pages());
      require_cycle_fits(model, length, !p.cycle, available_bytes);
      a.cycle_counts = model::golden_ratio_counts(a.frequencies, length);
      require_every_page_read(a.cycle_counts, a.frequencies, length);
      a.cycle = model::golden_ratio_cycle(a.cycle_counts);
      a.obsolescence_rates = cyclic_obsolescence_rates(model, a.laplace, a.cycle);
      break;
    }
  }
  a.cost = refresh_cost(model, a.obsolescence_rates);
  a.cost_over_lower_bound =
      cost_ratio(model, a.obsolescence_rates, a.lower_bound.obsolescence_rates);
  return a;
}

}  // namespace crawlq::analytic
