// solve on a scenario with a rhythm: a flat rhythm is the stationary long run, every measure
// equal to solve's without it (scales 1) or to sweep's arrival-scale c (every scale c); the period
// averages are the pieces' averages weighted as counts; what a periodic long run does not compute
// yet is refused naming the field.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "analytic/control/policy_search.hpp"
#include "api/json_output.hpp"
#include "api/optimize_request.hpp"
#include "api/solve_request.hpp"
#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

api::SolveRequest request_for(const model::Model& model, bool sojourn = false) {
  return {.source = "paper-example-1", .model = model, .policy = *model.policy, .sojourn = sojourn};
}

model::Model paper() { return scenarios::load_scenario("paper-example-1").model; }

void check_same(const analytic::Measures& periodic, const analytic::Measures& stationary) {
  for (const auto& m : model::scalar_measures<double>()) {
    INFO(m.name.key << ": periodic " << periodic.*m.field << ", stationary "
                    << stationary.*m.field);
    CHECK_THAT(periodic.*m.field, Catch::Matchers::WithinRel(stationary.*m.field, 1e-9) ||
                                      Catch::Matchers::WithinAbs(stationary.*m.field, 1e-12));
  }
  for (std::size_t i = 0; i < stationary.level_probabilities.size(); ++i)
    CHECK_THAT(periodic.level_probabilities[i],
               Catch::Matchers::WithinAbs(stationary.level_probabilities[i], 1e-11));
  for (std::size_t r = 0; r < stationary.mode_probabilities.size(); ++r)
    CHECK_THAT(periodic.mode_probabilities[r],
               Catch::Matchers::WithinAbs(stationary.mode_probabilities[r], 1e-11));
}

}  // namespace

TEST_CASE("a flat rhythm: the periodic regime is the stationary one", "[api][rhythm]") {
  for (const double c : {1.0, 0.55, 1.8}) {
    INFO("every scale " << c);
    model::Model flat = paper();
    flat.rhythm = model::Rhythm{.period = 7.3, .scales = {c, c, c, c, c}};
    const api::SolveResult periodic = api::solve(request_for(flat, true));
    model::Model scaled = paper();
    scaled.arrivals = model::scaled_arrivals(scaled.arrivals, c);
    const api::SolveResult stationary = api::solve(request_for(scaled, true));
    REQUIRE(periodic.periodic);
    check_same(periodic.evaluation.measures, stationary.evaluation.measures);
    for (const analytic::PeriodicPiece& piece : periodic.periodic->pieces) {
      check_same(piece.measures, stationary.evaluation.measures);
      for (std::size_t i = 0; i < piece.level_probabilities_at_start.size(); ++i)
        CHECK_THAT(piece.level_probabilities_at_start[i],
                   Catch::Matchers::WithinAbs(stationary.evaluation.measures.level_probabilities[i],
                                              1e-11));
    }
    // The sojourn laws too: the pages of every piece find the same states.
    for (std::size_t f = 0; f < api::kFates.size(); ++f) {
      const api::FateLaw &a = (*periodic.sojourn)[f], &b = (*stationary.sojourn)[f];
      CHECK_THAT(a.mean, Catch::Matchers::WithinRel(b.mean, 1e-9));
      CHECK_THAT(a.sd, Catch::Matchers::WithinRel(b.sd, 1e-9));
      CHECK_THAT(*a.p90, Catch::Matchers::WithinRel(*b.p90, 1e-8));
    }
  }
}

TEST_CASE("a day's rhythm: the period's averages are the pieces' counts over the period's",
          "[api][rhythm]") {
  model::Model day = paper();
  day.rhythm = model::Rhythm{.period = 24, .scales = {0.6, 0.5, 0.5, 0.7, 1.0, 1.4, 1.6, 1.5}};
  const api::SolveRequest request = request_for(day);
  const api::SolveResult result = api::solve(request);
  REQUIRE(result.periodic);
  const analytic::PeriodicRegime& regime = *result.periodic;
  CHECK(regime.converged);
  CHECK(regime.residual <= 1e-11);
  double offered = 0, lost = 0, pages = 0;
  for (const analytic::PeriodicPiece& piece : regime.pieces) {
    offered += piece.offered;
    lost += piece.lost;
    pages += piece.measures.mean_in_system * piece.length;
    CHECK_THAT(piece.measures.p_loss + piece.served_by_arrival + piece.obsolete_by_arrival,
               Catch::Matchers::WithinAbs(1.0, 1e-12));
  }
  const analytic::Measures& m = result.evaluation.measures;
  CHECK_THAT(m.lambda, Catch::Matchers::WithinRel(offered / 24, 1e-12));
  CHECK_THAT(m.p_loss, Catch::Matchers::WithinRel(lost / offered, 1e-12));
  CHECK_THAT(m.p_loss + m.p_obsolete + m.p_served, Catch::Matchers::WithinAbs(1.0, 1e-9));
  // Little's law over the period, which the tagged page's chain does not use.
  CHECK_THAT(m.mean_sojourn, Catch::Matchers::WithinRel(pages / (offered - lost), 1e-9));
  // The busier pieces lose more: the rhythm is not averaged away.
  CHECK(regime.pieces[6].measures.p_loss > 1.5 * regime.pieces[1].measures.p_loss);

  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("rhythm").at("pieces") == 8);
  CHECK(j.at("rhythm").at("period") == 24.0);
  CHECK(j.at("rhythm").at("residual").get<double>() <= 1e-11);
  REQUIRE(j.at("pieces").size() == 8);
  CHECK(j.at("pieces")[3].at("start") == 9.0);
  for (const char* key : {"lambda", "p_loss", "p_obsolete", "p_served", "mean_in_system",
                          "mean_active_robots", "level_probabilities_at_start", "cost"})
    CHECK(j.at("pieces")[3].contains(key));
  CHECK(j.at("pieces")[3].at("level_probabilities_at_start").size() == 6);
}

TEST_CASE("a rhythm refuses what its long run does not compute, naming the field",
          "[api][rhythm]") {
  model::Model day = paper();
  day.rhythm = model::Rhythm{.period = 24, .scales = {0.5, 1.5}};
  api::SolveRequest request = request_for(day);
  request.times = {1.0, 2.0};
  CHECK_THROWS_WITH(api::solve(request), Catch::Contains("--times") && Catch::Contains("rhythm"));
  request.times.clear();
  request.sensitivity = true;
  request.caller = api::Caller::kPython;
  CHECK_THROWS_WITH(api::solve(request),
                    Catch::Contains("sensitivity") && Catch::Contains("rhythm"));
}

}  // namespace crawlq

namespace crawlq {

TEST_CASE(
    "optimize under a rhythm: the single vector is the least of every vector's periodic "
    "cost, and the per-piece vectors cost no more and solve back to their cost",
    "[api][rhythm]") {
  model::Model day = paper();
  day.capacity = 3;
  day.policy.reset();
  day.rhythm = model::Rhythm{.period = 10, .scales = {0.4, 1.7, 0.9}};
  const api::OptimizeRequest request{.source = "paper-example-1", .model = day, .threads = 2};
  const api::OptimizeResult result = api::optimize(request);
  const auto& search = std::get<analytic::PeriodicThresholdSearch>(result.search);
  CHECK(search.single_enumerated);
  // Every threshold vector solved on its own: the least is the search's single vector.
  double least = INFINITY;
  std::vector<int> least_at;
  for (int a = -1; a <= 3; ++a)
    for (int b = a; b <= 3; ++b)
      for (int c = b; c <= 3; ++c) {
        model::Model m = day;
        m.policy = model::Policy::from_thresholds({a, b, c}, 4, 3);
        const double cost = api::solve(request_for(m)).evaluation.measures.cost;
        if (cost < least) least = cost, least_at = {a, b, c};
      }
  CHECK(search.single == least_at);
  CHECK_THAT(search.single_cost, Catch::Matchers::WithinRel(least, 1e-9));
  CHECK(search.by_piece_cost <= search.single_cost);
  REQUIRE(search.by_piece.size() == 3);
  // The per-piece vectors as a scenario's policy by piece: solve gives the same cost.
  model::Model by_piece = day;
  for (const std::vector<int>& t : search.by_piece)
    by_piece.piece_policies.push_back(model::Policy::from_thresholds(t, 4, 3));
  by_piece.policy = by_piece.piece_policies.front();
  CHECK_THAT(api::solve(request_for(by_piece)).evaluation.measures.cost,
             Catch::Matchers::WithinRel(search.by_piece_cost, 1e-9));
  // No single piece's neighbour lowers the cost: a local optimum of the coordinate search.
  for (std::size_t piece = 0; piece < 3; ++piece)
    for (const std::vector<int>& t : analytic::threshold_neighbours(search.by_piece[piece], 3)) {
      model::Model moved = by_piece;
      moved.piece_policies[piece] = model::Policy::from_thresholds(t, 4, 3);
      CHECK(api::solve(request_for(moved)).evaluation.measures.cost >=
            search.by_piece_cost * (1 - 1e-9));
    }

  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("best").at("by_piece").size() == 3);
  CHECK(j.at("best").at("by_piece")[1].at("thresholds") == search.by_piece[1]);
  CHECK(j.at("best").at("cost") == search.by_piece_cost);
  CHECK(j.at("single").at("thresholds") == search.single);
  CHECK(j.at("single").at("cost") == search.single_cost);
}

TEST_CASE("optimize under a rhythm searches the thresholds class alone", "[api][rhythm]") {
  model::Model day = paper();
  day.rhythm = model::Rhythm{.period = 10, .scales = {0.4, 1.7}};
  const api::OptimizeRequest request{
      .source = "paper-example-1", .model = day, .policy_class = api::PolicyClass::kLevels};
  CHECK_THROWS_WITH(api::optimize(request),
                    Catch::Contains("--class levels") && Catch::Contains("rhythm"));
}

}  // namespace crawlq
