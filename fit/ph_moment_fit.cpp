#include "fit/ph_moment_fit.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>

#include "fit/fewest_phase_fit.hpp"
#include "fit/map_statistics.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/time_scale.hpp"
#include "model/input_error.hpp"

namespace crawlq::fit {

namespace {

constexpr int kMostErlangPhases = 100;
constexpr double kLargestScv = 1e100;

struct TwoPoints {
  double x, y, p;
};

// A law on {x, y} (x, y > 0) with moments b1, b2, b3, if there is one.
std::optional<TwoPoints> two_points(double b1, double b2, double b3) {
  const double spread = b2 - b1 * b1;
  if (!(spread > 0)) return std::nullopt;
  const double s = (b3 - b1 * b2) / spread, q = s * b1 - b2;
  const double discriminant = s * s - 4 * q;
  if (!(discriminant > 0)) return std::nullopt;
  const double root = std::sqrt(discriminant), x = 0.5 * (s + root), y = 0.5 * (s - root);
  const double p = (b1 - y) / (x - y);
  if (!(x > 0 && y > 0 && p > 0 && p < 1)) return std::nullopt;
  return TwoPoints{x, y, p};
}

// Two Erlang-k laws of means x and y, weights p and 1 - p: 2k phases.
PhaseTypeFit erlang_mixture(int k, const TwoPoints& t) {
  PhaseTypeFit fit;
  fit.beta = model::RowVector::Zero(2 * k);
  fit.s = model::Matrix::Zero(2 * k, 2 * k);
  const double means[2] = {t.x, t.y}, weights[2] = {t.p, 1 - t.p};
  for (int j = 0; j < 2; ++j) {
    const double rate = k / means[j];
    fit.beta(j * k) = weights[j];
    for (int i = 0; i < k; ++i) {
      fit.s(j * k + i, j * k + i) = -rate;
      if (i + 1 < k) fit.s(j * k + i, j * k + i + 1) = rate;
    }
  }
  return fit;
}

// Two Erlang-k laws with mean 1 and moments n2, n3, if they reach them.
std::optional<PhaseTypeFit> erlang_mixture_with(int k, double n2, double n3) {
  // Erlang-k shape factors: E[X^n] = mean^n k (k+1) ... (k+n-1) / k^n; k = 1 is the exponential.
  const double c2 = (k + 1.0) / k, c3 = (k + 1.0) * (k + 2.0) / (k * static_cast<double>(k));
  const auto t = two_points(1, n2 / c2, n3 / c3);
  if (!t) return std::nullopt;
  // Far apart means (scv 10^8) lose the moments to rounding: such a mixture is no match. Its
  // moments are c_n (p x^n + (1 - p) y^n).
  const auto moment = [&](int n, double c) {
    return c * (t->p * std::pow(t->x, n) + (1 - t->p) * std::pow(t->y, n));
  };
  if (std::abs(moment(1, 1) - 1) > 1e-10 || std::abs(moment(2, c2) / n2 - 1) > 1e-10 ||
      std::abs(moment(3, c3) / n3 - 1) > 1e-10)
    return std::nullopt;
  return erlang_mixture(k, *t);
}

}  // namespace

PhaseTypeFit fit_three_moments(double m1, double m2, double m3) {
  if (!(m1 > 0) || !std::isfinite(m1) || !std::isfinite(m2) || !std::isfinite(m3))
    throw model::InputError(
        fmt::format("moments {}, {}, {}: the first must be > 0 and all finite", m1, m2, m3));
  require_time_scale(m1, m2, "the moments");
  // The fit of the law of X / m1, whose moments are those below, with its rates divided by m1: the
  // same law, computed without m1^3 leaving a double's range.
  const double n2 = m2 / m1 / m1, n3 = m3 / m1 / m1 / m1;
  const double scv = n2 - 1;
  // Beyond, the fitted law's m3 (of order scv^2 m1^3) leaves a double whatever the time unit.
  if (!(scv <= kLargestScv) || !std::isfinite(n3))
    throw model::InputError(fmt::format(
        "moments {}, {}, {}: scv {:.3g} or m3/m1^3 {:.3g} past what a double holds of a law (scv "
        "{:g} at most)",
        m1, m2, m3, scv, n3, kLargestScv));
  if (!(scv > 0))
    throw model::InputError(
        fmt::format("moments {}, {}: m2 must exceed m1^2 (a variance > 0); a constant time is no "
                    "phase-type law",
                    m1, m2));
  PhaseTypeFit fit;
  // Two exponentials (the paper's hyperexponential) first: where they reach the moments no law has
  // fewer phases but the exponential, and their rates read as two kinds of page.
  if (auto h2 = erlang_mixture_with(1, n2, n3)) {
    h2->s /= m1;
    return *h2;
  }
  // Every phase multiplies the size of the chain the law enters: the fewest that reach the moments.
  if (auto law = fewest_phase_law(n2, n3, kMostErlangPhases)) {
    fit.beta = law->beta;
    fit.s = law->s / m1;
    return fit;
  }
  // Beyond kMostErlangPhases acyclic phases, two Erlang-k laws (2k phases) may still reach them.
  // Below scv 1/kMostErlangPhases none does: the closest, Erlang-kMostErlangPhases, below.
  if (scv * kMostErlangPhases >= 1) {
    // k = 1, the hyperexponential, was tried first.
    const int fewest = scv >= 1 ? 2 : static_cast<int>(std::ceil(1 / scv - 1e-12));
    for (int k = fewest; k <= kMostErlangPhases; ++k) {
      if (auto mixture = erlang_mixture_with(k, n2, n3)) {
        mixture->s /= m1;
        return *mixture;
      }
    }
  }
  // No k reaches m3: the first two moments alone, or the mean alone below scv 1/kMostErlangPhases.
  model::RowVector alpha;
  model::Matrix t;
  phase_type_with(1, scv, kMostErlangPhases, alpha, t);
  fit.beta = alpha;
  fit.s = t / m1;
  fit.third_moment_matched = false;
  if (scv * kMostErlangPhases < 1)
    fit.note = fmt::format(
        "scv {:.6g} would need {:.3g} phases; Erlang-{} (scv {:g}), the closest law fitted, matches "
        "the mean alone",
        scv, std::ceil(1 / scv), kMostErlangPhases, 1.0 / kMostErlangPhases);
  else if (n3 < n2 * n2)
    fit.note = fmt::format(
        "m1 m3 < m2^2: no law of times > 0 has m3 = {:.6g} with these m1 and m2; the first two "
        "moments are matched",
        m3);
  else
    fit.note = fmt::format(
        "no acyclic law of {} phases or fewer, nor a mixture of two Erlang laws, has m3 = {:.6g} "
        "with these m1 and m2; the first two moments are matched",
        kMostErlangPhases, m3);
  return fit;
}

std::vector<double> sample_moments(const std::vector<double>& sample, int count) {
  std::vector<double> moments(static_cast<std::size_t>(count), 0.0);
  for (const double x : sample) {
    double power = 1;
    for (int n = 0; n < count; ++n) moments[static_cast<std::size_t>(n)] += (power *= x);
  }
  for (double& m : moments) m /= static_cast<double>(sample.size());
  return moments;
}

double phase_type_log_likelihood(const model::RowVector& beta, const model::Matrix& s,
                                 const std::vector<double>& sample) {
  // The sample as a renewal MAP's times (D0 = S, D1 = s_0 beta): its likelihood takes exp(S x) in
  // O(k^2) for the Erlang chains fitted here, where a matrix exponential a time took minutes for a
  // sample of 10^5 under Erlang-100.
  const model::Vector exits = -s * model::Vector::Ones(s.rows());
  return map_log_likelihood(s, exits * beta, {sample});
}

}  // namespace crawlq::fit
