#include "analytic/transient/poisson_window.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace crawlq::analytic {

namespace {

double log_weight(double mean, std::size_t n) {
  const double k = static_cast<double>(n);
  return -mean + k * std::log(mean) - std::lgamma(k + 1);
}

// Beyond n >= mean the weights fall at least geometrically with ratio mean / (n + 1): the mass
// past `n` is at most weight(n + 1) / (1 - mean / (n + 2)).
double mass_after(double mean, std::size_t n) {
  const double next = std::exp(log_weight(mean, n + 1));
  const double ratio = mean / static_cast<double>(n + 2);
  return ratio < 1 ? next / (1 - ratio) : 1.0;
}

}  // namespace

PoissonWindow poisson_window(double mean, double tolerance) {
  PoissonWindow w;
  if (!(mean > 0)) {
    w.weight = {1.0};
    w.beyond = {0.0};
    return w;
  }
  // Past the mode the terms shrink; step out until both tails are below the tolerance. The tail of
  // sum_{n > last} P(N > n) = E[(N - last - 1)^+] is bounded by the mass after last times the
  // expected overshoot, itself at most 1 / (1 - ratio).
  std::size_t last = static_cast<std::size_t>(mean);
  for (;;) {
    const double after = mass_after(mean, last);
    const double ratio = mean / static_cast<double>(last + 2);
    const double beyond_after = ratio < 1 ? after / (1 - ratio) : 1.0;
    if (after <= tolerance && beyond_after <= tolerance * std::max(1.0, mean)) {
      w.omitted_weight = after;
      w.omitted_beyond = beyond_after;
      break;
    }
    last += 1 + last / 64;
    if (last > kMostPoissonTerms)
      throw std::length_error(
          fmt::format("uniformisation would need more than {} steps (rate times time {:.3g})",
                      kMostPoissonTerms, mean));
  }
  // The weights relative to the mode's by the recurrence P(n + 1) = P(n) mean / (n + 1), then
  // scaled to sum to one less the mass left out: lgamma's rounding would put an error of 1e-11 in
  // each weight at a mean of 10^4, the recurrence's stays near the last bits.
  w.weight.assign(last + 1, 0.0);
  const std::size_t mode = std::min(static_cast<std::size_t>(mean), last);
  w.weight[mode] = 1;
  for (std::size_t n = mode; n < last; ++n)
    w.weight[n + 1] = w.weight[n] * mean / static_cast<double>(n + 1);
  for (std::size_t n = mode; n > 0 && w.weight[n] > 1e-300; --n)
    w.weight[n - 1] = w.weight[n] * static_cast<double>(n) / mean;
  double total = 0;
  for (const double weight : w.weight) total += weight;
  for (double& weight : w.weight) weight *= (1 - w.omitted_weight) / total;
  // P(N > n) summed from the right, where the terms are small, with the omitted mass.
  w.beyond.resize(last + 1);
  double right = w.omitted_weight;
  for (std::size_t n = last + 1; n-- > 0;) {
    w.beyond[n] = right;
    right += w.weight[n];
  }
  // Far left of the mean P(N > n) is 1 to the last bit; the sum from the right reaches it only
  // up to rounding, so take the complement where it is the more accurate.
  double left = 0;
  for (std::size_t n = 0; n <= last; ++n) {
    left += w.weight[n];
    if (left < 0.5) w.beyond[n] = 1 - left;
  }
  // Far left of the mean the weights underflowed to 0: keep the window from the first that did not.
  const auto first = static_cast<std::size_t>(
      std::find_if(w.weight.begin(), w.weight.end(), [](double x) { return x > 0; }) -
      w.weight.begin());
  w.first = std::min(first, last);
  w.weight.erase(w.weight.begin(), w.weight.begin() + static_cast<std::ptrdiff_t>(w.first));
  w.beyond.erase(w.beyond.begin(), w.beyond.begin() + static_cast<std::ptrdiff_t>(w.first));
  return w;
}

}  // namespace crawlq::analytic
