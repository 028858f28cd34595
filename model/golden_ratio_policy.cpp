#include "model/golden_ratio_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "model/refresh_model.hpp"

namespace crawlq::model {

std::vector<long> golden_ratio_counts(const std::vector<double>& frequencies, long cycle) {
  const long n = static_cast<long>(frequencies.size());
  if (cycle < n)
    throw std::invalid_argument(fmt::format("a cycle of {} reads cannot read {} pages", cycle, n));
  const double total = std::accumulate(frequencies.begin(), frequencies.end(), 0.0);
  std::vector<long> counts(n);
  std::vector<double> remainder(n);
  long assigned = 0;
  for (long i = 0; i < n; ++i) {
    const double exact = frequencies[i] / total * static_cast<double>(cycle);
    counts[i] = static_cast<long>(std::floor(exact));
    remainder[i] = exact - static_cast<double>(counts[i]);
    assigned += counts[i];
  }
  // Pages whose share rounds down to nothing come first (their ceiling, 1, is allowed), then the
  // largest remainders; ties by page index, so the cycle does not depend on sort stability.
  std::vector<long> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](long a, long b) {
    if ((counts[a] == 0) != (counts[b] == 0)) return counts[a] == 0;
    if (remainder[a] != remainder[b]) return remainder[a] > remainder[b];
    return a < b;
  });
  for (long k = 0; assigned < cycle; ++k, ++assigned) ++counts[order[k % n]];
  return counts;
}

std::vector<int> golden_ratio_cycle(const std::vector<long>& counts) {
  const long cycle = std::accumulate(counts.begin(), counts.end(), 0L);
  std::vector<int> owner;
  owner.reserve(cycle);
  for (std::size_t i = 0; i < counts.size(); ++i)
    owner.insert(owner.end(), counts[i], static_cast<int>(i));
  // frac(j / phi) computed as frac(j * (phi - 1)) in long double: distinct for every j of a cycle
  // of up to 10^9 reads (the gaps are at least about 1 / (2 F_k)).
  const long double inverse_phi = (std::sqrt(5.0L) - 1.0L) / 2.0L;
  std::vector<std::pair<long double, long>> points(cycle);
  for (long j = 0; j < cycle; ++j) {
    const long double x = static_cast<long double>(j) * inverse_phi;
    points[j] = {x - std::floor(x), j};
  }
  std::sort(points.begin(), points.end());
  std::vector<int> sequence(cycle);
  for (long s = 0; s < cycle; ++s) sequence[s] = owner[points[s].second];
  return sequence;
}

long default_golden_ratio_cycle(int pages) {
  for (long f : fibonacci_numbers())
    if (f >= 144 && f >= 20L * pages) return f;
  return fibonacci_numbers().back();
}

}  // namespace crawlq::model
