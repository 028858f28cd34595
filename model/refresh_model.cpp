#include "model/refresh_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/input_error.hpp"

namespace crawlq::model {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// ln(e^a + e^b); -inf stands for 0.
double log_add(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == kMinusInfinity) return a;
  return a + std::log1p(std::exp(b - a));
}

// ln(alpha (mu I - T)^{-1} t) when h is too small for a double. mu I - T is an M-matrix whose rows
// sum to mu + t_i > 0; eliminating with each row's sum kept apart (Grassmann, Taksar, Heyman) only
// ever adds non-negative numbers, so on logarithms nothing cancels and nothing underflows (h is
// about (rate / mu)^phases).
double log_absorption_transform(const PhaseType& ph, double mu) {
  const int n = ph.phases();
  const Matrix& t = ph.subgenerator();
  Matrix off(n, n);  // ln |a_ij| of the block not yet eliminated, i != j
  Vector slack(n), rhs(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      off(i, j) = i != j && t(i, j) > 0 ? std::log(t(i, j)) : kMinusInfinity;
    const double exit = ph.exit_rates()(i);
    rhs(i) = exit > 0 ? std::log(exit) : kMinusInfinity;
    slack(i) = log_add(std::log(mu), rhs(i));
  }
  std::vector<double> diagonal(n);
  for (int k = 0; k < n; ++k) {
    diagonal[k] = slack(k);
    for (int j = k + 1; j < n; ++j) diagonal[k] = log_add(diagonal[k], off(k, j));
    for (int i = k + 1; i < n; ++i) {
      if (off(i, k) == kMinusInfinity) continue;
      const double factor = off(i, k) - diagonal[k];
      for (int j = k + 1; j < n; ++j)
        if (j != i) off(i, j) = log_add(off(i, j), factor + off(k, j));
      slack(i) = log_add(slack(i), factor + slack(k));
      rhs(i) = log_add(rhs(i), factor + rhs(k));
    }
  }
  Vector v(n);
  for (int k = n - 1; k >= 0; --k) {
    double sum = rhs(k);
    for (int j = k + 1; j < n; ++j) sum = log_add(sum, off(k, j) + v(j));
    v(k) = sum - diagonal[k];
  }
  double total = kMinusInfinity, mass = kMinusInfinity;
  for (int j = 0; j < n; ++j) {
    if (ph.initial()(j) <= 0) continue;
    total = log_add(total, std::log(ph.initial()(j)) + v(j));
    mass = log_add(mass, std::log(ph.initial()(j)));
  }
  return total - mass;
}

// -(c + ln(1 - c)) / c^2 = sum_{k >= 0} c^k / (k + 2); the series below 0.01, where the closed form
// loses digits to cancellation.
double log_remainder_ratio(double c) {
  if (c >= 0.01) return -(c + std::log1p(-c)) / (c * c);
  double sum = 0, power = 1;
  for (int k = 0; k < 12; ++k, power *= c) sum += power / (k + 2);
  return sum;
}

bool is_normal_positive(double x) {
  return std::isfinite(x) && x >= std::numeric_limits<double>::min();
}

// ln l from l itself while l is a normal double (to its last digit), else from the factors of l.
double log_of(double ell, double log_factors) {
  return is_normal_positive(ell) ? std::log(ell) : log_factors;
}

LaplaceValue constant_laplace_value(double mu, double x) {
  LaplaceValue v;
  v.ell = mu * x;
  v.log_ell = log_of(v.ell, std::log(mu) + std::log(x));
  return v;
}

// With m = alpha (mu I - T)^{-1} e: 1 - h = mu m exactly (no cancellation), and by the resolvent
// identity E[X] - m = mu alpha (-T)^{-1} (mu I - T)^{-1} e = mu w. Then
// mu E[X] - l = mu^2 w + (c + ln(1 - c)) with c = mu m, so delta = mu (w - m^2 xi(c)) / E[X] keeps
// its digits as mu -> 0 (about mu Var X / (2 E[X])). m and w are computed over E[X] and E[X]^2,
// where they lie in (0, 1] and (0, E[X^2] / (2 E[X]^2)]: unscaled, w overflows for E[X] ~ 1e300.
LaplaceValue phase_type_laplace_value(const PhaseType& ph, double mu, double mean) {
  const int n = ph.phases();
  const double mass = ph.initial().sum(), q = mu * mean, log_q = std::log(mu) + std::log(mean);
  const auto shifted = (mu * Matrix::Identity(n, n) - ph.subgenerator()).partialPivLu();
  const Vector scaled_resolvent = shifted.solve(Vector::Constant(n, 1.0 / mean));
  const double m = ph.initial().dot(scaled_resolvent) / mass, c = q * m;
  LaplaceValue v;
  if (c <= 0.5) {
    v.ell = -std::log1p(-c);
    v.log_ell = log_of(v.ell, log_q + std::log(m));
    const double w = ph.initial().dot((-ph.subgenerator()).partialPivLu().solve(scaled_resolvent)) /
                     (mass * mean);
    v.delta = std::clamp(q * (w - m * m * log_remainder_ratio(c)), 0.0, 1.0);
    v.kappa = 1.0 - v.delta;
    return v;
  }
  const double h = ph.initial().dot(shifted.solve(ph.exit_rates())) / mass;
  v.ell = h > 1e-250 ? -std::log(h) : -log_absorption_transform(ph, mu);
  v.log_ell = std::log(v.ell);
  v.kappa = std::min(1.0, std::exp(v.log_ell - log_q));
  v.delta = 1.0 - v.kappa;
  return v;
}

// mu * x as text, also where the product leaves the doubles.
std::string product_text(double mu, double x) {
  const double p = mu * x;
  if (is_normal_positive(p)) return fmt::format("{:.3g}", p);
  return fmt::format("about 1e{:.0f}", std::log10(mu) + std::log10(x));
}

void check_scale(const RefreshModel& m) {
  const double mean = m.access_time.mean();
  if (!std::isfinite(mean) || mean <= 0)
    throw InputError("refresh.access_time",
                     fmt::format("mean E[X] = {}: must be finite and > 0", mean));
  long double total =
      0;  // its range reaches 1e4932: the sum is shown even where a double overflows
  for (std::size_t i = 0; i < m.change_rates.size(); ++i) {
    const double mu = m.change_rates[i];
    if (std::log(mu) + std::log(mean) < std::log(kSmallestChangePerRead))
      throw InputError(
          fmt::format("refresh.change_rates[{}]", i),
          fmt::format("{}: mu_i E[X] = {} changes per read, below the {:g} this computes with "
                      "(the page is as good as never stale; leave it out or change the time unit)",
                      mu, product_text(mu, mean), kSmallestChangePerRead));
    total += static_cast<long double>(mu) * mean;
  }
  if (total > std::numeric_limits<double>::max())
    throw InputError(
        "refresh.change_rates",
        fmt::format("mu E[X] = {:.3g} changes per read in all, above the largest double, 1.8e308 "
                    "(change the time unit)",
                    total));
  long double weights = 0;
  for (double c : m.weights) weights += c;
  if (!(weights <= kLargestTotalWeight))
    throw InputError(
        "refresh.weights",
        fmt::format(
            "their sum {:.3g} is above {:g}, where costs and their intervals would overflow "
            "(scale them down; without `weights` they are the change rates)",
            weights, kLargestTotalWeight));
}

}  // namespace

double AccessTime::mean() const {
  if (const auto* c = std::get_if<DeterministicTime>(&law_)) return c->value;
  return std::get<PhaseType>(law_).mean();
}

LaplaceValue AccessTime::laplace_value(double mu) const {
  if (const auto* c = std::get_if<DeterministicTime>(&law_))
    return constant_laplace_value(mu, c->value);
  return phase_type_laplace_value(std::get<PhaseType>(law_), mu, mean());
}

bool RefreshModel::weights_proportional_to_rates() const {
  // Compared as logarithms: c_i / mu_i itself may leave the doubles.
  const double log_c0 = std::log(weights.front()) - std::log(change_rates.front());
  for (int i = 0; i < pages(); ++i)
    if (std::abs(std::log(weights[i]) - std::log(change_rates[i]) - log_c0) > 1e-12) return false;
  return true;
}

void RefreshModel::validate() const {
  if (change_rates.empty()) throw InputError("refresh.change_rates", "give at least one page");
  for (std::size_t i = 0; i < change_rates.size(); ++i)
    if (!std::isfinite(change_rates[i]) || change_rates[i] <= 0)
      throw InputError(
          fmt::format("refresh.change_rates[{}]", i),
          fmt::format("{}: a page's change rate must be finite and > 0", change_rates[i]));
  if (weights.size() != change_rates.size())
    throw InputError("refresh.weights",
                     fmt::format("{} weights for {} pages", weights.size(), change_rates.size()));
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (!std::isfinite(weights[i]) || weights[i] <= 0)
      throw InputError(fmt::format("refresh.weights[{}]", i),
                       fmt::format("{}: a weight must be finite and > 0", weights[i]));
  if (const auto* c = std::get_if<DeterministicTime>(&access_time.law()))
    if (!std::isfinite(c->value) || c->value <= 0)
      throw InputError("refresh.access_time.deterministic",
                       fmt::format("{}: must be finite and > 0", c->value));
  if (policy.frequencies) {
    if (policy.frequencies->size() != change_rates.size())
      throw InputError("refresh.policy.frequencies",
                       fmt::format("{} frequencies for {} pages", policy.frequencies->size(),
                                   change_rates.size()));
    for (std::size_t i = 0; i < policy.frequencies->size(); ++i)
      if (!std::isfinite((*policy.frequencies)[i]) || (*policy.frequencies)[i] <= 0)
        throw InputError(
            fmt::format("refresh.policy.frequencies[{}]", i),
            fmt::format("{}: every page needs a frequency > 0 (a page never read is always stale)",
                        (*policy.frequencies)[i]));
  }
  if (policy.kind == RefreshPolicyKind::kCyclic) {
    if (policy.sequence.empty())
      throw InputError("refresh.policy.sequence", "a cyclic policy needs the pages of one cycle");
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
        const double share =
            static_cast<double>(visits[i]) / static_cast<double>(policy.sequence.size());
        if (std::abs((*policy.frequencies)[i] - share) > 1e-9)
          throw InputError(
              fmt::format("refresh.policy.frequencies[{}]", i),
              fmt::format("{}: the sequence reads page {} {} times in {}, a frequency of {}",
                          (*policy.frequencies)[i], i, visits[i], policy.sequence.size(), share));
      }
  } else if (!policy.sequence.empty()) {
    throw InputError("refresh.policy.sequence", "only a cyclic policy has a sequence");
  }
  if (policy.kind == RefreshPolicyKind::kGoldenRatio && policy.cycle != 0) {
    if (!is_fibonacci(policy.cycle))
      throw InputError("refresh.policy.cycle",
                       fmt::format("{}: must be a Fibonacci number (13, 21, 34, 55, 89, 144, ...)",
                                   policy.cycle));
    if (policy.cycle < pages())
      throw InputError(
          "refresh.policy.cycle",
          fmt::format("{}: shorter than the {} pages it must read", policy.cycle, pages()));
  } else if (policy.kind != RefreshPolicyKind::kGoldenRatio && policy.cycle != 0) {
    throw InputError("refresh.policy.cycle", "only a golden-ratio policy has a cycle");
  }
  check_scale(*this);
}

const std::vector<long>& fibonacci_numbers() {
  static const std::vector<long> numbers = [] {
    std::vector<long> f{1, 2};
    while (f.back() <= std::numeric_limits<long>::max() - f[f.size() - 2])
      f.push_back(f.back() + f[f.size() - 2]);
    return f;
  }();
  return numbers;
}

bool is_fibonacci(long n) {
  const auto& f = fibonacci_numbers();
  return std::binary_search(f.begin(), f.end(), n);
}

}  // namespace crawlq::model
