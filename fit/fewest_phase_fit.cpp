#include "fit/fewest_phase_fit.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "fit/phase_type_moments.hpp"

namespace crawlq::fit {

namespace {

constexpr double kMomentTolerance = 1e-10;

// Which of the two canonical forms: V + B U (the exponential always, the Erlang part by the coin)
// or U + B V (the Erlang part always).
enum class Form { kExponentialFirst, kErlangFirst };

struct Candidate {
  double p;            // the coin
  double exponential;  // V's mean
  double erlang;       // U's mean
  double m3_excess;    // the form's m3 minus the one asked for
};

// The form of order n = k + 1 with U's mean r, m1 = 1 and m2 = n2, if one exists (p in (0, 1],
// both means > 0).
std::optional<Candidate> candidate(Form form, int k, double r, double n2, double n3) {
  const double c2 = (k + 1.0) / k, c3 = (k + 1.0) * (k + 2.0) / (static_cast<double>(k) * k);
  double p = 0, e = 0;
  if (form == Form::kExponentialFirst) {
    // m1 = e + p r = 1 and m2 = 2 e^2 + 2 p e r + p c2 r^2 = 2 + p (c2 r^2 - 2 r).
    const double slope = c2 * r * r - 2 * r;
    if (slope == 0) return std::nullopt;
    p = (n2 - 2) / slope;
    e = 1 - p * r;
  } else {
    // m1 = r + p e = 1 and m2 = c2 r^2 + 2 r p e + 2 p e^2 = c2 r^2 + 2 r (1 - r) + 2 (1 - r) e.
    if (!(r < 1)) return std::nullopt;
    e = (n2 - c2 * r * r - 2 * r * (1 - r)) / (2 * (1 - r));
    if (!(e > 0)) return std::nullopt;
    p = (1 - r) / e;
  }
  if (!(p > 0 && p <= 1 && e > 0 && r > 0 && std::isfinite(e))) return std::nullopt;
  const double m3 =
      form == Form::kExponentialFirst
          ? 6 * e * e * e + 6 * p * e * e * r + 3 * p * e * c2 * r * r + p * c3 * r * r * r
          : c3 * r * r * r + 3 * c2 * r * r * p * e + 6 * r * p * e * e + 6 * p * e * e * e;
  return Candidate{p, e, r, m3 - n3};
}

// The values of U's mean scanned for a change of sign: logarithmic over 32 decades, even over
// (0, 4], and dense on both sides of the point where the form's parameters diverge (r = 1 for
// U + B V, r = 2 / c2 for V + B U), where the roots of heavy tails sit.
std::vector<double> scan_points(Form form, int k) {
  // The part that depends on no order, computed once: a fit tries up to 100 orders.
  static const std::vector<double> everywhere = [] {
    std::vector<double> points;
    for (int i = 0; i <= 6400; ++i) points.push_back(std::pow(10.0, -16 + i / 200.0));
    for (int i = 1; i <= 4000; ++i) points.push_back(i / 1000.0);
    std::sort(points.begin(), points.end());
    return points;
  }();
  const double pole = form == Form::kErlangFirst ? 1.0 : 2.0 * k / (k + 1.0);
  std::vector<double> near_pole;
  // Increasing: gaps from 10^-1 down to 10^-16 below the pole, then back up above it.
  for (int i = 0; i <= 1500; ++i) near_pole.push_back(pole * (1 - std::pow(10.0, -1 - i / 100.0)));
  for (int i = 1500; i >= 0; --i) near_pole.push_back(pole * (1 + std::pow(10.0, -1 - i / 100.0)));
  std::vector<double> points(everywhere.size() + near_pole.size());
  std::merge(everywhere.begin(), everywhere.end(), near_pole.begin(), near_pole.end(),
             points.begin());
  return points;
}

AcyclicLaw law_of(Form form, int k, const Candidate& c) {
  const int n = k + 1;
  AcyclicLaw law{model::RowVector::Zero(n), model::Matrix::Zero(n, n)};
  const double erlang_rate = k / c.erlang, exponential_rate = 1 / c.exponential;
  // The Erlang chain's phases are `first .. first + k - 1`, then the exit (or the exponential).
  const int first = form == Form::kExponentialFirst ? 0 : 1;
  for (int i = first; i < first + k; ++i) {
    law.s(i, i) = -erlang_rate;
    if (i + 1 < n) law.s(i, i + 1) = erlang_rate;
  }
  const int exponential_phase = form == Form::kExponentialFirst ? k : 0;
  law.s(exponential_phase, exponential_phase) = -exponential_rate;
  if (form == Form::kErlangFirst) law.s(0, 1) = exponential_rate;
  // The coin: p enters where the optional part starts, 1 - p past it.
  law.beta(0) = c.p;
  law.beta(form == Form::kExponentialFirst ? k : 1) += 1 - c.p;
  return law;
}

bool has_moments(const AcyclicLaw& law, double n2, double n3) {
  const std::vector<double> m = phase_type_moments(law.beta, law.s, 3);
  return std::abs(m[0] - 1) <= kMomentTolerance && std::abs(m[1] / n2 - 1) <= kMomentTolerance &&
         std::abs(m[2] / n3 - 1) <= kMomentTolerance;
}

AcyclicLaw erlang(int n) {
  AcyclicLaw law{model::RowVector::Zero(n), model::Matrix::Zero(n, n)};
  law.beta(0) = 1;
  for (int i = 0; i < n; ++i) {
    law.s(i, i) = -n;
    if (i + 1 < n) law.s(i, i + 1) = n;
  }
  return law;
}

std::optional<AcyclicLaw> law_of_order(int n, double n2, double n3) {
  // Erlang-n is the single law of order n at its scv 1/n: both forms meet there at p = 1.
  const AcyclicLaw plain = erlang(n);
  if (has_moments(plain, n2, n3)) return plain;
  if (n == 1) return std::nullopt;
  const int k = n - 1;
  for (const Form form : {Form::kExponentialFirst, Form::kErlangFirst}) {
    std::optional<Candidate> previous;
    double previous_r = 0;
    for (const double r : scan_points(form, k)) {
      const auto here = candidate(form, k, r, n2, n3);
      if (here && previous && (here->m3_excess < 0) != (previous->m3_excess < 0)) {
        double low = previous_r, high = r;
        const bool low_negative = previous->m3_excess < 0;
        Candidate root = *here;
        for (int step = 0; step < 200; ++step) {
          const double middle = 0.5 * (low + high);
          if (middle == low || middle == high) break;
          const auto at = candidate(form, k, middle, n2, n3);
          if (!at) break;
          root = *at;
          ((at->m3_excess < 0) == low_negative ? low : high) = middle;
        }
        const AcyclicLaw law = law_of(form, k, root);
        if (has_moments(law, n2, n3)) return law;
      }
      previous = here;
      previous_r = r;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<AcyclicLaw> fewest_phase_law(double n2, double n3, int most_phases) {
  // m1 m3 >= m2^2 holds for every law of times > 0 (Cauchy-Schwarz on X^(1/2) and X^(3/2)).
  if (n3 < n2 * n2 * (1 - 1e-12)) return std::nullopt;
  for (int n = 1; n <= most_phases; ++n) {
    // Order n reaches m2 >= (n + 1) / n only (Aldous and Shepp).
    if (n2 < (n + 1.0) / n * (1 - 1e-12)) continue;
    if (auto law = law_of_order(n, n2, n3)) return law;
  }
  return std::nullopt;
}

}  // namespace crawlq::fit
