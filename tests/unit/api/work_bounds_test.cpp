// Work bounded before it starts, in the request layer every front end calls: a search beyond the
// budget refused with its count for every class and search, a long buffer refused with the capacity
// that fits, and an unconverged solve turned into advice on --method.
#include <catch2/catch.hpp>
#include <string>

#include "api/optimize_request.hpp"
#include "api/request_checks.hpp"
#include "api/solve_request.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

// `robots` Poisson robots (rates 0.01 r), exponential laws, K = 4: five states a policy.
model::Model many_robots(int robots) {
  std::string modes;
  for (int r = 1; r <= robots; ++r)
    modes += (r > 1 ? ", " : "") + std::string("{rate: ") + std::to_string(0.01 * r) + "}";
  return scenarios::parse_scenario(
             "capacity: 4\narrivals: {kind: poisson, modes: [" + modes +
                 "]}\nservice: {exponential: {rate: 2}}\nobsolescence: {exponential: {mean: 5}}\n"
                 "costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 0.01, starvation: 20}\n",
             "robots.yaml")
      .model;
}

api::OptimizeRequest request_for(const model::Model& model, api::PolicyClass policy_class,
                                 analytic::Search search) {
  return {.source = "robots.yaml",
          .model = model,
          .policy_class = policy_class,
          .search = search,
          .method = analytic::Method::kAuto,
          .max_maps = 1'000'000,
          .threads = 1,
          .starts = 1,
          .export_policy = "",
          .progress = nullptr};
}

}  // namespace

TEST_CASE(
    "optimize with 2,000 robots is refused with its count by every class and search, before any "
    "work",
    "[api][optimize][work]") {
  // The local search's grid alone was 2,001,000 vectors of 1,999 thresholds: std::bad_alloc at 8
  // GB.
  const model::Model m = many_robots(2000);
  for (api::PolicyClass c : api::policy_classes())
    for (analytic::Search s :
         {analytic::Search::kAuto, analytic::Search::kExhaustive, analytic::Search::kLocal}) {
      api::OptimizeRequest request = request_for(m, c, s);
      if (std::string why; !request.is_valid(&why))
        continue;  // local search of a class that has its own
      INFO(api::policy_class_name(c) << " " << analytic::search_name(s));
      try {
        (void)api::optimize(request);
        FAIL("searched 2,000 robots");
      } catch (const model::InputError& e) {
        CHECK_THAT(std::string(e.what()),
                   Catch::StartsWith("robots.yaml: ") && Catch::Contains("2000"));
      }
    }
}

TEST_CASE("optimize with a hundred robots still answers, by the local search",
          "[api][optimize][work]") {
  const api::OptimizeRequest request =
      request_for(many_robots(100), api::PolicyClass::kThresholds, analytic::Search::kAuto);
  const nlohmann::json j = api::to_json(request, api::optimize(request));
  CHECK(j.at("search") == "local");
  CHECK(j.at("policies_solved").get<double>() <=
        analytic::kMostSearchWork / analytic::kPolicyOverheadStates);
}

TEST_CASE("optimize on paper-real-data at capacity 100,000 is refused naming a capacity that fits",
          "[api][optimize][work]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-real-data.yaml").model;
  m.capacity = 100'000;
  api::OptimizeRequest request =
      request_for(m, api::PolicyClass::kThresholds, analytic::Search::kAuto);
  request.source = "real.yaml";
  CHECK_THROWS_WITH(api::optimize(request),
                    Catch::StartsWith("real.yaml: --class thresholds --search local (auto)") &&
                        Catch::Contains("capacity 100000") && Catch::Contains("or less fits"));
  // The capacity the message names passes the same check.
  try {
    (void)api::optimize(request);
  } catch (const model::InputError& e) {
    const std::string text = e.what();
    const auto at = text.find("a capacity of ") + std::string("a capacity of ").size();
    m.capacity = std::stoi(text.substr(at));
    CHECK(m.capacity > 1000);
    CHECK(analytic::least_threshold_work(m, analytic::Search::kAuto).work <=
          analytic::kMostSearchWork);
  }
  // An explicit enumeration is sent to the local search where that fits.
  m.capacity = 60;
  request = request_for(m, api::PolicyClass::kThresholds, analytic::Search::kExhaustive);
  CHECK_THROWS_WITH(api::optimize(request), Catch::Contains("--search exhaustive") &&
                                                Catch::Contains("give --search local"));
}

TEST_CASE("an unconverged solve of a valid model is bad input naming the --method that answers",
          "[api][solve][work]") {
  const model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  analytic::StationarySummary summary;
  summary.method = analytic::Method::kIterative;
  summary.message = "BiCGSTAB stopped after 5000 iterations at relative residual 0.00495";
  CHECK_THROWS_WITH(
      api::refuse_unconverged(m, "p.yaml", summary),
      Catch::StartsWith(
          "p.yaml: --method iterative: the stationary solve did not converge (BiCGSTAB") &&
          Catch::Contains("give --method sparse-lu or --method block-recursion"));
}

TEST_CASE("solve through the request layer checks the chain's memory itself",
          "[api][solve][work]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = 40;  // 2^41 states
  api::SolveRequest request{.source = "big.yaml",
                            .model = m,
                            .policy = model::Policy::constant(1, 4, 40),
                            .method = analytic::Method::kAuto,
                            .threads = 1,
                            .sojourn = false,
                            .transforms = {},
                            .cdf_points = {},
                            .full_chain = true};
  CHECK_THROWS_WITH(api::solve(request), Catch::StartsWith("big.yaml: capacity: 40 makes"));
}

}  // namespace crawlq
