// The refresh simulator against obsolescence rates derived on paper, with fixed seeds. A rate is
// r = E[Z] / E[interaccess time] with Z = (interaccess time - R)^+, R ~ Exp(mu) the time to the
// page's first change after a read (the paper's (5)). Each check allows 4 half-widths of the 95%
// interval (about 7.5 standard errors): far from a false alarm, tight enough for an error.
#include "sim/refresh_simulator.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace crawlq;

namespace {

model::RefreshModel refresh_model(std::vector<double> rates, std::vector<double> weights,
                                  model::AccessTime x) {
  return model::RefreshModel{"test", std::move(rates), std::move(weights), std::move(x), {}};
}

sim::RefreshSimulationPlan plan(double horizon, double warmup, int replications = 10,
                                std::uint64_t seed = 1) {
  sim::RefreshSimulationPlan p;
  p.seed = seed;
  p.replications = replications;
  p.horizon = horizon;
  p.warmup = warmup;
  p.threads = 0;
  return p;
}

void check_inside(const sim::Interval& i, double exact, const std::string& what) {
  INFO(what << ": " << i.mean << " +- " << i.half_width << ", exact " << exact);
  CHECK(std::abs(i.mean - exact) <= 4 * i.half_width);
  CHECK(i.half_width > 0);
  CHECK(i.half_width < 0.01);  // sharp enough for the check to mean something
}

model::AccessTime hyperexponential() {
  model::Matrix t = model::Matrix::Zero(2, 2);
  t(0, 0) = -1.8;
  t(1, 1) = -0.2;
  return model::AccessTime(model::PhaseType((model::RowVector(2) << 0.9, 0.1).finished(), t));
}

}  // namespace

TEST_CASE("refresh: one page read every d: r = 1 - (1 - e^{-mu d}) / (mu d)", "[sim][refresh]") {
  // Every interaccess time is d, so E[Z] = d - E[min(d, R)] = d - (1 - e^{-mu d}) / mu. The warm-up
  // and horizon are multiples of d, so the window holds whole interaccess intervals only.
  const double mu = 0.7, d = 1.5;
  const auto m = refresh_model({mu}, {2.0}, model::AccessTime(model::DeterministicTime{d}));
  const auto r = sim::simulate_refresh(m, sim::CyclicOrder{{0}}, plan(20000 * d, 10 * d));
  const double exact = 1 - (1 - std::exp(-mu * d)) / (mu * d);
  check_inside(r.obsolescence_rates.at(0), exact, "r");
  check_inside(r.cost, 2.0 * exact, "cost");
}

TEST_CASE("refresh: one page read in exponential times of mean m: r = mu m / (1 + mu m)",
          "[sim][refresh]") {
  // min(X, R) of independent exponentials (rates 1/m and mu) is exponential of rate 1/m + mu, so
  // E[Z] = m - m / (1 + mu m) = mu m^2 / (1 + mu m), and r = E[Z] / m.
  const double mu = 1.3, m = 0.8;
  const auto law =
      refresh_model({mu}, {1.0}, model::AccessTime(model::PhaseType::exponential(1 / m)));
  const auto r = sim::simulate_refresh(law, sim::CyclicOrder{{0}}, plan(20000 * m, 100 * m));
  check_inside(r.obsolescence_rates.at(0), mu * m / (1 + mu * m), "r");
}

TEST_CASE("refresh: randomized reads in exponential times: r_i = mu_i m / (f_i + mu_i m)",
          "[sim][refresh]") {
  // The number of reads from one read of page i to the next is geometric(f_i); a geometric sum of
  // exponentials of mean m is exponential of mean m / f_i, so the single-page formula applies with
  // m / f_i in place of m.
  const std::vector<double> mu{0.3, 1.0, 2.0}, c{1.0, 2.0, 3.0}, f{0.5, 0.3, 0.2};
  const double m = 0.8;
  const auto law = refresh_model(mu, c, model::AccessTime(model::PhaseType::exponential(1 / m)));
  const auto r = sim::simulate_refresh(law, sim::RandomizedOrder{f}, plan(50000 * m, 100 * m));
  double cost = 0;
  for (int i = 0; i < 3; ++i) {
    const double exact = mu[i] * m / (f[i] + mu[i] * m);
    check_inside(r.obsolescence_rates.at(i), exact, "r_" + std::to_string(i));
    cost += c[i] * exact;
  }
  check_inside(r.cost, cost, "cost");
  CHECK(r.accesses > 10 * 50000);
}

TEST_CASE(
    "refresh: the window clips stale time, and a page is stale from time 0 until its first read",
    "[sim][refresh]") {
  // Page 0 changes at once after every read, page 1 never; the cycle (0, 1) with reads of length 1
  // completes page 0's reads at 1, 3, 5, ... and page 1's at 2, 4, ... . Page 1 is stale on [0, 2]
  // only; page 0 on [0, 1] and from just after each of its reads until the next.
  const auto m =
      refresh_model({1e12, 1e-12}, {1.0, 10.0}, model::AccessTime(model::DeterministicTime{1.0}));
  const sim::CyclicOrder order{{0, 1}};
  SECTION("window [0, 2.5]") {
    const auto r = sim::simulate_refresh(m, order, plan(2.5, 0.0, 3));
    CHECK(r.obsolescence_rates.at(0).mean == Approx(1.0).margin(1e-9));
    CHECK(r.obsolescence_rates.at(1).mean == Approx(2.0 / 2.5).margin(1e-9));
    CHECK(r.cost.mean == Approx(1.0 + 10.0 * 0.8).margin(1e-8));
    CHECK(r.obsolescence_rates.at(1).half_width == Approx(0.0).margin(1e-9));
  }
  SECTION("window [0, 3.5]: page 0's interval open at the end, after the read that crosses it") {
    const auto r = sim::simulate_refresh(m, order, plan(3.5, 0.0, 3));
    CHECK(r.obsolescence_rates.at(0).mean == Approx(1.0).margin(1e-9));
    CHECK(r.obsolescence_rates.at(1).mean == Approx(2.0 / 3.5).margin(1e-9));
  }
  SECTION("window [1.5, 2.5]: cut at the start, and at the end by the read that crosses it") {
    const auto r = sim::simulate_refresh(m, order, plan(1.0, 1.5, 3));
    CHECK(r.obsolescence_rates.at(0).mean == Approx(1.0).margin(1e-9));
    CHECK(r.obsolescence_rates.at(1).mean == Approx(0.5).margin(1e-9));
    // Reads completing at 1 and 2, and the one crossing the end at 3, in each of 3 replications.
    CHECK(r.accesses == 9);
  }
}

TEST_CASE("refresh: the same seed gives the same numbers on one thread and on two",
          "[sim][refresh]") {
  const auto m = refresh_model({0.2, 0.9, 3.0, 0.5}, {1, 1, 2, 0.5}, hyperexponential());
  const sim::AccessOrder orders[] = {sim::RandomizedOrder{{0.1, 0.2, 0.3, 0.4}},
                                     sim::CyclicOrder{{2, 1, 2, 0, 3}}};
  for (const auto& order : orders) {
    auto p = plan(5000, 50, 5, 42);
    p.threads = 1;
    const auto one = sim::simulate_refresh(m, order, p);
    p.threads = 2;
    const auto two = sim::simulate_refresh(m, order, p);
    CHECK(one.accesses == two.accesses);
    CHECK(one.cost.mean == two.cost.mean);
    CHECK(one.cost.half_width == two.cost.half_width);
    for (int i = 0; i < 4; ++i) {
      CHECK(one.obsolescence_rates[i].mean == two.obsolescence_rates[i].mean);
      CHECK(one.obsolescence_rates[i].half_width == two.obsolescence_rates[i].half_width);
    }
    p.seed = 43;
    CHECK(sim::simulate_refresh(m, order, p).cost.mean != one.cost.mean);
  }
}

TEST_CASE("refresh: a page of frequency 0 is never read and always stale", "[sim][refresh]") {
  // The best randomized policy may read a page with frequency 0 (the condition after (16) fails);
  // --simulate must run it. Before, the simulator refused such an order (crawlq exited 1).
  const auto m = refresh_model({1.0, 2.0, 0.5}, {1.0, 1.0, 1.0},
                               model::AccessTime(model::PhaseType::exponential(1.0)));
  for (const std::vector<double>& f :
       {std::vector<double>{0.0, 0.4, 0.6}, std::vector<double>{0.4, 0.0, 0.6},
        std::vector<double>{0.4, 0.6, 0.0}}) {
    const auto r = sim::simulate_refresh(m, sim::RandomizedOrder{f}, plan(2000, 10, 3));
    for (int i = 0; i < 3; ++i) {
      INFO("page " << i << " of frequency " << f[i]);
      if (f[i] == 0) CHECK(r.obsolescence_rates[i].mean == Approx(1.0).epsilon(1e-12));
      if (f[i] > 0) CHECK(r.obsolescence_rates[i].mean < 0.9);
    }
  }
}

TEST_CASE("refresh: weights near 1e300 give a finite cost interval", "[sim][refresh]") {
  // The costs of the replications differ by about 1e298, whose square overflows: before, the cost's
  // half-width came out infinite (null in JSON).
  const auto m = refresh_model({0.5, 1.0}, {1e300, 2e300},
                               model::AccessTime(model::PhaseType::exponential(1.0)));
  const auto r = sim::simulate_refresh(m, sim::RandomizedOrder{{0.5, 0.5}}, plan(4000, 10, 10));
  CHECK(std::isfinite(r.cost.mean));
  CHECK(std::isfinite(r.cost.half_width));
  CHECK(r.cost.half_width > 0);
  // r_i = mu_i m / (f_i + mu_i m) with m = 1 (the randomized exponential case above): within the
  // interval's own 4 half-widths, as every rate above, and that interval sharp (under 2%; 0.7%
  // with these streams).
  const double exact = 1e300 * 0.5 + 2e300 * 1.0 / 1.5;
  INFO("cost " << r.cost.mean << " +- " << r.cost.half_width << ", exact " << exact);
  CHECK(std::abs(r.cost.mean - exact) <= 4 * r.cost.half_width);
  CHECK(r.cost.half_width < 0.02 * exact);
}

TEST_CASE("refresh: more threads than cores run (capped), with the same numbers",
          "[sim][refresh]") {
  const auto m = refresh_model({0.2, 0.9}, {1, 1}, hyperexponential());
  auto p = plan(500, 5, 40, 9);
  p.threads = 1;
  const auto one = sim::simulate_refresh(m, sim::RandomizedOrder{{0.3, 0.7}}, p);
  p.threads = 100000;  // thousands of threads would fail to start
  const auto many = sim::simulate_refresh(m, sim::RandomizedOrder{{0.3, 0.7}}, p);
  CHECK(one.cost.mean == many.cost.mean);
}

TEST_CASE("refresh: the need estimate counts reads and stale-time slots", "[sim][refresh]") {
  const auto m =
      refresh_model({1.0, 2.0, 3.0}, {1, 1, 1}, model::AccessTime(model::DeterministicTime{0.5}));
  const auto need = sim::estimate_refresh_simulation(m, sim::CyclicOrder{{0, 1, 2}}, 1000, 50);
  CHECK(need.reads_per_replication ==
        Approx(2101));  // (50 + 1000) / 0.5, and the read crossing the end
  CHECK(need.reads(10) == Approx(21010));
  CHECK(need.bytes(1e6) > 1e6 * 3 * 8);  // a stale time per page per replication
  const auto r = sim::simulate_refresh(m, sim::CyclicOrder{{0, 1, 2}}, plan(1000, 50, 2));
  CHECK(static_cast<double>(r.accesses) == Approx(need.reads(2)).epsilon(0.01));
}

TEST_CASE("refresh: bad input is rejected", "[sim][refresh]") {
  const auto m =
      refresh_model({1.0, 2.0}, {1.0, 1.0}, model::AccessTime(model::PhaseType::exponential(1.0)));
  const sim::RandomizedOrder good{{0.5, 0.5}};
  const auto ok = plan(10, 1, 2);
  REQUIRE_NOTHROW(sim::simulate_refresh(m, good, ok));
  const auto rejects = [&](const sim::AccessOrder& order, const sim::RefreshSimulationPlan& p) {
    CHECK_THROWS_AS(sim::simulate_refresh(m, order, p), std::invalid_argument);
  };
  rejects(sim::RandomizedOrder{{1.0}}, ok);              // one frequency for two pages
  rejects(sim::RandomizedOrder{{1.2, -0.2}}, ok);        // negative
  rejects(sim::RandomizedOrder{{0.0, 0.0}}, ok);         // no page read at all (sum 0)
  rejects(sim::RandomizedOrder{{0.5, 0.6}}, ok);         // sum 1.1
  rejects(sim::RandomizedOrder{{0.5, 0.5 + 1e-8}}, ok);  // sum off by more than 1e-9
  rejects(sim::CyclicOrder{{}}, ok);
  rejects(sim::CyclicOrder{{0, 2}}, ok);
  rejects(sim::CyclicOrder{{-1}}, ok);
  rejects(good, plan(0, 1, 2));
  rejects(good, plan(-5, 1, 2));
  rejects(good, plan(10, -1, 2));
  rejects(good, plan(10, 1, 1));
  CHECK_NOTHROW(sim::simulate_refresh(m, sim::RandomizedOrder{{0.5, 0.5 + 1e-12}}, ok));
  const auto zero_time =
      refresh_model({1.0}, {1.0}, model::AccessTime(model::DeterministicTime{0.0}));
  CHECK_THROWS_AS(sim::simulate_refresh(zero_time, sim::CyclicOrder{{0}}, ok),
                  std::invalid_argument);
  const auto few_weights =
      refresh_model({1.0, 2.0}, {1.0}, model::AccessTime(model::DeterministicTime{1.0}));
  CHECK_THROWS_AS(sim::simulate_refresh(few_weights, good, ok), std::invalid_argument);
  const auto still_page =
      refresh_model({1.0, 0.0}, {1.0, 1.0}, model::AccessTime(model::DeterministicTime{1.0}));
  CHECK_THROWS_AS(sim::simulate_refresh(still_page, good, ok), std::invalid_argument);
}
