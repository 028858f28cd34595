// Parameter sweeps: each transformation checked against numbers worked out by hand from the paper's
// first example, and a capacity sweep against a plain optimisation of the unchanged model.
#include "validation/parameter_sweep.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "scenarios/scenario_loader.hpp"

using namespace crawlq;
using validation::SweepParameter;

namespace {

model::Model paper_example() {
  return scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                  "/scenarios/data/paper-example-1.yaml")
      .model;
}

// Two Poisson modes (rates 1 and 3), exponential service at rate 2, pages never expire.
model::Model two_poisson_modes() {
  const auto poisson = [](double rate) {
    return model::Bmap({model::Matrix::Constant(1, 1, -rate), model::Matrix::Constant(1, 1, rate)});
  };
  return model::Model{
      .name = "two-poisson",
      .capacity = 3,
      .arrivals = model::ArrivalModes({poisson(1), poisson(3)}),
      .service = model::PhaseType::exponential(2),
      .obsolescence = std::nullopt,
      .costs = {.loss = 1, .obsolescence = 0, .sojourn = 1, .robot = 1, .starvation = 5},
      .policy = model::Policy::from_thresholds({1}, 2, 3)};
}

std::string message_of(const model::Model& m, SweepParameter p, double value) {
  try {
    validation::with_parameter(m, p, value);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE(
    "sweep parameters: every name parses back to its parameter, and an unknown one lists them",
    "[unit][validation][sweep]") {
  // Four model parameters, six cost weights and a rhythm's amplitude.
  REQUIRE(validation::sweep_parameters().size() == 11u);
  for (const SweepParameter p : validation::sweep_parameters())
    CHECK(validation::parse_sweep_parameter(validation::parameter_name(p)) == p);
  CHECK(validation::parse_sweep_parameter("service-scale") == SweepParameter::kServiceScale);
  CHECK(validation::parse_sweep_parameter("costs.starvation") == SweepParameter::kStarvationCost);
  CHECK(validation::parse_sweep_parameter("costs.holding") == SweepParameter::kHoldingCost);
  try {
    validation::parse_sweep_parameter("speed");
    FAIL("'speed' was accepted");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("'speed'") && Catch::Contains("capacity") &&
                         Catch::Contains("obsolescence-scale") && Catch::Contains("costs.robot"));
  }
}

TEST_CASE("service-scale 2: S doubled, the mean service time halved", "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  // b_1 = beta (-S)^{-1} e with S = [[-3, 1], [2, -3]]: (-S)^{-1} e = (4, 5) / 7, b_1 = 4.6 / 7.
  REQUIRE(m.service.mean() == Approx(4.6 / 7).epsilon(1e-14));
  const model::Model scaled = validation::with_parameter(m, SweepParameter::kServiceScale, 2);
  CHECK(scaled.service.subgenerator() == 2 * m.service.subgenerator());
  CHECK(scaled.service.initial() == m.service.initial());
  CHECK(scaled.service.mean() == Approx(2.3 / 7).epsilon(1e-14));
  // Nothing else moves.
  CHECK(scaled.obsolescence->subgenerator() == m.obsolescence->subgenerator());
  CHECK(scaled.capacity == m.capacity);
  CHECK(scaled.policy == m.policy);
}

TEST_CASE("obsolescence-scale 4: Gamma times 4, the mean obsolescence time a quarter",
          "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  // (-Gamma)^{-1} e with Gamma = [[-0.6, 0.4], [0.1, -0.3]]: (0.7, 0.7) / 0.14 = (5, 5), so g_1
  // = 5.
  REQUIRE(m.obsolescence->mean() == Approx(5).epsilon(1e-14));
  const model::Model scaled = validation::with_parameter(m, SweepParameter::kObsolescenceScale, 4);
  CHECK(scaled.obsolescence->subgenerator() == 4 * m.obsolescence->subgenerator());
  CHECK(scaled.obsolescence->mean() == Approx(1.25).epsilon(1e-14));
  CHECK(scaled.service.subgenerator() == m.service.subgenerator());
}

TEST_CASE("arrival-scale 2: every mode's rate doubled, the phase law unchanged",
          "[unit][validation][sweep]") {
  SECTION("two Poisson modes: rates 1 and 3 become 2 and 6") {
    const model::Model scaled =
        validation::with_parameter(two_poisson_modes(), SweepParameter::kArrivalScale, 2);
    CHECK(scaled.arrivals.mode(1).fundamental_rate() == Approx(2).epsilon(1e-14));
    CHECK(scaled.arrivals.mode(2).fundamental_rate() == Approx(6).epsilon(1e-14));
  }
  SECTION("the paper's four BMAPs") {
    const model::Model m = paper_example();
    const model::Model scaled = validation::with_parameter(m, SweepParameter::kArrivalScale, 2);
    REQUIRE(scaled.modes() == m.modes());
    for (int r = 1; r <= m.modes(); ++r) {
      INFO("mode " << r);
      const model::Bmap& before = m.arrivals.mode(r);
      const model::Bmap& after = scaled.arrivals.mode(r);
      REQUIRE(after.max_batch() == before.max_batch());
      for (int k = 0; k <= before.max_batch(); ++k) CHECK(after.d(k) == 2 * before.d(k));
      CHECK(after.fundamental_rate() == Approx(2 * before.fundamental_rate()).epsilon(1e-12));
      CHECK(after.group_rate() == Approx(2 * before.group_rate()).epsilon(1e-12));
      CHECK(after.stationary().isApprox(before.stationary(), 1e-12));
    }
  }
}

TEST_CASE("capacity: K replaced, and the file's policy, a map of the old K, dropped",
          "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  REQUIRE(m.level_map());
  const model::Model larger = validation::with_parameter(m, SweepParameter::kCapacity, 8);
  CHECK(larger.capacity == 8);
  CHECK_FALSE(larger.policy);
  const model::Model same = validation::with_parameter(m, SweepParameter::kCapacity, 5);
  CHECK(same.capacity == 5);
  CHECK(same.policy == m.policy);
}

TEST_CASE("costs.*: the one coefficient replaced, the others kept", "[unit][validation][sweep]") {
  const model::Model m = paper_example();  // costs 5, 10, 2, 20, 300
  const model::Model robot = validation::with_parameter(m, SweepParameter::kRobotCost, 7.5);
  CHECK(robot.costs.robot == 7.5);
  CHECK(robot.costs.loss == 5);
  CHECK(robot.costs.obsolescence == 10);
  CHECK(robot.costs.sojourn == 2);
  CHECK(robot.costs.starvation == 300);
  CHECK(validation::with_parameter(m, SweepParameter::kLossCost, 0).costs.loss == 0);
  CHECK(validation::with_parameter(m, SweepParameter::kObsolescenceCost, 1).costs.obsolescence ==
        1);
  CHECK(validation::with_parameter(m, SweepParameter::kSojournCost, 3).costs.sojourn == 3);
  CHECK(validation::with_parameter(m, SweepParameter::kStarvationCost, 9).costs.starvation == 9);
}

TEST_CASE("with_parameter refuses values out of range, naming the parameter and the value",
          "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Refused {
    SweepParameter parameter;
    double value;
    std::string fragment;
  };
  for (const Refused& r :
       std::vector<Refused>{{SweepParameter::kCapacity, 0, "capacity 0"},
                            {SweepParameter::kCapacity, -2, "capacity -2"},
                            {SweepParameter::kCapacity, 2.5, "capacity 2.5"},
                            {SweepParameter::kCapacity, 1e12, "capacity"},
                            {SweepParameter::kServiceScale, 0, "service-scale 0"},
                            {SweepParameter::kServiceScale, -1, "service-scale -1"},
                            {SweepParameter::kServiceScale, nan, "service-scale"},
                            {SweepParameter::kObsolescenceScale, inf, "obsolescence-scale"},
                            {SweepParameter::kArrivalScale, -0.5, "arrival-scale -0.5"},
                            {SweepParameter::kLossCost, -1, "costs.loss -1"},
                            {SweepParameter::kRobotCost, inf, "costs.robot"}}) {
    const std::string what = message_of(m, r.parameter, r.value);
    INFO(validation::parameter_name(r.parameter) << " " << r.value << ": " << what);
    CHECK(what != "(accepted)");
    CHECK_THAT(what, Catch::Contains(r.fragment));
  }
  // A factor that overflows the rates is refused by the model's own rules, not crashed on.
  CHECK_THAT(message_of(m, SweepParameter::kArrivalScale, 1e308), Catch::Contains("arrival-scale"));
}

TEST_CASE("obsolescence-scale of a model whose pages never expire is refused",
          "[unit][validation][sweep]") {
  const model::Model m = two_poisson_modes();
  CHECK_THROWS_WITH(validation::require_applicable(m, SweepParameter::kObsolescenceScale),
                    Catch::Contains("obsolescence"));
  CHECK_THROWS_AS(validation::with_parameter(m, SweepParameter::kObsolescenceScale, 2),
                  std::invalid_argument);
  CHECK_THROWS_AS(validation::sweep(m, SweepParameter::kObsolescenceScale, {1, 2}, 1),
                  std::invalid_argument);
  CHECK_NOTHROW(validation::require_applicable(m, SweepParameter::kServiceScale));
}

TEST_CASE("sweep over capacity 1..5 on paper-example-1: K = 5 is Table 1's optimum",
          "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  const std::vector<double> capacities{1, 2, 3, 4, 5};
  const auto rows = validation::sweep(m, SweepParameter::kCapacity, capacities, 1);
  REQUIRE(rows.size() == capacities.size());

  const analytic::PolicyEvaluator evaluator(m);
  const analytic::ThresholdSearch direct = analytic::optimize_thresholds(evaluator, 1);
  const validation::SweepRow& k5 = rows.back();
  CHECK(k5.value == 5);
  CHECK(k5.best.policy.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(k5.best.policy == direct.best.policy);
  CHECK(k5.best.cost == Approx(direct.best.cost).epsilon(1e-12));
  CHECK(k5.best.cost == Approx(63.54).margin(0.005));
  REQUIRE(k5.constant.size() == direct.constant.size());
  for (std::size_t r = 0; r < direct.constant.size(); ++r)
    CHECK(k5.constant[r] == Approx(direct.constant[r]).epsilon(1e-12));
  // The best policy's own measures give back its cost (2).
  const analytic::PolicyEvaluation best = evaluator.evaluate(direct.best.policy);
  CHECK(k5.measures.p_loss == Approx(best.measures.p_loss).epsilon(1e-12));
  CHECK(k5.measures.lambda == Approx(best.measures.lambda).epsilon(1e-12));
  CHECK(k5.measures.mean_sojourn_served ==
        Approx(best.measures.mean_sojourn_served).epsilon(1e-12));
  CHECK(model::cost_criterion(m.costs, k5.measures) == Approx(k5.best.cost).epsilon(1e-12));
  CHECK(k5.measures.cost == Approx(k5.best.cost).epsilon(1e-12));

  for (std::size_t i = 0; i < rows.size(); ++i) {
    const validation::SweepRow& row = rows[i];
    INFO("K = " << capacities[i]);
    CHECK(row.value == capacities[i]);
    CHECK(row.best.policy.capacity() == static_cast<int>(capacities[i]));
    CHECK(row.constant.size() == 4u);
    double least = row.constant[0];
    for (double c : row.constant) {
      CHECK(row.best.cost <= c * (1 + 1e-12));
      least = std::min(least, c);
    }
    CHECK(row.relative_profit == Approx(100 * (1 - row.best.cost / least)).epsilon(1e-12));
    CHECK(row.mean_service_time == Approx(4.6 / 7).epsilon(1e-14));
    REQUIRE(row.mean_obsolescence_time);
    CHECK(*row.mean_obsolescence_time == Approx(5).epsilon(1e-14));
  }
  // Each row is optimised for its own K, not the file's.
  CHECK(rows.front().best.policy.levels().size() == 2u);
  CHECK(rows.front().best.cost != Approx(k5.best.cost).epsilon(1e-6));
}

TEST_CASE("sweep: the same rows with 1 and 2 threads, in the order of the values",
          "[unit][validation][sweep]") {
  const model::Model m = paper_example();
  const std::vector<double> scales{2, 0.5, 1, 0.5};
  const auto one = validation::sweep(m, SweepParameter::kServiceScale, scales, 1);
  const auto two = validation::sweep(m, SweepParameter::kServiceScale, scales, 2);
  REQUIRE(one.size() == scales.size());
  REQUIRE(two.size() == scales.size());
  for (std::size_t i = 0; i < scales.size(); ++i) {
    INFO("value " << scales[i]);
    CHECK(one[i].value == scales[i]);
    CHECK(two[i].value == scales[i]);
    CHECK(one[i].best.policy == two[i].best.policy);
    CHECK(one[i].best.cost == two[i].best.cost);
    CHECK(one[i].constant == two[i].constant);
    CHECK(one[i].measures.p_loss == two[i].measures.p_loss);
    CHECK(one[i].mean_service_time == Approx(4.6 / 7 / scales[i]).epsilon(1e-14));
  }
  // Duplicated values give duplicated rows; the unscaled value is the file's own optimum.
  CHECK(one[1].best.cost == one[3].best.cost);
  CHECK(one[2].best.cost == Approx(63.54).margin(0.005));
  // A faster indexer loses fewer pages.
  CHECK(one[0].measures.p_loss < one[2].measures.p_loss);
}

TEST_CASE("rhythm-amplitude: each scale moved about the mean, which stays",
          "[unit][validation][sweep]") {
  model::Model m = two_poisson_modes();
  m.rhythm = model::Rhythm{.period = 12, .scales = {0.5, 2.0, 0.8}};  // mean 1.1
  const model::Model doubled = validation::with_parameter(m, SweepParameter::kRhythmAmplitude, 1.5);
  const std::vector<double> expected{1.1 + 1.5 * (0.5 - 1.1), 1.1 + 1.5 * (2.0 - 1.1),
                                     1.1 + 1.5 * (0.8 - 1.1)};
  REQUIRE(doubled.rhythm->scales.size() == 3);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(doubled.rhythm->scales[i] == Approx(expected[i]).epsilon(1e-14));
  CHECK(doubled.rhythm->mean_scale() == Approx(1.1).epsilon(1e-14));
  CHECK(doubled.rhythm->period == 12);
  const model::Model flat = validation::with_parameter(m, SweepParameter::kRhythmAmplitude, 0);
  for (const double s : flat.rhythm->scales) CHECK(s == Approx(1.1).epsilon(1e-14));
  // The arrival matrices themselves are the file's: the rhythm scales them piece by piece.
  CHECK(flat.arrivals.mode(2).fundamental_rate() == m.arrivals.mode(2).fundamental_rate());

  // 1.1 + a (0.5 - 1.1) > 0 holds for a < 1.1 / 0.6 only.
  const std::string too_wide = message_of(m, SweepParameter::kRhythmAmplitude, 1.9);
  CHECK_THAT(too_wide, Catch::Contains("rhythm-amplitude 1.9"));
  CHECK_THAT(too_wide, Catch::Contains("below 1.83333"));
  CHECK_THAT(message_of(m, SweepParameter::kRhythmAmplitude, -0.5), Catch::Contains("at least 0"));
  CHECK_THAT(message_of(m, SweepParameter::kRhythmAmplitude, std::nan("")),
             Catch::Contains("finite"));
  CHECK_THAT(message_of(two_poisson_modes(), SweepParameter::kRhythmAmplitude, 1),
             Catch::Contains("no rhythm"));
  CHECK(validation::parse_sweep_parameter("rhythm-amplitude") == SweepParameter::kRhythmAmplitude);
}

TEST_CASE(
    "sweep under a rhythm: amplitude 0 is the stationary sweep at the mean scale, and a vector "
    "per piece never costs more than one for the period",
    "[unit][validation][sweep]") {
  model::Model day = paper_example();
  day.rhythm = model::Rhythm{.period = 12, .scales = {0.4, 1.7, 0.9, 1.2}};  // mean 1.05
  const std::vector<validation::SweepRow> rows =
      validation::sweep(day, SweepParameter::kRhythmAmplitude, {0, 1.2}, 2);
  REQUIRE(rows.size() == 2);
  const std::vector<validation::SweepRow> stationary =
      validation::sweep(paper_example(), SweepParameter::kArrivalScale, {1.05}, 1);
  // Flat, the periodic regime is the stationary one of the mean arrivals: the same costs.
  CHECK(rows[0].best.cost == Approx(stationary[0].best.cost).epsilon(1e-8));
  CHECK(rows[0].best.policy.levels() == stationary[0].best.policy.levels());
  REQUIRE(rows[0].constant.size() == stationary[0].constant.size());
  for (std::size_t r = 0; r < rows[0].constant.size(); ++r)
    CHECK(rows[0].constant[r] == Approx(stationary[0].constant[r]).epsilon(1e-8));
  CHECK(rows[0].measures.p_loss == Approx(stationary[0].measures.p_loss).epsilon(1e-8));
  REQUIRE(rows[0].by_piece);
  CHECK(rows[0].by_piece->cost == Approx(rows[0].best.cost).epsilon(1e-10));
  // With a swing, following the clock saves; the rows' measures are the per-piece policy's.
  REQUIRE(rows[1].by_piece);
  CHECK(rows[1].by_piece->thresholds.size() == 4);
  CHECK(rows[1].by_piece->cost <= rows[1].best.cost);
  CHECK(rows[1].measures.cost == Approx(rows[1].by_piece->cost).epsilon(1e-10));
  CHECK(rows[1].best.cost <= *std::min_element(rows[1].constant.begin(), rows[1].constant.end()));
  CHECK(rows[1].relative_profit ==
        Approx(model::relative_profit(rows[1].by_piece->cost, rows[1].constant)).epsilon(1e-12));
  // The same rows on one thread.
  const std::vector<validation::SweepRow> one =
      validation::sweep(day, SweepParameter::kRhythmAmplitude, {0, 1.2}, 1);
  CHECK(one[1].by_piece->thresholds == rows[1].by_piece->thresholds);
  CHECK(one[1].by_piece->cost == rows[1].by_piece->cost);
}
