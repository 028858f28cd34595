// The simulator's random parts against their laws. Tolerances are 4.5 standard errors of each
// estimate (a false alarm about once in 150,000 runs); the seeds are fixed, so a failure repeats.
#include <catch2/catch.hpp>
#include <cmath>

#include "model/arrival_modes.hpp"
#include "sim/arrival_sampler.hpp"
#include "sim/phase_type_sampler.hpp"

using namespace crawlq;

namespace {
model::Matrix m2(double a, double b, double c, double d) {
  model::Matrix m(2, 2);
  m << a, b, c, d;
  return m;
}
}  // namespace

TEST_CASE("phase-type samples have the law's mean and variance", "[sim][sampler]") {
  const model::PhaseType laws[] = {
      model::PhaseType::erlang(3, 2.0),
      model::PhaseType((model::RowVector(2) << 0.4, 0.6).finished(), m2(-3, 1, 2, -3)),
      model::PhaseType((model::RowVector(2) << 0.0057, 0.9943).finished(),
                       m2(-0.0014, 0, 0, -0.2409)),
      // Moves both ways and exit rates 0.8 and 0.7: the canonical form, not the lumped draw.
      model::PhaseType((model::RowVector(2) << 0.7, 0.3).finished(), m2(-2, 1.2, 0.3, -1)),
      // Moves one way, from the slower phase first: a Coxian law whose canonical form reorders it.
      model::PhaseType((model::RowVector(2) << 0.8, 0.2).finished(), m2(-0.5, 0.3, 0, -4)),
      // Three phases with moves that go round and real eigenvalues: the series.
      model::PhaseType((model::RowVector(3) << 0.5, 0.25, 0.25).finished(),
                       (model::Matrix(3, 3) << -2, 1, 0.5, 0.2, -1, 0.3, 0, 2, -3).finished()),
      // A ring with complex eigenvalues: the walk, with sure steps.
      model::PhaseType((model::RowVector(3) << 0.6, 0.4, 0).finished(),
                       (model::Matrix(3, 3) << -3, 3, 0, 0, -3, 3, 2.9, 0, -3).finished()),
      // A ring whose series would need a negative start: the walk.
      model::PhaseType(
          (model::RowVector(3) << 1, 0, 0).finished(),
          (model::Matrix(3, 3) << -1.8, 1.2, 0, 0, -0.3, 0.3, 0.6, 0, -0.6).finished()),
      // Four acyclic phases, two at one rate: the series.
      model::PhaseType(
          (model::RowVector(4) << 0.1, 0.2, 0.3, 0.4).finished(),
          (model::Matrix(4, 4) << -1.5, 0, 0, 0, 0.9, -1.5, 0, 0, 0.2, 0.6, -3, 0, 0, 1.1, 0.4, -2)
              .finished()),
      // A hyperexponential law of three phases: the walk.
      model::PhaseType((model::RowVector(3) << 0.2, 0.3, 0.5).finished(),
                       (model::Matrix(3, 3) << -1, 0, 0, 0, -2.2, 0, 0, 0, -4.5).finished()),
      // A sure step into a phase that exits or moves back: the walk without its choice, then with.
      model::PhaseType(
          (model::RowVector(3) << 0.6, 0.1, 0.3).finished(),
          (model::Matrix(3, 3) << -1.5, 1.5, 0, 0.4, -2.5, 0.9, 0, 0, -0.8).finished())};
  for (const auto& law : laws) {
    const sim::PhaseTypeSampler sampler(law);
    sim::RandomStream random(11, 0, sim::Source::kService);
    const int n = 400000;
    double sum = 0, squares = 0, cubes = 0;
    for (int i = 0; i < n; ++i) {
      const double x = sampler.sample(random);
      sum += x;
      squares += x * x;
      cubes += x * x * x;
    }
    const double mean = sum / n, variance = squares / n - mean * mean;
    INFO("law mean " << law.mean());
    CHECK(std::abs(mean - law.mean()) < 4.5 * std::sqrt(law.variance() / n));
    // The variance estimate's standard error: sqrt((mu4 - sigma^4)/n); mu4 <= E X^4 bounds it.
    CHECK(std::abs(variance - law.variance()) < 4.5 * std::sqrt(law.moment(4) / n));
    // Two laws with the same mean and variance may differ here (the canonical form's phases).
    CHECK(std::abs(cubes / n - law.moment(3)) < 4.5 * std::sqrt(law.moment(6) / n));
  }
}

TEST_CASE("a phase-type law left at one rate from every phase is drawn as that exponential",
          "[sim][sampler]") {
  // The paper's obsolescence clock: both phases exit at 0.2 (row sums -0.2 to round-off), so the
  // time to absorption is exponential with mean 5 whatever the walk; one unit draw makes a sample.
  const model::PhaseType clock((model::RowVector(2) << 0.3, 0.7).finished(),
                               m2(-0.6, 0.4, 0.1, -0.3));
  const sim::PhaseTypeSampler sampler(clock);
  sim::RandomStream random(7, 0, sim::Source::kObsolescence);
  sim::RandomStream twin(7, 0, sim::Source::kObsolescence);
  for (int i = 0; i < 1000; ++i)
    REQUIRE(sampler.sample(random) == Approx(twin.unit_exponential() * 5).epsilon(1e-12));
  // Exit rates 0.2 and 0.2 + 1e-9: not one rate, so the canonical form (which draws more) is taken.
  const sim::PhaseTypeSampler walk(model::PhaseType((model::RowVector(2) << 0.3, 0.7).finished(),
                                                    m2(-0.6, 0.4, 0.1, -0.3 - 1e-9)));
  sim::RandomStream a(7, 0, sim::Source::kObsolescence), b(7, 0, sim::Source::kObsolescence);
  int differ = 0;
  for (int i = 0; i < 100; ++i) differ += walk.sample(a) != Approx(b.unit_exponential() * 5);
  CHECK(differ > 50);
}

TEST_CASE("a phase that only moves on to one other, or a series with one start, draws no uniform",
          "[sim][sampler]") {
  // Erlang-3 at rate 2 a phase: three unit exponentials over 2 make a sample, no uniform between.
  const sim::PhaseTypeSampler erlang(model::PhaseType::erlang(3, 2.0));
  sim::RandomStream random(5, 0, sim::Source::kService), twin(5, 0, sim::Source::kService);
  for (int i = 0; i < 1000; ++i) {
    const double e1 = twin.unit_exponential(), e2 = twin.unit_exponential(),
                 e3 = twin.unit_exponential();
    REQUIRE(erlang.sample(random) == Approx((e1 + e2 + e3) / 2.0).epsilon(1e-12));
  }
  // Rates 1, 2, 4 in turn: a series that always starts at its head, drawn from its last (fastest)
  // phase first, with no uniform, where the walk draws the same three exponentials from the first.
  const sim::PhaseTypeSampler hypoexponential(
      model::PhaseType((model::RowVector(3) << 1, 0, 0).finished(),
                       (model::Matrix(3, 3) << -1, 1, 0, 0, -2, 2, 0, 0, -4).finished()));
  for (int i = 0; i < 1000; ++i) {
    const double e1 = twin.unit_exponential(), e2 = twin.unit_exponential(),
                 e3 = twin.unit_exponential();
    REQUIRE(hypoexponential.sample(random) == Approx(e1 / 4 + e2 / 1 + e3 / 2).epsilon(1e-12));
  }
}

TEST_CASE("a phase whose way on is sure draws no choice on a walk that goes round",
          "[sim][sampler]") {
  // 0 -> 1 -> 2 surely, then from 2 back to 0 (chance 2.9/3) or out: -T's eigenvalues are complex,
  // so no series; the walk draws three exponentials a round and one uniform, at phase 2.
  const sim::PhaseTypeSampler ring(
      model::PhaseType((model::RowVector(3) << 1, 0, 0).finished(),
                       (model::Matrix(3, 3) << -3, 3, 0, 0, -3, 3, 2.9, 0, -3).finished()));
  sim::RandomStream random(9, 0, sim::Source::kService), twin(9, 0, sim::Source::kService);
  for (int i = 0; i < 1000; ++i) {
    double time = 0;
    while (true) {
      for (int phase = 0; phase < 3; ++phase) time += twin.unit_exponential() / 3;
      if (twin.uniform() >= 2.9 / 3) break;
    }
    REQUIRE(ring.sample(random) == Approx(time).epsilon(1e-12));
  }
  // Started in phase 1 by a chance one rounding short of 1 (as a fitted or converted law may give
  // it): one start all the same, drawn without a uniform.
  const sim::PhaseTypeSampler started_inside(
      model::PhaseType((model::RowVector(3) << 0, std::nextafter(1.0, 0.0), 0).finished(),
                       (model::Matrix(3, 3) << -3, 3, 0, 0, -3, 3, 2.9, 0, -3).finished()));
  for (int i = 0; i < 1000; ++i) {
    double time = 0;
    for (int first = 1;; first = 0) {
      for (int phase = first; phase < 3; ++phase) time += twin.unit_exponential() / 3;
      if (twin.uniform() >= 2.9 / 3) break;
    }
    REQUIRE(started_inside.sample(random) == Approx(time).epsilon(1e-12));
  }
}

TEST_CASE("a Coxian law is drawn from its series, a hyperexponential one by its walk",
          "[sim][sampler]") {
  // Coxian, rates 1, 2, 4, on with chance 0.9 each: the walk takes 4.61 draws on average. Its
  // series (worked by hand from model/series_form.hpp's recursion): start in phase 0, 1 or 2 with
  // chances 0.915, 0.06, 0.025, then on to the last, 3.89 draws.
  const sim::PhaseTypeSampler coxian(
      model::PhaseType((model::RowVector(3) << 1, 0, 0).finished(),
                       (model::Matrix(3, 3) << -1, 0.9, 0, 0, -2, 1.8, 0, 0, -4).finished()));
  sim::RandomStream random(13, 0, sim::Source::kService), twin(13, 0, sim::Source::kService);
  for (int i = 0; i < 1000; ++i) {
    double time = twin.unit_exponential() / 4;
    const double u = twin.uniform();
    if (u < 0.915) time += twin.unit_exponential() / 1;
    if (u < 0.975) time += twin.unit_exponential() / 2;
    REQUIRE(coxian.sample(random) == Approx(time).epsilon(1e-12));
  }
  // Hyperexponential: a uniform for the phase, an exponential in it; the series would take more.
  const sim::PhaseTypeSampler hyper(
      model::PhaseType((model::RowVector(3) << 0.2, 0.3, 0.5).finished(),
                       (model::Matrix(3, 3) << -1, 0, 0, 0, -2.2, 0, 0, 0, -4.5).finished()));
  for (int i = 0; i < 1000; ++i) {
    const double u = twin.uniform();
    const double rate = u < 0.2 ? 1 : u < 0.5 ? 2.2 : 4.5;
    REQUIRE(hyper.sample(random) == Approx(twin.unit_exponential() / rate).epsilon(1e-12));
  }
}

TEST_CASE("a law of more than 200 phases is walked", "[sim][sampler]") {
  // A hypoexponential law of 201 phases at rates 1, 1.01, ..., 3 in turn: its series (the same
  // phases, entered at the first) would draw the last phase's exponential first; the walk draws
  // them in the phases' order.
  const int n = 201;
  model::RowVector start = model::RowVector::Zero(n);
  start(0) = 1;
  model::Matrix t = model::Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    t(i, i) = -(1 + 0.01 * i);
    if (i + 1 < n) t(i, i + 1) = 1 + 0.01 * i;
  }
  const sim::PhaseTypeSampler long_chain(model::PhaseType(start, t));
  sim::RandomStream random(17, 0, sim::Source::kService), twin(17, 0, sim::Source::kService);
  for (int k = 0; k < 100; ++k) {
    double time = 0;
    for (int i = 0; i < n; ++i) time += twin.unit_exponential() / (1 + 0.01 * i);
    REQUIRE(long_chain.sample(random) == Approx(time).epsilon(1e-12));
  }
}

TEST_CASE("the robots' phase process brings batches at the rates theta D_k e", "[sim][sampler]") {
  // Mode 1 and 2 of the paper's example (ERRATA.md applied).
  const model::ArrivalModes modes(
      {model::Bmap({m2(-10, 2, 0, -0.5), m2(0.05, 3, 0.29, 0.005), m2(0.05, 4.9, 0.2, 0.005)}),
       model::Bmap({m2(-5.65, 1.1, 0, -0.85), m2(0.01, 2.5, 0.25, 0), m2(0.02, 0.5, 0.25, 0),
                    m2(0.02, 1.5, 0.1, 0.25)})});
  const sim::ArrivalSampler sampler(modes);
  for (int robots = 1; robots <= 2; ++robots) {
    INFO("mode " << robots);
    const model::Bmap& b = modes.mode(robots);
    sim::RandomStream random(5, robots, sim::Source::kArrivals);
    int phase = sampler.initial_phase(robots, random);
    const double horizon = 400000;
    double t = 0;
    std::vector<double> batches(b.max_batch() + 1, 0.0);
    while (true) {
      t += random.unit_exponential() * sampler.mean_stay(robots, phase);
      if (t > horizon) break;
      const auto jump = sampler.jump(robots, phase, random);
      ++batches[jump.batch];
      phase = jump.next_phase;
    }
    for (int k = 1; k <= b.max_batch(); ++k) {
      const double rate = b.stationary() * b.d(k) * model::Vector::Ones(2);
      // Counts of a correlated process: allow 4.5 times a generous standard error (3x Poisson's).
      CHECK(std::abs(batches[k] / horizon - rate) < 4.5 * 3 * std::sqrt(rate / horizon));
    }
  }
}

TEST_CASE("the random engine is xoshiro256++ as its authors publish it", "[sim][sampler]") {
  // The reference code's first outputs from the state {1, 2, 3, 4}.
  auto engine = crawlq::sim::Xoshiro256::from_state({1, 2, 3, 4});
  for (const std::uint64_t expected :
       {41943041ULL, 58720359ULL, 3588806011781223ULL, 3591011842654386ULL, 9228616714210784205ULL})
    CHECK(engine() == expected);
  // Streams of one seed differ by replication and by source.
  crawlq::sim::RandomStream a(1, 0, crawlq::sim::Source::kArrivals),
      b(1, 1, crawlq::sim::Source::kArrivals), c(1, 0, crawlq::sim::Source::kService),
      again(1, 0, crawlq::sim::Source::kArrivals);
  const double first = a.uniform();
  CHECK(first != b.uniform());
  CHECK(first != c.uniform());
  CHECK(first == again.uniform());
}
