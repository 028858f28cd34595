// The request layer lumps the clock where its phases change no answer asked for: the same numbers
// as the chain with every phase (which the crosschecks hold to the brute force), on fewer states,
// and it says so; where an answer needs the phases, it keeps them.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>

#include "api/optimize_request.hpp"
#include "api/solve_request.hpp"
#include "api/sweep_request.hpp"
#include "model/input_error.hpp"
#include "tests/support/paper_example.hpp"

namespace crawlq {
namespace {

// The paper's first example at K = 6 under a memory policy: its clock leaves both phases at 0.2.
model::Model paper_at_6() {
  model::Model m = test_support::paper_example_at(6);
  m.policy = model::Policy::from_thresholds({-1, 2, 4}, m.modes(), m.capacity);
  return m;
}

api::SolveRequest everything_asked(const model::Model& m) {
  return {.source = "paper-6.yaml",
          .model = m,
          .policy = *m.policy,
          .threads = 1,
          .sojourn = true,
          .transforms = {0.7},
          .cdf_points = {0.4, 3.0},
          .times = {0.5, 2.0},
          .from = analytic::TransientStart::kFull,
          .outage = 0.3,
          .drain_to = 2,
          .sensitivity = true};
}

// Every number of two answers, walked key by key; the solver's own keys (its states, iterations,
// residual and times) differ by design.
void check_same_numbers(const nlohmann::json& lumped, const nlohmann::json& full,
                        const std::string& path = "") {
  static const std::set<std::string> kSolverKeys{"states",           "states_solved", "iterations",
                                                 "residual",         "method",        "lumping",
                                                 "truncation_error", "products"};
  if (full.is_object()) {
    for (const auto& [key, value] : full.items()) {
      if (kSolverKeys.count(key) || key.starts_with("seconds")) continue;
      INFO(path + "." + key);
      REQUIRE(lumped.contains(key));
      check_same_numbers(lumped.at(key), value, path + "." + key);
    }
  } else if (full.is_array()) {
    REQUIRE(lumped.size() == full.size());
    for (std::size_t i = 0; i < full.size(); ++i)
      check_same_numbers(lumped[i], full[i], path + "[" + std::to_string(i) + "]");
  } else if (full.is_number_float()) {
    INFO(path);
    CHECK_THAT(lumped.get<double>(), Catch::Matchers::WithinRel(full.get<double>(), 1e-9) ||
                                         Catch::Matchers::WithinAbs(full.get<double>(), 1e-13));
  } else {
    INFO(path);
    CHECK(lumped == full);
  }
}

TEST_CASE("solve lumps a clock whose phases exit at one rate: the full chain's every number",
          "[api][lumping]") {
  const model::Model m = paper_at_6();
  api::SolveRequest request = everything_asked(m);
  const nlohmann::json lumped = api::to_json(request, api::solve(request));
  request.full_chain = true;
  const nlohmann::json full = api::to_json(request, api::solve(request));
  // W (1 + M (1 + 2 + ... + 2^5)) = 2 (1 + 2 x 63) with every phase; 2 (1 + 2 x 6) without.
  CHECK(full.at("states") == 254);
  CHECK(full.at("states_solved") == 254);
  CHECK_FALSE(full.contains("lumping"));
  CHECK(lumped.at("states") == 254);
  CHECK(lumped.at("states_solved") == 26);
  CHECK_THAT(lumped.at("lumping").get<std::string>(),
             Catch::Contains("rate 0.2 per unit time") && Catch::Contains("26 states of 254"));
  CHECK(api::check(request).states == 254);
  check_same_numbers(lumped, full);
}

TEST_CASE("solve lumps under a rhythm too: the periodic regime of the full chain",
          "[api][lumping]") {
  model::Model m = paper_at_6();
  m.rhythm = model::Rhythm{.period = 12, .scales = {0.5, 1.6, 0.9}};
  api::SolveRequest request{.source = "paper-6-day.yaml", .model = m, .policy = *m.policy};
  request.sojourn = true;
  const nlohmann::json lumped = api::to_json(request, api::solve(request));
  request.full_chain = true;
  const nlohmann::json full = api::to_json(request, api::solve(request));
  CHECK(lumped.at("states_solved") == 26);
  check_same_numbers(lumped, full);
}

TEST_CASE("solve: a full chain beyond a double's range is counted as text, never null",
          "[api][lumping]") {
  model::Model m = paper_at_6();
  m.capacity = 2000;  // 2 (1 + 2 (2^2000 - 1)) states with every phase: about 4.6e602
  m.policy = model::Policy::constant(2, m.modes(), m.capacity);
  const api::SolveRequest request{.source = "paper-2000.yaml", .model = m, .policy = *m.policy};
  const nlohmann::json j = api::to_json(request, api::solve(request));
  CHECK(j.at("states") == "4.6e602");
  CHECK(j.at("states_solved") == 8002);
  CHECK_THAT(j.at("lumping").get<std::string>(), Catch::Contains("8002 states of 4.6e602"));
}

TEST_CASE("solve keeps the clock's phases where an answer needs them", "[api][lumping]") {
  const model::Model m = paper_at_6();
  api::SolveRequest rates{.source = "paper-6.yaml", .model = m, .policy = *m.policy};
  rates.sensitivity_rates = true;  // a derivative by each phase's rates
  const nlohmann::json by_rate = api::to_json(rates, api::solve(rates));
  CHECK(by_rate.at("states_solved") == 254);
  CHECK_FALSE(by_rate.contains("lumping"));
  // A clock whose phases exit at 0.2 and 0.5: nothing to lump.
  model::Model unequal = m;
  unequal.obsolescence =
      model::PhaseType(model::RowVector{{0.3, 0.7}}, model::Matrix{{-0.6, 0.4}, {0.1, -0.6}});
  const api::SolveRequest plain{.source = "unequal.yaml", .model = unequal, .policy = *m.policy};
  const nlohmann::json j = api::to_json(plain, api::solve(plain));
  CHECK(j.at("states_solved") == 254);
  CHECK_FALSE(j.contains("lumping"));
}

TEST_CASE("optimize lumps the clock too: the same best policy and costs", "[api][lumping]") {
  const model::Model m = paper_at_6();
  api::OptimizeRequest request{.source = "paper-6.yaml", .model = m, .threads = 1};
  const nlohmann::json lumped = api::to_json(request, api::optimize(request));
  request.full_chain = true;
  const nlohmann::json full = api::to_json(request, api::optimize(request));
  CHECK_THAT(lumped.at("lumping").get<std::string>(), Catch::Contains("rate 0.2"));
  CHECK_FALSE(full.contains("lumping"));
  check_same_numbers(lumped, full);
  // Markov policies are tables over every state, clock phases included: never lumped.
  request.full_chain = false;
  request.policy_class = api::PolicyClass::kMarkov;
  request.threads = 1;
  CHECK_FALSE(api::to_json(request, api::optimize(request)).contains("lumping"));
}

TEST_CASE("sweep lumps the clock too: the same rows, at every value", "[api][lumping]") {
  const model::Model m = paper_at_6();
  // The clock scaled keeps its phases' one exit rate; a capacity changes the chain itself.
  for (const auto& [parameter, values] :
       {std::pair{validation::SweepParameter::kObsolescenceScale, std::vector<double>{0.4, 2.5}},
        std::pair{validation::SweepParameter::kCapacity, std::vector<double>{3, 7}}}) {
    api::SweepRequest request{.source = "paper-6.yaml",
                              .model = m,
                              .parameter = parameter,
                              .values = values,
                              .threads = 1};
    request.policy_class = "levels";
    const nlohmann::json lumped = api::to_json(request, api::sweep(request));
    request.full_chain = true;
    const nlohmann::json full = api::to_json(request, api::sweep(request));
    CHECK_THAT(lumped.at("lumping").get<std::string>(), Catch::Contains("rate 0.2"));
    CHECK_FALSE(full.contains("lumping"));
    check_same_numbers(lumped, full);
  }
  // Lumped, K = 60 is 242 states a solve; with every phase, 2^61 states, refused.
  api::SweepRequest large{.source = "paper-6.yaml",
                          .model = m,
                          .parameter = validation::SweepParameter::kCapacity,
                          .values = {60},
                          .threads = 1};
  CHECK(std::isfinite(api::sweep(large).at(0).best.cost));
  large.full_chain = true;
  CHECK_THROWS_AS(api::check(large), model::InputError);
}

}  // namespace
}  // namespace crawlq
