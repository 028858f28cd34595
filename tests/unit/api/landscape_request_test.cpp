// The landscape as a request: each ordered cell is the cost solve gives that threshold vector, the
// unordered ones are empty, the best is the least cell; refusals name the field before any work;
// a cancelled landscape stops with api::Cancelled.
#include "api/landscape_request.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <string>

#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

api::LandscapeRequest paper_plane() {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  // Thresholds 1 and 2 vary through (-1, *, *); four modes, capacity 5.
  return {.source = "paper-example-1.yaml",
          .model = scenario.model,
          .thresholds = {-1, 2, 2},
          .axes = {1, 2}};
}

double solved_cost(const api::LandscapeRequest& request, std::vector<int> thresholds) {
  const api::SolveRequest solve{
      .source = request.source,
      .model = request.model,
      .policy = model::Policy::from_thresholds(thresholds, 4, request.model.capacity)};
  return api::solve(solve).evaluation.measures.cost;
}

}  // namespace

TEST_CASE("landscape: every ordered cell is solve's cost, the others empty, the best the least",
          "[api]") {
  const api::LandscapeRequest request = paper_plane();
  const api::LandscapeResult result = api::landscape(request);
  REQUIRE(result.values == std::vector<int>{-1, 0, 1, 2, 3, 4, 5});
  REQUIRE(result.cost.size() == 7);
  double least = std::numeric_limits<double>::infinity();
  int ordered = 0;
  for (std::size_t a = 0; a < 7; ++a) {
    REQUIRE(result.cost[a].size() == 7);
    for (std::size_t b = 0; b < 7; ++b) {
      const int j1 = result.values[a], j2 = result.values[b];
      INFO("thresholds -1, " << j1 << ", " << j2);
      CHECK(result.cost[a][b].has_value() == (j1 <= j2));
      if (!result.cost[a][b]) continue;
      ++ordered;
      least = std::min(least, *result.cost[a][b]);
    }
  }
  // Half the grid and its diagonal: 7 x 8 / 2 ordered pairs.
  CHECK(ordered == 28);
  CHECK(*result.cost[1][3] == Approx(solved_cost(request, {-1, 0, 2})).epsilon(1e-12));
  CHECK(*result.cost[3][3] == Approx(solved_cost(request, {-1, 2, 2})).epsilon(1e-12));
  REQUIRE(result.best);
  CHECK(result.best->second == least);
  CHECK(result.best->second == Approx(solved_cost(request, result.best->first)).epsilon(1e-12));
  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("axes") == nlohmann::json{1, 2});
  CHECK(j.at("cost").at(3).at(1).is_null());
  CHECK(j.at("best").at("cost") == result.best->second);
}

TEST_CASE("landscape: refusals name the field before any work, cancellation stops it", "[api]") {
  const auto refusal = [](const api::LandscapeRequest& request) {
    try {
      api::check(request);
    } catch (const model::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  api::LandscapeRequest request = paper_plane();
  request.axes = {1, 1};
  CHECK_THAT(refusal(request),
             Catch::StartsWith("axes: give two different thresholds from 0 to 2"));
  request.axes = {0, 3};
  CHECK_THAT(refusal(request), Catch::StartsWith("axes:"));
  request.axes = {0, 1};
  request.thresholds = {-1, 2};
  CHECK_THAT(refusal(request), Catch::StartsWith("thresholds: 2 values for 4 modes: give 3"));
  request.thresholds = {};  // all -1
  CHECK(refusal(request) == "(accepted)");
  // The paper's clock lumps (2 + 4 K states a solve): K = 400 is 81,000 solves of 1,602 states,
  // within the bound; K = 3,000 is not.
  request.model.capacity = 400;
  CHECK(refusal(request) == "(accepted)");
  request.model.capacity = 3000;
  CHECK_THAT(refusal(request), Catch::Contains("give a smaller capacity"));
  api::Cancellation cancel{true};
  CHECK_THROWS_AS(api::landscape(paper_plane(), &cancel), api::Cancelled);
}

TEST_CASE("landscape: the same plane on one thread and on three, side by side", "[api]") {
  api::LandscapeRequest request = paper_plane();
  request.model.capacity = 7;
  const nlohmann::json one = api::to_json(request, api::landscape(request));
  request.threads = 3;
  const nlohmann::json three = api::to_json(request, api::landscape(request));
  CHECK(one == three);
  CHECK(one.at("best").is_object());
  // Cancelled side by side as alone.
  api::Cancellation cancel{true};
  CHECK_THROWS_AS(api::landscape(request, &cancel), api::Cancelled);
}
