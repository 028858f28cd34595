// The simulator against the exact engine: the two share only model/, so their agreement is
// evidence. Every measure must lie within a Bonferroni-corrected Student bound: with m measures per
// model the bound is t_{1 - alpha/(2m), R-1} standard errors, alpha = 0.001 per model, so a correct
// simulator raises a false alarm on about one model in a thousand (the seeds are fixed, so a pass
// repeats).
#include <fmt/format.h>

#include <boost/math/distributions/students_t.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <set>

#include "analytic/control/policy_evaluation.hpp"
#include "random_models.hpp"
#include "scenarios/scenario_loader.hpp"
#include "shipped_scenarios.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"

using namespace crawlq;

namespace {

constexpr double kFamilyAlpha = 0.001;
constexpr int kReplications = 20;

struct Comparison {
  std::string name;
  double exact;
  sim::Interval simulated;
  bool conditional_on_rare_fate = false;
};

// The number of measures compared (those of a fate too rare to be normal left out).
int compare(const model::Model& m, const model::ControlPolicy& policy, std::uint64_t seed,
            const std::string& what) {
  const analytic::PolicyEvaluator evaluator(m);
  const auto exact = evaluator.evaluate(policy);
  // About 200,000 pages offered per replication.
  const double horizon = 2e5 / exact.measures.lambda;
  const std::unique_ptr<sim::Policy> sim_policy = sim::make_policy(policy);
  const auto s = sim::simulate(m, *sim_policy,
                               {.seed = seed,
                                .replications = kReplications,
                                .warmup = horizon / 10,
                                .horizon = horizon,
                                .threads = 0});
  const auto& e = exact.measures;
  // A conditional mean is estimated from the pages of that fate only; with few of them per
  // replication its law is far from normal, so it is compared only when there are many.
  const double obsolete_pages = e.p_obsolete * 2e5;
  std::vector<Comparison> rows;
  const auto& exact_list = model::scalar_measures<double>();
  const auto& simulated_list = model::scalar_measures<sim::Interval>();
  for (std::size_t i = 0; i < exact_list.size(); ++i)
    rows.push_back({std::string(exact_list[i].name.key), e.*exact_list[i].field,
                    s.*simulated_list[i].field,
                    exact_list[i].name.key == "mean_sojourn_obsolete" && obsolete_pages < 5000});
  // Quantiles of the served pages' sojourn against the exact phase-type law (uniformisation).
  const auto sojourn = evaluator.sojourn_times(exact);
  const double served_pages = e.p_served * 2e5;
  rows.push_back({"served median", sojourn.quantile(analytic::PageFate::kServed, 0.5),
                  s.served_median, served_pages < 5000});
  rows.push_back({"served 90%", sojourn.quantile(analytic::PageFate::kServed, 0.9), s.served_p90,
                  served_pages < 5000});
  rows.push_back({"served 99%", sojourn.quantile(analytic::PageFate::kServed, 0.99), s.served_p99,
                  served_pages < 20000});
  // The histogram of the served pages' sojourn against the exact density over each bin.
  const auto& edges = s.served_histogram.edges;
  for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
    const double exact_mass = sojourn.cdf(analytic::PageFate::kServed, edges[b + 1]) -
                              sojourn.cdf(analytic::PageFate::kServed, edges[b]);
    rows.push_back({fmt::format("served histogram bin {}", b),
                    exact_mass / (edges[b + 1] - edges[b]), s.served_histogram.density[b],
                    served_pages < 20000});
  }
  for (std::size_t i = 0; i < e.level_probabilities.size(); ++i)
    rows.push_back({fmt::format("level_probabilities[{}]", i), e.level_probabilities[i],
                    s.level_probabilities[i]});
  for (std::size_t r = 0; r < e.mode_probabilities.size(); ++r)
    rows.push_back({fmt::format("mode_probabilities[{}]", r), e.mode_probabilities[r],
                    s.mode_probabilities[r]});

  const boost::math::students_t t(kReplications - 1);
  const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));
  const double bound =
      boost::math::quantile(boost::math::complement(t, kFamilyAlpha / (2.0 * rows.size())));
  int compared = 0;
  for (const auto& row : rows) {
    if (row.conditional_on_rare_fate) continue;
    ++compared;
    const double standard_error = row.simulated.half_width / t95;
    INFO(what << ", seed " << seed << ": " << row.name << " exact " << row.exact << ", simulated "
              << row.simulated.mean << " +- " << row.simulated.half_width << " (bound "
              << bound * standard_error << ")");
    CHECK(std::abs(row.simulated.mean - row.exact) <=
          bound * standard_error + 1e-12 * (1 + std::abs(row.exact)));
  }
  return compared;
}

}  // namespace

TEST_CASE("simulator vs exact engine on every shipped scenario", "[sim][crosscheck]") {
  std::set<std::string> compared;
  for (const crosscheck::ShippedScenario& file : crosscheck::shipped_queue_scenarios()) {
    const auto scenario = scenarios::load_scenario(file.path);
    const model::Model& m = scenario.model;
    model::ControlPolicy policy = model::Policy::constant(m.modes(), m.modes(), m.capacity);
    if (m.policy)
      policy = *m.policy;
    else
      WARN(file.name << ": no policy in the file; simulated with every robot on");
    const int measures = compare(m, policy, 2026, file.name);
    // The scalar measures (one conditional mean may be left out), the levels and the modes.
    INFO(file.name << ": " << measures << " measures compared");
    CHECK(measures >= static_cast<int>(model::scalar_measures<double>().size()) - 1 + m.capacity +
                          1 + m.modes());
    compared.insert(file.name);
  }
  INFO("files compared: " << compared.size());
  CHECK(crosscheck::missing_scenarios(compared).empty());
  CHECK(compared.size() >= crosscheck::expected_queue_scenarios().size());
}

TEST_CASE("simulator vs exact engine on random models with any level map", "[sim][crosscheck]") {
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const model::Model m = crosscheck::random_model(seed);
    INFO(crosscheck::describe(m));
    compare(m, *m.level_map(), 100 + seed, fmt::format("random model {}", seed));
  }
}

TEST_CASE(
    "simulator vs exact engine on random phase-aware, memory, hysteresis and full-state policies",
    "[sim][crosscheck][policy]") {
  using crosscheck::PolicyForm;
  for (const auto form :
       {PolicyForm::kPhaseAware, PolicyForm::kMemory, PolicyForm::kHysteresis, PolicyForm::kTable})
    for (std::uint64_t seed = 21; seed <= 24; ++seed) {
      const model::Model m =
          crosscheck::random_model(seed, {.single_arrivals = false, .max_states = 400});
      const model::ControlPolicy policy = crosscheck::random_control_policy(m, seed, form);
      INFO(crosscheck::describe(m));
      compare(m, policy, 300 + seed,
              fmt::format("random model {}, {} policy", seed, model::policy_kind(policy)));
    }
}

TEST_CASE("simulator vs exact engine with laws drawn by their series and by their walk",
          "[sim][crosscheck]") {
  // The laws of tests/unit/sim/samplers_test.cpp, whose draws show which way each is drawn: a
  // Coxian law (its series) and a ring with complex eigenvalues (its walk), then a law whose moves
  // go round with real eigenvalues (its series) and a hyperexponential law (its walk).
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  const model::PhaseType coxian(
      (model::RowVector(3) << 1, 0, 0).finished(),
      (model::Matrix(3, 3) << -4, 3.6, 0, 0, -8, 7.2, 0, 0, -16).finished());
  const model::PhaseType ring(
      (model::RowVector(3) << 0.6, 0.4, 0).finished(),
      (model::Matrix(3, 3) << -30, 30, 0, 0, -30, 30, 29, 0, -30).finished());
  const model::PhaseType real_ring(
      (model::RowVector(3) << 0.5, 0.25, 0.25).finished(),
      (model::Matrix(3, 3) << -4, 2, 1, 0.4, -2, 0.6, 0, 4, -6).finished());
  const model::PhaseType hyperexponential(
      (model::RowVector(3) << 0.2, 0.3, 0.5).finished(),
      (model::Matrix(3, 3) << -0.2, 0, 0, 0, -0.44, 0, 0, 0, -0.9).finished());
  const std::pair<const model::PhaseType*, const model::PhaseType*> pairs[] = {
      {&coxian, &ring}, {&real_ring, &hyperexponential}};
  std::uint64_t seed = 500;
  for (const auto& [service, clock] : pairs) {
    model::Model m = scenario.model;
    m.service = *service;
    m.obsolescence = *clock;
    compare(m, *m.policy, ++seed,
            fmt::format("service of mean {}, clock of mean {}", service->mean(), clock->mean()));
  }
}

TEST_CASE("a simulated cost difference on common random numbers brackets the exact one",
          "[sim][crosscheck]") {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  const model::Model& m = scenario.model;
  const model::Policy a = model::Policy::from_levels({3, 3, 3, 1, 1, 1}, 4, 5);
  const model::Policy b = model::Policy::from_levels({4, 3, 3, 1, 1, 1}, 4, 5);
  const analytic::PolicyEvaluator evaluator(m);
  const double exact = evaluator.evaluate(b).measures.cost - evaluator.evaluate(a).measures.cost;
  const sim::LevelMapPolicy sim_a(a), sim_b(b);
  const auto c = sim::compare_policies(
      m, sim_a, sim_b,
      {.seed = 77, .replications = kReplications, .warmup = 2000, .horizon = 20000, .threads = 0});
  const boost::math::students_t t(kReplications - 1);
  const double ratio = boost::math::quantile(boost::math::complement(t, kFamilyAlpha / 2)) /
                       boost::math::quantile(boost::math::complement(t, 0.025));
  const sim::Interval& cost = c.difference.cost;
  INFO("exact " << exact << ", simulated " << cost.mean << " +- " << cost.half_width);
  CHECK(std::abs(cost.mean - exact) <= ratio * cost.half_width);
  CHECK(cost.mean - cost.half_width > 0);  // B is worse, and the comparison shows it
}
