// The values of the JSON keys of describe, solve, simulate, simulate --compare and validate against
// oracles the code that writes them did not compute (docs/testing/json-oracles.md): values worked
// out by hand in the comments, closed forms, identities recomputed from the same JSON, echoes of
// the request, solve's exact values, and the exact values inside the simulator's intervals.
//
// The simulations run 30 replications. A 95% half-width is then t_{0.975,29} = 2.045 standard
// errors, so 5 half-widths are 10.2 of them: an unbiased estimate lands that far out with
// probability P(|T_29| > 10.2) = 4e-11 (mpmath's betainc), below 1e-8 over every such check here.
// A horizon of 5000 keeps the start-up and ratio biases (order 1/horizon) far inside that.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/compare_request.hpp"
#include "api/describe_request.hpp"
#include "api/request_checks.hpp"
#include "api/simulate_request.hpp"
#include "api/solve_request.hpp"
#include "api/validate_request.hpp"
#include "model/elapsed.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

constexpr int kReplications = 30;
constexpr double kHorizon = 5000, kWarmup = 50;
// Student quantiles for 29 degrees of freedom, from mpmath (not boost, which the code uses):
// t_{0.975} and, for validate's 19 measures, t_{1 - 0.01 / (2 * 19)}.
constexpr double kT975 = 2.04522964213270;
constexpr double kZBound19 = 3.89873530540728;
constexpr double kHalfWidths = 5;

model::Model shipped(const std::string& file) {
  return scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/" + file).model;
}

validation::SimulationSettings fixed_settings(std::uint64_t seed) {
  return {.seed = seed,
          .replications = kReplications,
          .horizon = kHorizon,
          .warmup = kWarmup,
          .threads = 1,
          .precision = 0,
          .time_limit = 60};
}

api::SolveRequest solve_request(const model::Model& m, const model::ControlPolicy& policy) {
  return {.source = m.name + ".yaml",
          .model = m,
          .policy = policy,
          .method = analytic::Method::kAuto,
          .threads = 1,
          .sojourn = false,
          .transforms = {},
          .cdf_points = {}};
}

nlohmann::json solved(const model::Model& m, const model::ControlPolicy& policy) {
  const api::SolveRequest request = solve_request(m, policy);
  return api::to_json(request, api::solve(request));
}

using crawlq::model::seconds_since;

// A {mean, half_width} holds `exact` within kHalfWidths half-widths (see the header comment).
void check_covers(const nlohmann::json& interval, double exact, const std::string& what) {
  INFO(what << ": " << interval.dump() << " against " << exact);
  CHECK(std::abs(interval.at("mean").get<double>() - exact) <=
        kHalfWidths * interval.at("half_width").get<double>());
}

// The Student interval of `values`, with the t quantile above.
std::pair<double, double> student(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double mean = 0, squares = 0;
  for (double v : values) mean += v / n;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, kT975 * std::sqrt(squares / (n - 1) / n)};
}

void check_interval(const nlohmann::json& interval, const std::vector<double>& values,
                    const std::string& what) {
  const auto [mean, half_width] = student(values);
  INFO(what << ": " << interval.dump());
  CHECK(interval.at("mean").get<double>() == Approx(mean).epsilon(1e-12).margin(1e-15));
  CHECK(interval.at("half_width").get<double>() == Approx(half_width).epsilon(1e-9).margin(1e-15));
}

// Events a run should count (sim/simulator.hpp: the robots' moves, service completions, expiries).
// With one arrival phase every move of the robots is a batch, at mode r's group rate, and every
// accepted page leaves once, served or expired: the rate is sum_r q_r lambda_g^(r) + lambda
// (p_served + p_obsolete), from describe's group rates and solve's measures.
double expected_events(const nlohmann::json& described, const nlohmann::json& exact) {
  double rate = 0;
  for (std::size_t r = 0; r < described.at("modes").size(); ++r)
    rate += exact.at("mode_probabilities").at(r).get<double>() *
            described.at("modes").at(r).at("group_rate").get<double>();
  rate += exact.at("lambda").get<double>() *
          (exact.at("p_served").get<double>() + exact.at("p_obsolete").get<double>());
  return rate * (kWarmup + kHorizon) * kReplications;
}

// The count is a sum of batches and departures over 30 x 5050 time units, about 5e5 events; its
// dispersion index stays below 3 (batches of 1 or 2 pages), so its sd is below 0.3%: 2% is 8 sd,
// and still catches a count that leaves out a replication or counts the wrong policy's run.
constexpr double kEventsTolerance = 0.02;

}  // namespace

TEST_CASE("describe JSON: a two-mode model of Erlang intervals against values worked out by hand",
          "[api][describe][oracle]") {
  // Mode 1: Erlang-2 gaps of rate 3, single pages. Mode 2: Erlang-2 gaps of rate 5, a batch of 1
  // page (weight 2) or 2 pages (weight 3). Service: exp(1) w.p. 1/4, exp(4) w.p. 3/4. Clock: rate
  // 2, then w.p. 1/2 a second phase of rate 1/2.
  const model::Model m = scenarios::parse_scenario(
                             "name: erlang-modes\ncapacity: 3\nadmission: reject-batch\n"
                             "arrivals:\n  kind: per-mode\n  modes:\n"
                             "    - D: [[[-3, 3], [0, -3]], [[0, 0], [3, 0]]]\n"
                             "    - D: [[[-5, 5], [0, -5]], [[0, 0], [2, 0]], [[0, 0], [3, 0]]]\n"
                             "service: {beta: [0.25, 0.75], S: [[-1, 0], [0, -4]]}\n"
                             "obsolescence: {gamma: [1, 0], Gamma: [[-2, 1], [0, -0.5]]}\n"
                             "costs: {loss: 1}\npolicy: {thresholds: [2]}\n",
                             "erlang-modes.yaml")
                             .model;
  const nlohmann::json j = api::describe({.model = m, .repairs = {}});
  CHECK(j.at("name") == "erlang-modes");
  CHECK(j.at("admission") == "reject-batch");
  CHECK(j.at("arrival_phases") == 2);
  const auto& modes = j.at("modes");
  REQUIRE(modes.size() == 2);
  // A gap is Erlang(2, a): mean 2/a, variance 2/a^2, so groups come at a/2 (1.5 and 2.5). Mode 2's
  // mean batch is 0.4 + 2 x 0.6 = 1.6, so its pages come at 4.
  CHECK(modes[0].at("robots") == 1);
  CHECK(modes[1].at("robots") == 2);
  CHECK(modes[0].at("group_rate").get<double>() == Approx(1.5).epsilon(1e-12));
  CHECK(modes[1].at("group_rate").get<double>() == Approx(2.5).epsilon(1e-12));
  CHECK(modes[0].at("mean_batch").get<double>() == Approx(1.0).epsilon(1e-12));
  CHECK(modes[1].at("mean_batch").get<double>() == Approx(1.6).epsilon(1e-12));
  CHECK(modes[1].at("fundamental_rate").get<double>() == Approx(4.0).epsilon(1e-12));
  CHECK(modes[0].at("group_interval_variance").get<double>() == Approx(2.0 / 9).epsilon(1e-12));
  CHECK(modes[1].at("group_interval_variance").get<double>() == Approx(2.0 / 25).epsilon(1e-12));
  CHECK(modes[0].at("max_batch") == 1);
  CHECK(modes[1].at("max_batch") == 2);
  // Service: mean 1/4 + 3/16 = 7/16; E[X^2] = 2 (1/4 + 3/64) = 19/32; variance 19/32 - 49/256 =
  // 103/256; scv 103/49.
  const auto& service = j.at("service");
  CHECK(service.at("phases") == 2);
  CHECK(service.at("mean").get<double>() == Approx(7.0 / 16).epsilon(1e-12));
  CHECK(service.at("variance").get<double>() == Approx(103.0 / 256).epsilon(1e-12));
  CHECK(service.at("scv").get<double>() == Approx(103.0 / 49).epsilon(1e-12));
  // Clock: (-Gamma)^-1 = [[1/2, 1], [0, 2]], so (-Gamma)^-1 1 = (3/2, 2) and (-Gamma)^-2 1 =
  // (11/4, 4): mean 3/2, E[X^2] = 11/2, variance 13/4, scv 13/9.
  const auto& clock = j.at("obsolescence");
  CHECK(clock.at("phases") == 2);
  CHECK(clock.at("mean").get<double>() == Approx(1.5).epsilon(1e-12));
  CHECK(clock.at("variance").get<double>() == Approx(3.25).epsilon(1e-12));
  CHECK(clock.at("scv").get<double>() == Approx(13.0 / 9).epsilon(1e-12));
  CHECK(clock.at("gamma") == std::vector<double>{1, 0});
  // Threshold 2 with two robots: both at levels 0..2, one at level 3.
  CHECK(j.at("policy").at("thresholds") == std::vector<int>{2});
  CHECK(j.at("policy").at("levels") == std::vector<int>{2, 2, 2, 1});
}

TEST_CASE("describe JSON: the shipped examples' laws and batches against hand values",
          "[api][describe][oracle]") {
  const nlohmann::json paper =
      api::describe({.model = shipped("paper-example-1.yaml"), .repairs = {}});
  CHECK(paper.at("admission") == "partial");
  CHECK(paper.at("arrival_phases") == 2);
  // The file writes 3, 4, 3 and 5 matrices D_0.. for modes 1..4.
  const std::vector<int> max_batch{2, 3, 2, 4};
  REQUIRE(paper.at("modes").size() == 4);
  for (int r = 0; r < 4; ++r) {
    CHECK(paper.at("modes").at(r).at("robots") == r + 1);
    CHECK(paper.at("modes").at(r).at("max_batch") == max_batch[r]);
  }
  // Mode 3: D = [[-0.48, 0.48], [0.48, -0.48]] has theta = (1/2, 1/2); groups at 0.5 (2 + 3) = 2.5,
  // pages at 0.5 (2.5 + 3.75) = 3.125, so 1.25 pages a batch.
  CHECK(paper.at("modes").at(2).at("mean_batch").get<double>() == Approx(1.25).epsilon(1e-12));
  // Service beta = (0.4, 0.6), -S = [[3, -1], [-2, 3]] (det 7): (-S)^-1 1 = (4, 5)/7 and
  // (-S)^-2 1 = (17, 23)/49, so mean 23/35 and E[X^2] = 41.2/49: variance 501/1225, scv 501/529.
  const auto& service = paper.at("service");
  CHECK(service.at("phases") == 2);
  CHECK(service.at("variance").get<double>() == Approx(501.0 / 1225).epsilon(1e-12));
  CHECK(service.at("scv").get<double>() == Approx(501.0 / 529).epsilon(1e-12));
  // Clock: (-Gamma)^-1 = [[0.3, 0.4], [0.1, 0.6]] / 0.14 maps 1 to (5, 5): mean 5 from either
  // phase, so E[X^2] = 2 * 25 and the variance is 25.
  const auto& clock = paper.at("obsolescence");
  CHECK(clock.at("phases") == 2);
  CHECK(clock.at("mean").get<double>() == Approx(5.0).epsilon(1e-12));
  CHECK(clock.at("variance").get<double>() == Approx(25.0).epsilon(1e-12));
  CHECK(clock.at("scv").get<double>() == Approx(1.0).epsilon(1e-12));
  CHECK(clock.at("gamma") == std::vector<double>{0.3, 0.7});
  CHECK(paper.at("policy").at("thresholds") == std::vector<int>{-1, 2, 2});

  // teaching-two-robots: Poisson groups at 1 (mode 1) and 1 + 1 = 2 (mode 2, 1.25 pages each);
  // exponential service of rate 2 and clock of mean 5.
  const nlohmann::json teaching =
      api::describe({.model = shipped("teaching-two-robots.yaml"), .repairs = {}});
  CHECK(teaching.at("arrival_phases") == 1);
  CHECK(teaching.at("modes").at(0).at("group_interval_variance").get<double>() ==
        Approx(1.0).epsilon(1e-12));
  CHECK(teaching.at("modes").at(1).at("group_interval_variance").get<double>() ==
        Approx(0.25).epsilon(1e-12));
  CHECK(teaching.at("modes").at(1).at("mean_batch").get<double>() == Approx(1.25).epsilon(1e-12));
  CHECK(teaching.at("service").at("phases") == 1);
  CHECK(teaching.at("service").at("variance").get<double>() == Approx(0.25).epsilon(1e-12));
  CHECK(teaching.at("service").at("scv").get<double>() == Approx(1.0).epsilon(1e-12));
  const auto& clock1 = teaching.at("obsolescence");
  CHECK(clock1.at("phases") == 1);
  CHECK(clock1.at("mean").get<double>() == Approx(5.0).epsilon(1e-12));
  CHECK(clock1.at("variance").get<double>() == Approx(25.0).epsilon(1e-12));
  CHECK(clock1.at("scv").get<double>() == Approx(1.0).epsilon(1e-12));
  CHECK(clock1.at("gamma") == std::vector<double>{1});
}

TEST_CASE("solve JSON: residual recomputed from the level probabilities, iterations by method",
          "[api][solve][oracle]") {
  // M/M/1/K with lambda 1.3 and mu 2.1: one state per level, so level_probabilities is the
  // stationary vector and p Q is the birth-death balance written out below.
  constexpr double kLambda = 1.3, kMu = 2.1;
  constexpr int kCapacity = 60;
  const model::Model m = scenarios::parse_scenario(
                             "name: mm1k\ncapacity: 60\narrivals: {kind: poisson, modes: [{rate: "
                             "1.3}]}\nservice: {exponential: {rate: 2.1}}\ncosts: {loss: 1}\n",
                             "mm1k.yaml")
                             .model;
  const model::ControlPolicy one_robot = model::Policy::constant(1, 1, kCapacity);
  const auto residual_of = [&](const nlohmann::json& j) {
    const auto p = j.at("level_probabilities").get<std::vector<double>>();
    REQUIRE(p.size() == kCapacity + 1);
    double sum = 0;
    for (int i = 0; i <= kCapacity; ++i) {
      double flow = -((i < kCapacity ? kLambda : 0) + (i > 0 ? kMu : 0)) * p[i];
      if (i > 0) flow += kLambda * p[i - 1];
      if (i < kCapacity) flow += kMu * p[i + 1];
      sum += std::abs(flow);
    }
    return sum;
  };
  for (const auto method : {analytic::Method::kIterative, analytic::Method::kSparseLu,
                            analytic::Method::kBlockRecursion}) {
    api::SolveRequest request = solve_request(m, one_robot);
    request.method = method;
    const auto start = std::chrono::steady_clock::now();
    const nlohmann::json j = api::to_json(request, api::solve(request));
    const double wall = seconds_since(start);
    INFO(j.dump());
    // ||p Q||_1 recomputed: the two differ only by the order of a few roundings of terms below 3.4.
    CHECK(j.at("residual").get<double>() == Approx(residual_of(j)).margin(1e-14));
    // The solve is timed inside the call this test timed, and its parts inside the whole.
    CHECK(j.at("seconds").get<double>() >= 0);
    CHECK(j.at("seconds").get<double>() <= wall);
    CHECK(j.at("seconds_stationary").get<double>() >= 0);
    CHECK(j.at("seconds_sojourn").get<double>() > 0);  // the moments are always computed
    CHECK(j.at("seconds_stationary").get<double>() + j.at("seconds_sojourn").get<double>() <=
          j.at("seconds").get<double>());
    CHECK_FALSE(j.contains("seconds_transient"));
    CHECK_FALSE(j.contains("method_note"));  // no fall back asked for: a direct or converged solve
    // One factorisation for sparse LU; one level at a time, K + 1 of them, for the recursion.
    if (method == analytic::Method::kSparseLu) CHECK(j.at("iterations") == 1);
    if (method == analytic::Method::kBlockRecursion) CHECK(j.at("iterations") == kCapacity + 1);
    if (method == analytic::Method::kIterative) {
      // BiCGSTAB stops at a tolerance, not at round-off: its residual is what the check above
      // compares, far above the 1e-14 the recount allows.
      CHECK(j.at("residual").get<double>() > 1e-13);
      CHECK(j.at("iterations").get<int>() >= 1);
    }
  }
}

TEST_CASE(
    "simulate JSON: teaching-two-robots' intervals hold solve's values and are the replications'",
    "[api][simulate][oracle]") {
  const model::Model m = shipped("teaching-two-robots.yaml");
  api::SimulateRequest request{.source = "teaching-two-robots.yaml",
                               .model = m,
                               .policy = *m.policy,
                               .settings = fixed_settings(11),
                               .spread = nullptr,
                               .progress = nullptr};
  const auto start = std::chrono::steady_clock::now();
  const api::SimulateResult result = api::simulate(request);
  const double wall = seconds_since(start);
  const nlohmann::json j = api::to_json(request, result);
  const std::vector<sim::ReplicationEstimate>& runs = result.summary.replications;
  REQUIRE(runs.size() == kReplications);

  // Every interval is the Student interval of the replications' estimates.
  for (const auto& measure : model::scalar_measures<double>()) {
    std::vector<double> values;
    for (const auto& run : runs) values.push_back(run.*measure.field);
    check_interval(j.at(std::string(measure.name.key)), values, std::string(measure.name.key));
  }
  for (const auto& list : model::list_measures<double>()) {
    const std::string key(list.name.key);
    REQUIRE(j.at(key).size() == (runs[0].*list.field).size());
    for (std::size_t i = 0; i < j.at(key).size(); ++i) {
      std::vector<double> values;
      for (const auto& run : runs) values.push_back((run.*list.field)[i]);
      check_interval(j.at(key).at(i), values, key + "[" + std::to_string(i) + "]");
    }
  }

  // Histogram bins: 40 equal steps from 0 to 1.2 times the largest replication's p99.
  double top = 0;
  for (const auto& run : runs) top = std::max(top, run.served_p99);
  top *= 1.2;
  const auto edges = j.at("sojourn_served_histogram").at("edges").get<std::vector<double>>();
  REQUIRE(edges.size() == 41);
  for (std::size_t b = 0; b < edges.size(); ++b)
    CHECK(edges[b] == Approx(static_cast<double>(b) * top / 40).epsilon(1e-12).margin(1e-15));

  // The exact engine's values, with the served law at the histogram's edges.
  api::SolveRequest exact_request = solve_request(m, *m.policy);
  exact_request.sojourn = true;
  exact_request.cdf_points = edges;
  const nlohmann::json exact = api::to_json(exact_request, api::solve(exact_request));
  for (const auto& measure : model::scalar_measures<double>()) {
    const std::string key(measure.name.key);
    check_covers(j.at(key), exact.at(key).get<double>(), key);
  }
  for (const auto& list : model::list_measures<double>()) {
    const std::string key(list.name.key);
    for (std::size_t i = 0; i < j.at(key).size(); ++i)
      check_covers(j.at(key).at(i), exact.at(key).at(i).get<double>(), key);
  }
  for (const char* q : {"median", "p90", "p99"})
    check_covers(j.at("sojourn_served_quantiles").at(q),
                 exact.at("sojourn").at("served").at(q).get<double>(), q);
  // Each bin's density times its width is the served pages' share in it: F(right) - F(left).
  const auto& density = j.at("sojourn_served_histogram").at("density");
  REQUIRE(density.size() == 40);
  for (std::size_t b = 0; b < density.size(); ++b) {
    const double width = edges[b + 1] - edges[b];
    const double mass = exact.at("cdf").at(b + 1).at("served").get<double>() -
                        exact.at("cdf").at(b).at("served").get<double>();
    INFO("bin " << b << " mass " << mass << " density " << density.at(b).dump());
    CHECK(std::abs(density.at(b).at("mean").get<double>() * width - mass) <=
          kHalfWidths * density.at(b).at("half_width").get<double>() * width);
  }

  const nlohmann::json described = api::describe({.model = m, .repairs = {}});
  const double events = expected_events(described, exact);
  CHECK(j.at("events").get<double>() == Approx(events).epsilon(kEventsTolerance));
  // The fewest pages any replication was offered: the least of the replications' counts, each about
  // lambda x horizon (some 1e4) with an sd below sqrt(3 lambda horizon) (batches of 1 or 2).
  double fewest = runs[0].pages_offered;
  for (const auto& run : runs) fewest = std::min(fewest, run.pages_offered);
  CHECK(j.at("fewest_pages").get<double>() == fewest);
  const double offered = exact.at("lambda").get<double>() * kHorizon;
  const double sd = std::sqrt(3 * offered);
  CHECK(j.at("fewest_pages").get<double>() >= offered - 8 * sd);
  CHECK(j.at("fewest_pages").get<double>() <= offered + 2 * sd);

  CHECK(j.at("horizon").get<double>() == kHorizon);
  CHECK(j.at("warmup").get<double>() == kWarmup);
  CHECK(j.at("warmup_rule") == "given");
  // The whole inside the call this test timed, and the sum of its parts: the pace's pilot (a
  // warm-up given) and the replications.
  CHECK(j.at("seconds").get<double>() <= wall);
  CHECK(j.at("seconds_warmup").get<double>() > 0);
  CHECK(j.at("seconds_replications").get<double>() > 0);
  CHECK(j.at("seconds").get<double>() ==
        Approx(j.at("seconds_warmup").get<double>() + j.at("seconds_replications").get<double>()));

  // Without a warm-up the MSER-5 rule chooses it.
  request.settings = {.seed = 11,
                      .replications = 2,
                      .horizon = 300.0,
                      .warmup = std::nullopt,
                      .threads = 1,
                      .precision = 0,
                      .time_limit = 60};
  const auto before = std::chrono::steady_clock::now();
  const nlohmann::json chosen = api::to_json(request, api::simulate(request));
  CHECK(chosen.at("warmup_rule") == "mser-5");
  CHECK(chosen.at("seconds").get<double>() <= seconds_since(before));
  CHECK(chosen.at("seconds").get<double>() ==
        Approx(chosen.at("seconds_warmup").get<double>() +
               chosen.at("seconds_replications").get<double>()));
}

TEST_CASE("simulate --compare JSON: each policy's cost, the paired differences and the run's echo",
          "[api][compare][oracle]") {
  const model::Model m = shipped("teaching-two-robots.yaml");
  // A: the file's threshold 1. B: a level map outside the threshold class (one robot while empty).
  const model::ControlPolicy a = *m.policy;
  const model::ControlPolicy b = model::Policy::from_levels({1, 2, 2, 1, 1}, 2, 4);
  api::CompareRequest request{.source = "teaching-two-robots.yaml",
                              .model = m,
                              .a = a,
                              .b = b,
                              .settings = fixed_settings(5),
                              .spread = nullptr,
                              .progress = nullptr};
  const auto start = std::chrono::steady_clock::now();
  const api::CompareResult result = api::compare(request);
  const double wall = seconds_since(start);
  const nlohmann::json j = api::to_json(request, result);

  CHECK(j.at("a").at("policy") == nlohmann::json{{"levels", {2, 2, 1, 1, 1}}, {"thresholds", {1}}});
  CHECK(j.at("b").at("policy") == nlohmann::json{{"levels", {1, 2, 2, 1, 1}}});
  const nlohmann::json exact_a = solved(m, a), exact_b = solved(m, b);
  check_covers(j.at("a").at("cost"), exact_a.at("cost").get<double>(), "a.cost");
  check_covers(j.at("b").at("cost"), exact_b.at("cost").get<double>(), "b.cost");

  // Each difference: B minus A replication by replication (common random numbers), its Student
  // interval, holding the exact difference.
  const auto& runs_a = result.comparison.a.replications;
  const auto& runs_b = result.comparison.b.replications;
  REQUIRE(runs_a.size() == kReplications);
  REQUIRE(runs_b.size() == kReplications);
  for (const auto& measure : model::scalar_measures<double>()) {
    const std::string key(measure.name.key);
    std::vector<double> differences;
    for (std::size_t r = 0; r < runs_a.size(); ++r)
      differences.push_back(runs_b[r].*measure.field - runs_a[r].*measure.field);
    check_interval(j.at("difference").at(key), differences, "difference." + key);
    check_covers(j.at("difference").at(key),
                 exact_b.at(key).get<double>() - exact_a.at(key).get<double>(),
                 "difference." + key);
  }
  CHECK(j.at("independent_cost_half_width").get<double>() ==
        Approx(std::hypot(j.at("a").at("cost").at("half_width").get<double>(),
                          j.at("b").at("cost").at("half_width").get<double>()))
            .epsilon(1e-12));

  const nlohmann::json described = api::describe({.model = m, .repairs = {}});
  CHECK(j.at("events").get<double>() ==
        Approx(expected_events(described, exact_a) + expected_events(described, exact_b))
            .epsilon(kEventsTolerance));
  CHECK(j.at("replications") == kReplications);
  CHECK(j.at("seed") == 5);
  CHECK(j.at("horizon").get<double>() == kHorizon);
  CHECK(j.at("warmup").get<double>() == kWarmup);
  CHECK(j.at("seconds").get<double>() <= wall);
  CHECK(j.at("seconds_warmup").get<double>() > 0);  // the pace's pilot
  CHECK(j.at("seconds").get<double>() ==
        Approx(j.at("seconds_warmup").get<double>() + j.at("seconds_replications").get<double>()));

  // A policy against itself on common random numbers: every difference is exactly 0.
  request.b = a;
  request.settings.replications = 3;
  request.settings.horizon = 300.0;
  const nlohmann::json same = api::to_json(request, api::compare(request));
  for (const auto& measure : model::scalar_measures<double>()) {
    const auto& d = same.at("difference").at(std::string(measure.name.key));
    CHECK(d.at("mean").get<double>() == 0.0);
    CHECK(d.at("half_width").get<double>() == 0.0);
  }
}

TEST_CASE(
    "validate JSON: exact values as solve's, intervals as simulate's, z and its bound recomputed",
    "[api][validate][oracle]") {
  const model::Model m = shipped("teaching-two-robots.yaml");
  api::ValidateRequest request{.source = "teaching-two-robots.yaml",
                               .model = m,
                               .policy = *m.policy,
                               .settings = fixed_settings(7),
                               .simulated_model = std::nullopt,
                               .exact_absent = ""};
  const auto start = std::chrono::steady_clock::now();
  const nlohmann::json j = api::to_json(request, api::validate(request));
  const double wall = seconds_since(start);
  const nlohmann::json exact = solved(m, *m.policy);
  api::SimulateRequest simulate_request{.source = "teaching-two-robots.yaml",
                                        .model = m,
                                        .policy = *m.policy,
                                        .settings = fixed_settings(7),
                                        .spread = nullptr,
                                        .progress = nullptr};
  const nlohmann::json simulated = api::to_json(simulate_request, api::simulate(simulate_request));

  CHECK(j.at("file") == "teaching-two-robots.yaml");
  CHECK(j.at("name") == "teaching-two-robots");  // the file's `name:`
  CHECK(j.at("policy") == exact.at("policy"));
  CHECK(j.at("policy").at("levels") == std::vector<int>{2, 2, 1, 1, 1});
  CHECK(j.at("replications") == kReplications);
  CHECK(j.at("seed") == 7);
  CHECK(j.at("precise") == true);  // a fixed number of replications has no precision to miss
  CHECK(j.at("events") == simulated.at("events"));
  const nlohmann::json described = api::describe({.model = m, .repairs = {}});
  CHECK(j.at("events").get<double>() ==
        Approx(expected_events(described, exact)).epsilon(kEventsTolerance));
  // The whole inside the call this test timed; its parts inside the whole, each of them run.
  CHECK(j.at("seconds").get<double>() <= wall);
  const double parts = j.at("seconds_exact").get<double>() + j.at("seconds_warmup").get<double>() +
                       j.at("seconds_replications").get<double>();
  CHECK(parts <= j.at("seconds").get<double>() * (1 + 1e-12));
  for (const char* part : {"seconds_exact", "seconds_warmup", "seconds_replications"}) {
    INFO(part);
    CHECK(j.at(part).get<double>() > 0);
  }

  // The 12 scalar keys of solve in the tables' order, the levels 0..4, the modes 1..2: 19
  // measures, each judged at 0.01 / 19 (two-sided) with 29 degrees of freedom.
  std::vector<std::string> names{"lambda",
                                 "p_loss",
                                 "p_obsolete",
                                 "p_served",
                                 "p_starvation",
                                 "mean_active_robots",
                                 "mean_in_system",
                                 "mean_in_queue",
                                 "mean_sojourn",
                                 "mean_sojourn_served",
                                 "mean_sojourn_obsolete",
                                 "cost"};
  std::vector<double> exact_values, simulated_mean, simulated_half_width;
  for (const auto& name : names) {
    exact_values.push_back(exact.at(name).get<double>());
    simulated_mean.push_back(simulated.at(name).at("mean").get<double>());
    simulated_half_width.push_back(simulated.at(name).at("half_width").get<double>());
  }
  for (const char* list : {"level_probabilities", "mode_probabilities"})
    for (std::size_t i = 0; i < exact.at(list).size(); ++i) {
      names.push_back(fmt::format("{}[{}]", list, i));
      exact_values.push_back(exact.at(list).at(i).get<double>());
      simulated_mean.push_back(simulated.at(list).at(i).at("mean").get<double>());
      simulated_half_width.push_back(simulated.at(list).at(i).at("half_width").get<double>());
    }
  REQUIRE(names.size() == 19);
  CHECK(j.at("z_bound").get<double>() == Approx(kZBound19).epsilon(1e-9));
  const auto& measures = j.at("measures");
  REQUIRE(measures.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& entry = measures.at(i);
    INFO(entry.dump());
    CHECK(entry.at("name") == names[i]);
    CHECK(entry.at("exact").get<double>() == Approx(exact_values[i]).epsilon(1e-12).margin(1e-15));
    CHECK(entry.at("mean").get<double>() == simulated_mean[i]);
    CHECK(entry.at("half_width").get<double>() == simulated_half_width[i]);
    // z = (mean - exact) / standard error, the standard error being half_width / t_{0.975,29}.
    const double z = (entry.at("mean").get<double>() - entry.at("exact").get<double>()) /
                     (entry.at("half_width").get<double>() / kT975);
    CHECK(entry.at("z").get<double>() == Approx(z).epsilon(1e-9));
  }

  // With a precision the run goes on until the four headline half-widths are within it: `precise`
  // says whether they are, as recomputed from the same JSON.
  request.settings.precision = 0.05;
  request.settings.replications = 4;
  const nlohmann::json sequential = api::to_json(request, api::validate(request));
  bool within = true;
  for (const auto& entry : sequential.at("measures"))
    for (const char* headline : {"p_loss", "p_served", "cost", "mean_sojourn_served"})
      if (entry.at("name") == headline)
        within = within && entry.at("half_width").get<double>() <=
                               0.05 * std::abs(entry.at("mean").get<double>());
  CHECK(sequential.at("precise") == within);
  CHECK(within);  // 60 s is ample for this small chain
}

TEST_CASE("validate JSON: without the exact engine, the reason names the capacity and its states",
          "[api][validate][oracle]") {
  model::Model m = shipped("paper-example-1.yaml");
  m.capacity = 40;  // 4.4e12 states: beyond any machine's memory for the exact engine
  m.policy = model::Policy::from_thresholds({-1, 2, 2}, 4, 40);
  const std::string reason = api::exact_engine_refusal(m);
  REQUIRE_FALSE(reason.empty());
  api::ValidateRequest request{.source = "paper-example-1.yaml",
                               .model = m,
                               .policy = *m.policy,
                               .settings = {.seed = 3,
                                            .replications = 2,
                                            .horizon = 100.0,
                                            .warmup = 10.0,
                                            .threads = 1,
                                            .precision = 0,
                                            .time_limit = 60},
                               .simulated_model = std::nullopt,
                               .exact_absent = reason};
  const nlohmann::json j = api::to_json(request, api::validate(request));
  CHECK(j.at("exact_engine") == false);
  CHECK(j.at("exact_engine_absent") == reason);
  // W (1 + M (1 + R + ... + R^(K-1))) = 2 (1 + 2 (2^40 - 1)) = 4398046511102 states.
  const nlohmann::json described = api::describe({.model = m, .repairs = {}});
  CHECK(described.at("states").get<double>() == 4398046511102.0);
  CHECK_THAT(j.at("exact_engine_absent").get<std::string>(),
             Catch::StartsWith(fmt::format("capacity: 40 makes {:.3g} states",
                                           described.at("states").get<double>())));
}

}  // namespace crawlq
