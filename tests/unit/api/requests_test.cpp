// The request layer's solve and describe: a request checks itself, refuses by name what the exact
// engine does not take, and its result and JSON are the engine's own numbers.
#include <catch2/catch.hpp>
#include <string>

#include "api/describe_request.hpp"
#include "api/optimize_request.hpp"
#include "api/refresh_request.hpp"
#include "api/reproduce_request.hpp"
#include "api/simulate_request.hpp"
#include "api/solve_request.hpp"
#include "api/sweep_request.hpp"
#include "api/validate_request.hpp"
#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

api::SolveRequest example_request() {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  return {.source = "paper-example-1.yaml",
          .model = scenario.model,
          .policy = *scenario.model.policy,
          .method = analytic::Method::kAuto,
          .threads = 0,
          .sojourn = false,
          .transforms = {},
          .cdf_points = {},
          // The chain the evaluator below solves: lumped, the same numbers to the last bits only.
          .full_chain = true};
}

}  // namespace

TEST_CASE("a solve request says what is wrong with it, naming the field", "[api]") {
  api::SolveRequest request = example_request();
  std::string why;
  CHECK(request.is_valid(&why));
  request.threads = -1;
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith("--threads: -1"));
  request.threads = 0;
  request.transforms = {0.5, -2};
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith("--lst: -2"));
  request.transforms = {};
  // Every policy form is the exact engine's (a memory policy must have one long run).
  request.policy = model::make_hysteresis(3, 1, 4, 2, 4, 5, "policy.hysteresis");
  CHECK(request.is_valid(&why));
  std::vector<std::vector<int>> keep(6, std::vector<int>{1, 2, 3, 4});
  request.policy = model::make_memory(keep, 4, 5, "policy.memory");
  CHECK_THROWS_WITH(
      api::solve(request),
      Catch::StartsWith("policy.memory: the empty system with mode 1 in force never"));
}

TEST_CASE("solve through the request layer: the engine's numbers and the keys of solve --json",
          "[api]") {
  api::SolveRequest request = example_request();
  request.sojourn = true;
  request.transforms = {1.0};
  request.cdf_points = {2.0};
  const api::SolveResult result = api::solve(request);
  const analytic::PolicyEvaluator evaluator(request.model);
  const analytic::PolicyEvaluation direct =
      evaluator.evaluate(std::get<model::Policy>(request.policy));
  CHECK(result.evaluation.measures.cost == direct.measures.cost);
  CHECK(result.evaluation.measures.cost == Approx(63.5425).epsilon(1e-5));  // Table 1's optimum
  REQUIRE(result.sojourn);
  const analytic::SojournTimes laws = evaluator.sojourn_times(direct);
  CHECK((*result.sojourn)[1].mean == laws.mean(analytic::PageFate::kServed));
  CHECK(result.cdf.at(0)[1] == laws.cdf(analytic::PageFate::kServed, 2.0));

  const nlohmann::json j = api::to_json(request, result);
  for (const auto& measure : model::scalar_measures<double>())
    CHECK(j.at(std::string(measure.name.key)).get<double>() == direct.measures.*measure.field);
  CHECK(j.at("sojourn").at("served").at("mean").get<double>() ==
        laws.mean(analytic::PageFate::kServed));
  CHECK(j.at("transforms").at(0).at("u").get<double>() == 1.0);
  CHECK(j.at("cdf").at(0).at("x").get<double>() == 2.0);
}

TEST_CASE("a method that refuses the model is bad input naming the source", "[api]") {
  api::SolveRequest request = example_request();
  request.method = analytic::Method::kQbd;  // the example has batches
  try {
    (void)api::solve(request);
    FAIL("qbd took batches");
  } catch (const model::InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("paper-example-1.yaml: "));
  }
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("a cancelled solve or search stops with api::Cancelled, and runs when not cancelled",
          "[api][cancel]") {
  api::SolveRequest request = example_request();
  request.method = analytic::Method::kIterative;
  request.sojourn = true;
  api::Cancellation cancel{true};
  CHECK_THROWS_AS(api::solve(request, &cancel), api::Cancelled);
  // Checks come before work: a request that is refused is refused, cancelled or not.
  api::SolveRequest refused = request;
  refused.threads = -1;
  CHECK_THROWS_AS(api::solve(refused, &cancel), model::InputError);
  const api::OptimizeRequest search{.source = request.source, .model = request.model};
  CHECK_THROWS_AS(api::optimize(search, &cancel), api::Cancelled);
  cancel = false;
  CHECK(api::solve(request, &cancel).evaluation.stationary.summary.status ==
        analytic::SolverStatus::kConverged);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("describe through the request layer: counted states and the matrices the engines use",
          "[api]") {
  const api::SolveRequest example = example_request();
  const nlohmann::json j = api::describe({.model = example.model, .repairs = {}});
  CHECK(j.at("states").get<std::int64_t>() == 126);
  CHECK(j.at("modes").size() == 4);
  CHECK(j.at("modes").at(2).at("fundamental_rate").get<double>() ==
        example.model.arrivals.mode(3).fundamental_rate());
  CHECK(j.at("policy").at("levels") == std::vector<int>{3, 3, 3, 1, 1, 1});
  model::Model huge = example.model;
  huge.capacity = 5000;  // R^K states: far beyond a double, still counted
  CHECK(api::describe({.model = huge, .repairs = {}}).at("states").is_string());
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("simulate through the request layer: the simulator's numbers, any policy form",
          "[api][simulate]") {
  const api::SolveRequest example = example_request();
  api::SimulateRequest request{.source = "paper-example-1.yaml",
                               .model = example.model,
                               .policy = example.policy,
                               .settings = {.seed = 4,
                                            .replications = 3,
                                            .horizon = 300.0,
                                            .warmup = 10.0,
                                            .threads = 1,
                                            .precision = 0,
                                            .time_limit = 20},
                               .spread = nullptr,
                               .progress = nullptr};
  const api::SimulateResult result = api::simulate(request);
  const sim::LevelMapPolicy levels(std::get<model::Policy>(example.policy));
  const sim::SimulationSummary direct =
      sim::simulate(example.model, levels,
                    {.seed = 4, .replications = 3, .warmup = 10.0, .horizon = 300.0, .threads = 1});
  CHECK(result.summary.cost.mean == direct.cost.mean);
  CHECK(result.summary.p_loss.half_width == direct.p_loss.half_width);
  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("cost").at("mean").get<double>() == direct.cost.mean);
  CHECK(j.at("policy").at("levels") == std::vector<int>{3, 3, 3, 1, 1, 1});

  request.policy = model::make_hysteresis(3, 1, 4, 2, 4, 5, "policy.hysteresis");
  CHECK(api::to_json(request, api::simulate(request)).at("policy").at("kind") == "hysteresis");

  api::Cancellation cancel{true};  // nothing finishes: no interval to give
  CHECK_THROWS_AS(api::simulate(request, &cancel), model::InputError);
}

}  // namespace crawlq

namespace crawlq {

// The paper's first example, one thread, every other field at its default.
api::OptimizeRequest optimize_request(api::PolicyClass policy_class) {
  api::OptimizeRequest request{.source = "paper-example-1.yaml",
                               .model = example_request().model,
                               .export_policy = "",
                               .progress = nullptr};
  request.policy_class = policy_class;
  request.threads = 1;
  return request;
}

TEST_CASE("optimize through the request layer: Table 1's optimum and the keys of optimize --json",
          "[api][optimize]") {
  api::OptimizeRequest request = optimize_request(api::PolicyClass::kThresholds);
  request.search = analytic::Search::kExhaustive;
  const api::OptimizeResult result = api::optimize(request);
  const auto& search = std::get<analytic::ThresholdSearch>(result.search);
  CHECK(search.best.policy.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("best").at("cost").get<double>() == search.best.cost);
  CHECK(j.at("by_modes").size() == search.by_modes.size());
  CHECK(j.at("optimality") == "global");

  request.search = analytic::Search::kLocal;
  CHECK(api::to_json(request, api::optimize(request)).at("optimality") == "local");
  request.policy_class = api::PolicyClass::kLevels;
  std::string why;
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith("--search local"));
  CHECK_THROWS_AS(api::parse_policy_class("mdp"), model::InputError);
  request.policy_class = api::PolicyClass::kAll;
  request.search = analytic::Search::kAuto;
  request.export_policy = "best.yaml";
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith(
                      "--export-policy best.yaml: --class all finds one best policy per class"));
}

TEST_CASE(
    "optimize --class markov through the request layer: the full-state optimum and its certificate",
    "[api][optimize][markov]") {
  api::OptimizeRequest request = optimize_request(api::PolicyClass::kMarkov);
  // Sojourn weight 0: a certified global optimum, 16% below the best threshold policy (the figures
  // issue 15 gives from an independent brute force).
  request.model.costs.sojourn = 0;
  const nlohmann::json global = api::to_json(request, api::optimize(request));
  CHECK(global.at("class") == "markov");
  CHECK(global.at("optimality") == "global");
  CHECK(global.at("best").at("cost").get<double>() == Approx(50.2218).margin(5e-5));
  CHECK(global.at("threshold_best").at("cost").get<double>() == Approx(60.0944).margin(5e-5));
  CHECK(global.at("gap").get<double>() == Approx((60.0944 - 50.2218) / 60.0944).margin(1e-5));
  CHECK(global.at("lower_bound").get<double>() ==
        Approx(global.at("best").at("cost").get<double>()).epsilon(1e-9));
  CHECK(global.at("best").at("policy").at("table").is_null());
  // The paper's criterion: a heuristic's best, no worse than the phase-aware policy of the issue.
  request.model.costs.sojourn = 2;
  const nlohmann::json heuristic = api::to_json(request, api::optimize(request));
  CHECK(heuristic.at("optimality") == "heuristic");
  CHECK(heuristic.at("best").at("cost").get<double>() <= 53.9180);
  CHECK(heuristic.at("lower_bound").get<double>() < heuristic.at("best").at("cost").get<double>());
  CHECK(heuristic.at("candidates").size() > 1);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("validate through the request layer: both engines, or the simulator alone by name",
          "[api][validate]") {
  const api::SolveRequest example = example_request();
  api::ValidateRequest request{.source = "paper-example-1.yaml",
                               .model = example.model,
                               .policy = example.policy,
                               .settings = {.seed = 3,
                                            .replications = 4,
                                            .horizon = 2000.0,
                                            .warmup = 100.0,
                                            .threads = 1,
                                            .precision = 0,
                                            .time_limit = 20},
                               .simulated_model = std::nullopt,
                               .exact_absent = ""};
  const api::ValidateResult both = api::validate(request);
  CHECK(both.exact_absent.empty());
  CHECK(both.comparison.agrees());
  const nlohmann::json j = api::to_json(request, both);
  CHECK(j.at("exact_engine") == true);
  CHECK(j.at("measures").size() == both.comparison.measures.size());

  // A hysteresis policy on both engines; a chain the command line finds too large, the simulator
  // alone.
  request.policy = model::make_hysteresis(3, 1, 4, 2, 4, 5, "policy.hysteresis");
  const api::ValidateResult hysteresis = api::validate(request);
  CHECK(hysteresis.exact_absent.empty());
  CHECK(hysteresis.comparison.agrees());
  request.exact_absent = "its chain needs more memory than this machine has";
  const api::ValidateResult alone = api::validate(request);
  CHECK(alone.exact_absent == request.exact_absent);
  CHECK(api::to_json(request, alone).at("exact_engine") == false);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("refresh through the request layer: exact rates, the bound, and a simulation on request",
          "[api][refresh]") {
  const auto scenario = scenarios::load_refresh_scenario(
      std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/refresh-paper-example.yaml");
  api::RefreshRequest request{.source = "refresh-paper-example.yaml",
                              .model = scenario.model,
                              .simulate = false,
                              .seed = 3,
                              .replications = 4,
                              .horizon = 200.0,
                              .threads = 1};
  const api::RefreshResult exact = api::refresh(request);
  CHECK_FALSE(exact.simulated);
  CHECK(exact.analysis.cost >= exact.analysis.lower_bound.cost);
  const nlohmann::json j = api::to_json(request, exact);
  CHECK(j.at("cost").get<double>() == exact.analysis.cost);
  CHECK_FALSE(j.contains("simulated"));

  request.simulate = true;
  const api::RefreshResult simulated = api::refresh(request);
  REQUIRE(simulated.simulated);
  CHECK(api::to_json(request, simulated).at("simulated").at("replications") == 4);
  request.replications = 1;
  CHECK_THROWS_AS(api::refresh(request), model::InputError);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("sweep through the request layer: one row per value, checked before any solve",
          "[api][sweep]") {
  const api::SolveRequest example = example_request();
  api::SweepRequest request{.source = "paper-example-1.yaml",
                            .model = example.model,
                            .parameter = validation::SweepParameter::kCapacity,
                            .values = {4, 5},
                            .threads = 1};
  const std::vector<validation::SweepRow> rows = api::sweep(request);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].best.policy.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});  // Table 1 at K = 5
  const nlohmann::json j = api::to_json(request, rows);
  CHECK(j.at("param") == "capacity");
  CHECK(j.at("rows").at(1).at("value") == 5);
  CHECK(j.at("rows").at(1).at("cost").get<double>() == rows[1].measures.cost);
  request.values = {4, 0};
  std::string why;
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith("--values"));
  CHECK_THROWS_AS(api::sweep(request), model::InputError);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("reproduce through the request layer: the sections asked for, flagged rows counted",
          "[api][reproduce]") {
  api::ReproduceRequest request;
  request.threads = 1;
  request.quick = true;
  request.sections = {"refresh"};
  const api::ReproduceResult result = api::reproduce(request);
  REQUIRE_FALSE(result.reproduction.rows.empty());
  int flagged = 0;
  for (const auto& row : result.reproduction.rows) {
    CHECK(row.table.rfind("CLW", 0) == 0);  // the refresh paper's rows only
    flagged += !row.agrees;
  }
  CHECK(result.flagged == flagged);
  CHECK_FALSE(result.report);
  const nlohmann::json j = api::to_json(result);
  CHECK(j.at("rows").size() == result.reproduction.rows.size());
  CHECK(j.at("flagged") == flagged);
  CHECK(j.at("seed") == 1);

  request.sections = {"refresh", "tables2"};
  std::string why;
  CHECK_FALSE(request.is_valid(&why));
  CHECK_THAT(why, Catch::StartsWith("--sections: 'tables2'"));
  CHECK_THROWS_AS(api::reproduce(request), model::InputError);
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE("validate's summary counts each scenario once, simulated-only ones apart",
          "[api][validate]") {
  const auto result = [](std::vector<validation::Verdict> verdicts, std::string absent) {
    api::ValidateResult r;
    for (const validation::Verdict v : verdicts) {
      validation::MeasureVerdict m;
      m.name = "p_loss";
      m.verdict = v;
      r.comparison.measures.push_back(m);
    }
    r.exact_absent = std::move(absent);
    return r;
  };
  api::ValidateSummary summary;
  summary.count(result({validation::Verdict::kAgrees, validation::Verdict::kAgrees}, ""));
  summary.count(result({validation::Verdict::kAgrees, validation::Verdict::kDiffers}, ""));
  summary.count(result({validation::Verdict::kAgrees}, ""));
  // Past the exact engine nothing is judged: neither agreeing nor differing.
  summary.count(result({validation::Verdict::kSimulatedOnly}, "too large"));
  CHECK(summary.agree == 2);
  CHECK(summary.differ == 1);
  CHECK(summary.simulated_only == 1);
  CHECK_FALSE(summary.agrees());
  const nlohmann::json j = api::to_json(nlohmann::json::array({1, 2, 3, 4}), summary);
  CHECK(j.at("summary") == nlohmann::json{{"agree", 2}, {"differ", 1}, {"simulated_only", 1}});
  CHECK(j.at("agrees") == false);
  CHECK(j.at("scenarios").size() == 4);
  api::ValidateSummary only_simulated;
  only_simulated.count(result({validation::Verdict::kSimulatedOnly}, "too large"));
  CHECK(only_simulated.agrees());
  CHECK(only_simulated.agree == 0);
}

}  // namespace crawlq
