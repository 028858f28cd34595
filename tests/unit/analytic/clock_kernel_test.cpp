// The clocks of n waiting pages applied by ClockKernel (one clock a pass, or two where the clocks
// have two phases; flat in cache or by the head clocks first) against the same moves written state
// by state: each clock's phase change and expiry from every combination, with and without a
// trailing entry the clocks carry along.
#include "analytic/stationary/clock_kernel.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

namespace crawlq::analytic {
namespace {

struct Clocks {
  Eigen::MatrixXd gamma;
  Eigen::VectorXd exits;
};

// Generic rates: no two alike, so that a rate read for another shows.
Clocks two_phase_clocks() {
  Clocks c{Eigen::MatrixXd(2, 2), Eigen::VectorXd(2)};
  c.gamma << -0.7, 0.45, 0.15, -0.35;
  c.exits << 0.25, 0.2;
  return c;
}

Clocks three_phase_clocks() {
  Clocks c{Eigen::MatrixXd(3, 3), Eigen::VectorXd(3)};
  c.gamma << -0.9, 0.3, 0.2, 0.05, -0.55, 0.15, 0.1, 0.25, -0.6;
  c.exits = -c.gamma.rowwise().sum();
  return c;
}

std::vector<double> random_entries(std::size_t size, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> draw(0.1, 1.0);
  std::vector<double> v(size);
  for (double& e : v) e = draw(rng);
  return v;
}

// The moves of `clocks` clocks of r phases (the first the most significant), state by state.
void reference(const Clocks& c, int clocks, Eigen::Index trailing, const std::vector<double>& x,
               std::vector<double>& y_same, std::vector<double>& y_down) {
  const auto r = static_cast<Eigen::Index>(c.gamma.rows());
  Eigen::Index combinations = 1;
  for (int k = 0; k < clocks; ++k) combinations *= r;
  for (Eigen::Index comb = 0; comb < combinations; ++comb)
    for (Eigen::Index t = 0; t < trailing; ++t) {
      const double value = x[static_cast<std::size_t>(comb * trailing + t)];
      Eigen::Index weight = combinations;
      for (int k = 0; k < clocks; ++k) {
        weight /= r;  // clock k's place value
        const Eigen::Index phase = comb / weight % r;
        for (Eigen::Index to = 0; to < r; ++to)
          if (to != phase)
            y_same[static_cast<std::size_t>((comb + (to - phase) * weight) * trailing + t)] +=
                c.gamma(phase, to) * value;
        const Eigen::Index without = comb / (weight * r) * weight + comb % weight;
        y_down[static_cast<std::size_t>(without * trailing + t)] += c.exits(phase) * value;
      }
    }
}

double relative_gap(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::abs(b[i]));
  return worst;
}

TEST_CASE("clock kernel: apply and expire equal the clocks' moves written state by state",
          "[analytic]") {
  std::mt19937_64 rng(20261206);
  for (const bool three : {false, true}) {
    const Clocks c = three ? three_phase_clocks() : two_phase_clocks();
    const ClockKernel kernel(c.gamma, c.exits);
    const auto r = static_cast<Eigen::Index>(c.gamma.rows());
    // Odd and even counts, blocks inside the flat case (256 entries) and past it.
    for (int clocks = 1; clocks <= (three ? 8 : 13); ++clocks)
      for (const Eigen::Index trailing : {Eigen::Index{1}, Eigen::Index{2}}) {
        INFO((three ? "three" : "two")
             << " phases, " << clocks << " clocks, trailing " << trailing);
        Eigen::Index size = trailing;
        for (int k = 0; k < clocks; ++k) size *= r;
        const auto entries = static_cast<std::size_t>(size);
        const auto below = static_cast<std::size_t>(size / r);
        const std::vector<double> x = random_entries(entries, rng);
        std::vector<double> y_same = random_entries(entries, rng),
                            y_down = random_entries(below, rng);
        std::vector<double> want_same = y_same, want_down = y_down;
        reference(c, clocks, trailing, x, want_same, want_down);
        kernel.apply(x.data(), y_same.data(), y_down.data(), clocks, trailing);
        CHECK(relative_gap(y_same, want_same) < 1e-14);
        CHECK(relative_gap(y_down, want_down) < 1e-14);

        std::vector<double> expired = random_entries(below, rng);
        std::vector<double> want_expired = expired, ignored(entries, 0.0);
        reference(c, clocks, trailing, x, ignored, want_expired);
        kernel.expire(x.data(), expired.data(), clocks, trailing);
        CHECK(relative_gap(expired, want_expired) < 1e-14);
      }
  }
}

TEST_CASE("clock kernel: a first pass cut into column ranges, then apply, equals apply whole",
          "[analytic]") {
  // As the tagged page's shared blocks do: the same sums in the same order, so the same bits.
  std::mt19937_64 rng(6);
  const Clocks c = two_phase_clocks();
  const ClockKernel kernel(c.gamma, c.exits);
  const int clocks = 12;
  const Eigen::Index size = Eigen::Index{1} << clocks;
  const std::vector<double> x = random_entries(static_cast<std::size_t>(size), rng);
  const std::vector<double> y0 = random_entries(static_cast<std::size_t>(size), rng);
  const std::vector<double> down0 = random_entries(static_cast<std::size_t>(size / 2), rng);
  std::vector<double> whole_same = y0, whole_down = down0;
  kernel.apply(x.data(), whole_same.data(), whole_down.data(), clocks);

  const int first = kernel.clocks_per_pass(clocks);
  CHECK(first == 2);
  const Eigen::Index fan_out = Eigen::Index{1} << first, sub = size / fan_out;
  std::vector<double> cut_same = y0, cut_down = down0;
  for (Eigen::Index begin = 0; begin < sub; begin += 100)  // ranges that split columns unevenly
    kernel.first_pass(x.data(), cut_same.data(), cut_down.data(), size, first, begin,
                      std::min(sub, begin + 100));
  for (Eigen::Index k = 0; k < fan_out; ++k)
    kernel.apply(x.data() + k * sub, cut_same.data() + k * sub, cut_down.data() + k * (sub / 2),
                 clocks - first);
  CHECK(cut_same == whole_same);
  CHECK(cut_down == whole_down);
}

}  // namespace
}  // namespace crawlq::analytic
