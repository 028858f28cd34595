// validate's exact side lumps the clock where its phases change no measure, as solve does: the
// same exact values as the chain with every phase, beside the same simulation; a capacity whose
// full chain no memory holds is then judged exactly; --full-chain keeps the phases.
#include <catch2/catch.hpp>
#include <string>

#include "api/validate_request.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/support/paper_example.hpp"

namespace crawlq {
namespace {

// The paper's first example at capacity K under a memory policy: its clock leaves both phases at
// 0.2.
model::Model paper_at(int capacity) {
  model::Model m = test_support::paper_example_at(capacity);
  m.policy = model::Policy::from_thresholds({-1, 2, 4}, m.modes(), m.capacity);
  return m;
}

api::ValidateRequest short_validation(const model::Model& m) {
  return {.source = "paper.yaml",
          .model = m,
          .policy = *m.policy,
          .settings = {.seed = 5,
                       .replications = 4,
                       .horizon = 3000,
                       .warmup = 50,
                       .threads = 1,
                       .precision = 0}};
}

// The two answers' measures pair one to one: the same simulation, the exact values equal.
void check_same_exact_values(const nlohmann::json& lumped, const nlohmann::json& full) {
  const nlohmann::json &a = lumped.at("measures"), &b = full.at("measures");
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(b[i].at("name") << (b[i].contains("t") ? " at t = " + b[i].at("t").dump() : ""));
    CHECK(a[i].at("name") == b[i].at("name"));
    CHECK(a[i].at("mean") == b[i].at("mean"));
    CHECK(a[i].at("verdict") == b[i].at("verdict"));
    CHECK_THAT(a[i].at("exact").get<double>(),
               Catch::Matchers::WithinRel(b[i].at("exact").get<double>(), 1e-9) ||
                   Catch::Matchers::WithinAbs(b[i].at("exact").get<double>(), 1e-13));
  }
}

}  // namespace

TEST_CASE("validate lumps the exact side: the full chain's exact values, the same simulation",
          "[api][lumping]") {
  api::ValidateRequest request = short_validation(paper_at(6));
  const nlohmann::json lumped = api::to_json(request, api::validate(request));
  request.settings.full_chain = true;
  const nlohmann::json full = api::to_json(request, api::validate(request));
  check_same_exact_values(lumped, full);
  // 2 (1 + 2 x 6) states without the clock's phases, 2 (1 + 2 x 63) with them.
  CHECK_THAT(lumped.at("lumping").get<std::string>(),
             Catch::Contains("rate 0.2 per unit time") && Catch::Contains("26 states of 254"));
  CHECK_FALSE(full.contains("lumping"));
}

TEST_CASE("validate counts the chain of the policy it validates, not the file's",
          "[api][lumping]") {
  // The file keeps its thresholds; a hysteresis policy given remembers one of 4 modes, so its
  // chain is 4 times the file's: 4 x 26 lumped, 4 x 254 with every clock phase, as solve counts.
  api::ValidateRequest request = short_validation(paper_at(6));
  request.policy = scenarios::parse_policy(
      R"({"hysteresis": {"high": 3, "low": 1, "switch_off": 4, "switch_on": 1}})", "policy",
      request.model, ".");
  const api::ValidateResult result = api::validate(request);
  REQUIRE(result.lumping);
  CHECK(result.lumping->states_solved == 104);
  CHECK(result.lumping->states_full == 1016);
  CHECK_THAT(api::to_json(request, result).at("lumping").get<std::string>(),
             Catch::Contains("104 states of 1016"));
}

TEST_CASE("validate --times lumps the exact transient as solve does", "[api][lumping]") {
  api::ValidateRequest request = short_validation(paper_at(5));
  request.settings.times = {0.5, 2.0};
  request.settings.from = analytic::TransientStart::kFull;
  request.settings.horizon.reset();
  request.settings.replications = 40;
  const nlohmann::json lumped = api::to_json(request, api::validate(request));
  request.settings.full_chain = true;
  const nlohmann::json full = api::to_json(request, api::validate(request));
  check_same_exact_values(lumped, full);
  CHECK_THAT(lumped.at("lumping").get<std::string>(), Catch::Contains("22 states of 126"));
  CHECK_FALSE(full.contains("lumping"));
}

TEST_CASE("validate judges exactly a capacity whose full chain no memory holds", "[api][lumping]") {
  const model::Model m = paper_at(30);
  // 2 (1 + 2 (2^30 - 1)) states with the clock's phases: about 800 GiB.
  api::ValidateRequest request = short_validation(m);
  CHECK(api::exact_engine_absence(m, *m.policy, request.settings).empty());
  validation::SimulationSettings full = request.settings;
  full.full_chain = true;
  CHECK_THAT(api::exact_engine_absence(m, *m.policy, full), Catch::Contains("capacity: 30"));
  // A transient from a policy file's long run starts from a vector over every state.
  validation::SimulationSettings from_file = request.settings;
  from_file.times = {1.0};
  from_file.from_file = "before.yaml";
  CHECK_THAT(api::exact_engine_absence(m, *m.policy, from_file), Catch::Contains("capacity: 30"));
  const api::ValidateResult result = api::validate(request);
  REQUIRE(result.lumping);
  CHECK(result.lumping->states_solved == 2 * (1 + 2 * 30));
  CHECK(result.comparison.agrees());
  // A few thousand pages see no loss at a full buffer of 30: the exact chance (about 1e-8) makes
  // that likely, which the verdict weighs, where a zero spread alone would call it a difference.
  bool loss_unseen = false;
  for (const validation::MeasureVerdict& v : result.comparison.measures)
    if (v.name == "p_loss") {
      REQUIRE(v.exact);
      CHECK(*v.exact > 0);
      CHECK(*v.exact < 1e-6);
      CHECK(v.simulated.mean == 0);
      loss_unseen = v.unseen && v.verdict == validation::Verdict::kAgrees;
    }
  CHECK(loss_unseen);
  const nlohmann::json j = api::to_json(request, result);
  CHECK(j.at("measures").at(1).at("name") == "p_loss");
  CHECK(j.at("measures").at(1).at("unseen") == true);
  CHECK(j.at("measures").at(1).at("z").is_null());
}

}  // namespace crawlq
