#include "model/refresh_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/input_error.hpp"

namespace crawlq::model {

double AccessTime::mean() const {
  if (const auto* c = std::get_if<DeterministicTime>(&law_)) return c->value;
  return std::get<PhaseType>(law_).mean();
}

double AccessTime::laplace_transform(double mu) const {
  if (const auto* c = std::get_if<DeterministicTime>(&law_)) return std::exp(-mu * c->value);
  const PhaseType& ph = std::get<PhaseType>(law_);
  const Matrix shifted = mu * Matrix::Identity(ph.phases(), ph.phases()) - ph.subgenerator();
  return ph.initial() * shifted.partialPivLu().solve(ph.exit_rates());
}

bool RefreshModel::weights_proportional_to_rates() const {
  const double c0 = weights.front() / change_rates.front();
  return std::all_of(weights.begin(), weights.end(), [&, i = 0](double c) mutable {
    const double expected = c0 * change_rates[i++];
    return std::abs(c - expected) <= 1e-12 * std::abs(expected);
  });
}

void RefreshModel::validate() const {
  if (change_rates.empty()) throw InputError("refresh.change_rates", "give at least one page");
  for (std::size_t i = 0; i < change_rates.size(); ++i)
    if (!std::isfinite(change_rates[i]) || change_rates[i] <= 0)
      throw InputError(fmt::format("refresh.change_rates[{}]", i),
                       fmt::format("{}: a page's change rate must be finite and > 0", change_rates[i]));
  if (weights.size() != change_rates.size())
    throw InputError("refresh.weights", fmt::format("{} weights for {} pages", weights.size(), change_rates.size()));
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (!std::isfinite(weights[i]) || weights[i] <= 0)
      throw InputError(fmt::format("refresh.weights[{}]", i), fmt::format("{}: a weight must be finite and > 0", weights[i]));
  if (const auto* c = std::get_if<DeterministicTime>(&access_time.law()))
    if (!std::isfinite(c->value) || c->value <= 0)
      throw InputError("refresh.access_time.deterministic", fmt::format("{}: must be finite and > 0", c->value));
  if (policy.frequencies) {
    if (policy.frequencies->size() != change_rates.size())
      throw InputError("refresh.policy.frequencies",
                       fmt::format("{} frequencies for {} pages", policy.frequencies->size(), change_rates.size()));
    for (std::size_t i = 0; i < policy.frequencies->size(); ++i)
      if (!std::isfinite((*policy.frequencies)[i]) || (*policy.frequencies)[i] <= 0)
        throw InputError(fmt::format("refresh.policy.frequencies[{}]", i),
                         fmt::format("{}: every page needs a frequency > 0 (a page never read is always stale)",
                                     (*policy.frequencies)[i]));
  }
  if (policy.kind == RefreshPolicyKind::kCyclic) {
    if (policy.sequence.empty()) throw InputError("refresh.policy.sequence", "a cyclic policy needs the pages of one cycle");
    std::vector<int> visits(change_rates.size(), 0);
    for (std::size_t k = 0; k < policy.sequence.size(); ++k) {
      const int page = policy.sequence[k];
      if (page < 0 || page >= pages())
        throw InputError(fmt::format("refresh.policy.sequence[{}]", k),
                         fmt::format("{}: pages are numbered 0..{}", page, pages() - 1));
      ++visits[page];
    }
    for (std::size_t i = 0; i < visits.size(); ++i)
      if (visits[i] == 0)
        throw InputError("refresh.policy.sequence",
                         fmt::format("page {} is never read (it would always be stale)", i));
    // A cyclic policy's frequencies are its sequence's; a list given beside it must say the same.
    if (policy.frequencies)
      for (std::size_t i = 0; i < visits.size(); ++i) {
        const double share = static_cast<double>(visits[i]) / static_cast<double>(policy.sequence.size());
        if (std::abs((*policy.frequencies)[i] - share) > 1e-9)
          throw InputError(fmt::format("refresh.policy.frequencies[{}]", i),
                           fmt::format("{}: the sequence reads page {} {} times in {}, a frequency of {}",
                                       (*policy.frequencies)[i], i, visits[i], policy.sequence.size(), share));
      }
  } else if (!policy.sequence.empty()) {
    throw InputError("refresh.policy.sequence", "only a cyclic policy has a sequence");
  }
  if (policy.kind == RefreshPolicyKind::kGoldenRatio && policy.cycle != 0) {
    if (!is_fibonacci(policy.cycle))
      throw InputError("refresh.policy.cycle", fmt::format("{}: must be a Fibonacci number (13, 21, 34, 55, 89, 144, ...)",
                                                           policy.cycle));
    if (policy.cycle < pages())
      throw InputError("refresh.policy.cycle", fmt::format("{}: shorter than the {} pages it must read", policy.cycle, pages()));
  } else if (policy.kind != RefreshPolicyKind::kGoldenRatio && policy.cycle != 0) {
    throw InputError("refresh.policy.cycle", "only a golden-ratio policy has a cycle");
  }
}

const std::vector<long>& fibonacci_numbers() {
  static const std::vector<long> numbers = [] {
    std::vector<long> f{1, 2};
    while (f.back() < (1L << 62) - f[f.size() - 2]) f.push_back(f.back() + f[f.size() - 2]);
    return f;
  }();
  return numbers;
}

bool is_fibonacci(long n) {
  const auto& f = fibonacci_numbers();
  return std::binary_search(f.begin(), f.end(), n);
}

}  // namespace crawlq::model
