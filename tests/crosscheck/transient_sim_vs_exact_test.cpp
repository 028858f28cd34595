// The simulator's transients against the exact engine's, through the request layer as `validate
// --times` runs them: small random models of every policy form, from the empty and the full system
// and from the long run (reached by a warm-up in the simulator), with and without an outage of the
// indexer. Every key and every level's probability at every time must agree under the familywise
// verdict (validation/transient_comparison.hpp); the seeds are fixed, so a pass repeats. A
// simulator that ignored the outage, or an exact engine that started elsewhere, must be flagged.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "api/simulate_request.hpp"
#include "api/solve_request.hpp"
#include "api/validate_request.hpp"
#include "random_models.hpp"
#include "scenarios/policy_section.hpp"
#include "validation/transient_comparison.hpp"

namespace crawlq::crosscheck {
namespace {

using analytic::TransientStart;

// Times spread over the model's own pace: from a few arrivals to a few hundred.
std::vector<double> times_for(const model::Model& model) {
  double fastest = 0;
  for (int r = 1; r <= model.modes(); ++r)
    fastest = std::max(fastest, model.arrivals.mode(r).fundamental_rate());
  std::vector<double> times;
  for (const double arrivals : {0.5, 2.0, 6.0, 20.0, 60.0}) times.push_back(arrivals / fastest);
  return times;
}

validation::SimulationSettings settings_for(const model::Model& model, TransientStart from,
                                            double outage, std::uint64_t seed) {
  validation::SimulationSettings s;
  s.seed = seed;
  s.replications = 600;
  s.threads = 2;
  s.precision = 0;
  s.time_limit = 600;  // a bound on a runaway, never reached
  s.times = times_for(model);
  s.from = from;
  s.outage = outage;
  return s;
}

api::ValidateResult validate(const model::Model& model, const model::ControlPolicy& policy,
                             const validation::SimulationSettings& settings) {
  return api::validate(
      {.source = "random", .model = model, .policy = policy, .settings = settings});
}

void check_random(std::uint64_t first_seed, int count, PolicyForm form) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 250, .holding_cost = true});
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    const bool table = std::holds_alternative<model::TablePolicy>(policy);
    // A table starts full only in the exact engine (its mode there depends on every page's phase).
    const TransientStart from = seed % 3 == 0            ? TransientStart::kStationary
                                : seed % 3 == 1 || table ? TransientStart::kEmpty
                                                         : TransientStart::kFull;
    const double outage = seed % 2 == 0 ? times_for(model)[2] : 0.0;
    const api::ValidateResult result =
        validate(model, policy, settings_for(model, from, outage, seed));
    const validation::EngineComparison& c = result.comparison;
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << ", from "
                 << analytic::kTransientStartNames.name(from) << ", outage " << outage << "\n"
                 << describe(model));
    REQUIRE(result.exact_absent.empty());
    REQUIRE(c.measures.size() >= times_for(model).size() * (model::kTransientKeyCount - 4));
    for (const validation::MeasureVerdict& m : c.measures) {
      INFO(m.name << " at " << *m.t << ": exact " << *m.exact << ", simulated " << m.simulated.mean
                  << " +- " << m.simulated.half_width << ", z " << m.z);
      CHECK(m.verdict == validation::Verdict::kAgrees);
    }
  }
}

}  // namespace

TEST_CASE("simulated transients vs exact: level maps", "[crosscheck][transient][sim]") {
  check_random(1701, 9, PolicyForm::kLevels);
}

TEST_CASE("simulated transients vs exact: phase-aware, memory and hysteresis policies",
          "[crosscheck][transient][sim]") {
  check_random(1801, 4, PolicyForm::kPhaseAware);
  check_random(1811, 4, PolicyForm::kMemory);
  check_random(1821, 4, PolicyForm::kHysteresis);
}

TEST_CASE("simulated transients vs exact: full-state tables", "[crosscheck][transient][sim]") {
  check_random(1901, 4, PolicyForm::kTable);
}

TEST_CASE("simulated transients vs exact: from another policy's long run, through an outage",
          "[crosscheck][transient][sim]") {
  // The controller is asked again at the switch and at both ends of the outage: three boundaries,
  // all passed before the last time (the loop once read past them and ran on without end).
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / "crawlq-transient-switch-test";
  std::filesystem::create_directories(directory);
  for (const auto& [seed, form] : {std::pair{2101, PolicyForm::kLevels},
                                   {2102, PolicyForm::kHysteresis},
                                   {2103, PolicyForm::kTable}}) {
    const model::Model model = random_model(seed, {.max_states = 250, .holding_cost = true});
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    const std::string before = (directory / fmt::format("before-{}.json", seed)).string();
    std::ofstream(before) << scenarios::policy_section(
        random_control_policy(model, seed + 50, PolicyForm::kLevels));
    validation::SimulationSettings settings =
        settings_for(model, TransientStart::kStationary, times_for(model)[2], seed);
    settings.from_file = before;
    const api::ValidateResult result = validate(model, policy, settings);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    REQUIRE(result.exact_absent.empty());
    CHECK(result.comparison.replications == settings.replications);
    for (const validation::MeasureVerdict& m : result.comparison.measures) {
      INFO(m.name << " at " << *m.t << ": exact " << *m.exact << ", simulated " << m.simulated.mean
                  << " +- " << m.simulated.half_width << ", z " << m.z);
      CHECK(m.verdict == validation::Verdict::kAgrees);
    }
  }
  std::filesystem::remove_all(directory);
}

TEST_CASE("simulated transients: the verdict catches an outage ignored and a wrong start",
          "[crosscheck][transient][sim]") {
  const model::Model model = random_model(1703, {.max_states = 250, .holding_cost = true});
  const model::ControlPolicy policy = random_control_policy(model, 1703, PolicyForm::kLevels);
  const std::vector<double> times = times_for(model);
  const auto exact = [&](TransientStart from, double outage) {
    return *api::solve({.source = "random",
                        .model = model,
                        .policy = policy,
                        .times = times,
                        .from = from,
                        .outage = outage})
                .transient;
  };
  const auto simulated = [&](TransientStart from, double outage) {
    return *api::simulate({.source = "random",
                           .model = model,
                           .policy = policy,
                           .settings = settings_for(model, from, outage, 5)})
                .transient;
  };
  const double outage = times[3];
  const sim::TransientSimulation through_outage = simulated(TransientStart::kEmpty, outage);
  const analytic::TransientResult same = exact(TransientStart::kEmpty, outage);
  const analytic::TransientResult no_outage = exact(TransientStart::kEmpty, 0);
  const analytic::TransientResult full = exact(TransientStart::kFull, outage);
  CHECK(validation::compare_transients(&same, through_outage).agrees());
  CHECK_FALSE(validation::compare_transients(&no_outage, through_outage).agrees());
  CHECK_FALSE(validation::compare_transients(&full, through_outage).agrees());
}

}  // namespace crawlq::crosscheck
