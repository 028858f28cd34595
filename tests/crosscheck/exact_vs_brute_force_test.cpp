// The exact engine (analytic/: the Lemma's blocks and the solvers of sections 3 and 6, measures of
// section 4, sojourn times of section 5) against the brute force of brute_force_chain.hpp, which
// applies the model's rules state by state. Same body for every solver method and every model.
#include <catch2/catch.hpp>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "analytic/stationary/state_space.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "tests/crosscheck/shipped_scenarios.hpp"

namespace crawlq::crosscheck {
namespace {

using analytic::Method;
using analytic::PageFate;

constexpr double kRelative = 1e-9;
constexpr double kAbsolute = 1e-12;  // floor for values that are zero or nearly so

void check_close(const std::string& what, double engine, double brute) {
  INFO(what << ": engine " << engine << ", brute force " << brute);
  CHECK_THAT(engine, Catch::Matchers::WithinRel(brute, kRelative) ||
                         Catch::Matchers::WithinAbs(brute, kAbsolute));
}

// The engine's state for a brute-force state: clocks of pages that never expire are phase 0 in
// both; with memory the mode in force is part of the environment.
analytic::StateSpace::State engine_state(const analytic::ControlledArrivals& arrivals,
                                         const ChainState& s) {
  return {.level = s.level,
          .arrival_phase = arrivals.environment_phase(s.robots, s.arrival_phase),
          .service_phase = s.service_phase,
          .clock_phases = s.clocks};
}

void compare_probabilities(const analytic::StateSpace& space,
                           const analytic::ControlledArrivals& arrivals,
                           const BruteForceChain& chain, const Eigen::VectorXd& p) {
  REQUIRE(space.size() == chain.size());
  REQUIRE(p.size() == chain.size());
  // One check for the whole vector, naming the worst entry, keeps a failure report readable.
  Eigen::Index worst = -1;
  double worst_excess = 0;
  for (Eigen::Index s = 0; s < chain.size(); ++s) {
    const double brute = chain.probabilities()(s);
    const double engine = p(space.index(engine_state(arrivals, chain.states()[s])));
    const double excess =
        std::abs(engine - brute) / std::max(kAbsolute, kRelative * std::abs(brute));
    if (excess > worst_excess) {
      worst_excess = excess;
      worst = s;
    }
  }
  if (worst_excess > 1) {
    const ChainState& s = chain.states()[worst];
    std::string clocks;
    for (int r : s.clocks) clocks += std::to_string(r) + " ";
    INFO("worst entry: level " << s.level << ", nu " << s.arrival_phase << ", m " << s.service_phase
                               << ", clocks " << clocks);
    check_close("p entry", p(space.index(engine_state(arrivals, s))), chain.probabilities()(worst));
  }
  CHECK(worst_excess <= 1);
}

void compare_measures(const analytic::Measures& engine, const ChainMeasures& brute) {
  check_close("lambda", engine.lambda, brute.lambda);
  check_close("p_loss", engine.p_loss, brute.p_loss);
  check_close("p_obsolete", engine.p_obsolete, brute.p_obsolete);
  check_close("p_served", engine.p_served, brute.p_served);
  check_close("p_starvation", engine.p_starvation, brute.p_starvation);
  check_close("mean_active_robots", engine.mean_active_robots, brute.mean_active_robots);
  check_close("mean_in_system", engine.mean_in_system, brute.mean_in_system);
  check_close("mean_in_queue", engine.mean_in_queue, brute.mean_in_queue);
  REQUIRE(engine.level_probabilities.size() == brute.level_probabilities.size());
  for (std::size_t i = 0; i < brute.level_probabilities.size(); ++i)
    check_close("level_probabilities[" + std::to_string(i) + "]", engine.level_probabilities[i],
                brute.level_probabilities[i]);
  REQUIRE(engine.mode_probabilities.size() == brute.mode_probabilities.size());
  for (std::size_t r = 0; r < brute.mode_probabilities.size(); ++r)
    check_close("mode_probabilities[" + std::to_string(r) + "]", engine.mode_probabilities[r],
                brute.mode_probabilities[r]);
}

struct FateCase {
  PageFate engine;
  Fate brute;
  const char* name;
};
constexpr FateCase kFates[] = {{PageFate::kAccepted, Fate::kAccepted, "accepted"},
                               {PageFate::kServed, Fate::kServed, "served"},
                               {PageFate::kObsolete, Fate::kObsolete, "obsolete"}};

// The distribution functions by `method`, and the quantiles they give, against the brute force's
// dense exponential.
void compare_laws(analytic::SojournTimes engine, analytic::LawMethod method,
                  const BruteForceSojourn& brute) {
  INFO("distribution functions by " << analytic::law_method_name(method));
  engine.set_law_method(method);
  REQUIRE(engine.law_method() == method);
  const double scale = brute.mean(Fate::kAccepted);
  for (const FateCase& fate : kFates) {
    const std::string name = fate.name;
    if (brute.probability(fate.brute) <= 0) continue;  // no law to compare
    for (double x : {0.25 * scale, scale, 3.0 * scale})
      check_close("cdf(" + name + ", " + std::to_string(x) + ")", engine.cdf(fate.engine, x),
                  brute.cdf(fate.brute, x));
    // A quantile is where the brute force's distribution function reaches its level.
    for (double level : {0.5, 0.9})
      CHECK_THAT(brute.cdf(fate.brute, engine.quantile(fate.engine, level)),
                 Catch::Matchers::WithinAbs(level, 1e-9));
  }
}

void compare_sojourn(const analytic::PolicyEvaluation& evaluation,
                     const analytic::SojournTimes& engine, const BruteForceSojourn& brute) {
  check_close("mean_sojourn", evaluation.measures.mean_sojourn, brute.mean(Fate::kAccepted));
  check_close("mean_sojourn_served", evaluation.measures.mean_sojourn_served,
              brute.mean(Fate::kServed));
  check_close("mean_sojourn_obsolete", evaluation.measures.mean_sojourn_obsolete,
              brute.mean(Fate::kObsolete));
  const double scale = brute.mean(Fate::kAccepted);
  for (const FateCase& fate : kFates) {
    const std::string name = fate.name;
    check_close("probability(" + name + ")", engine.probability(fate.engine),
                brute.probability(fate.brute));
    check_close("mean(" + name + ")", engine.mean(fate.engine), brute.mean(fate.brute));
    if (brute.probability(fate.brute) <= 0) continue;  // no law to compare
    check_close("sd(" + name + ")", engine.standard_deviation(fate.engine),
                brute.standard_deviation(fate.brute));
    for (double u : {0.5 / scale, 4.0 / scale})
      check_close("transform(" + name + ", " + std::to_string(u) + ")",
                  engine.transform(fate.engine, u), brute.transform(fate.brute, u));
  }
}

// Every method that takes the model must agree with the brute force; QBD must refuse batches.
void compare_with_brute_force(const model::Model& model, const model::ControlPolicy& policy) {
  const BruteForceChain chain(model, policy);
  const BruteForceSojourn sojourn(model, chain);
  const double brute_cost =
      brute_force_cost(model.costs, chain.measures(), sojourn.mean(Fate::kServed));
  // A table is solved on the chain of section 3 as it is numbered (full_state_chain.hpp), by its
  // own solver whatever the method.
  const bool table = std::holds_alternative<model::TablePolicy>(policy);
  const analytic::ControlledArrivals arrivals(
      model, table ? model::ControlPolicy(model::Policy::constant(1, model.modes(), model.capacity))
                   : policy);
  const analytic::StateSpace space(model, arrivals.phases());
  const bool single_arrivals = model.arrivals.max_batch() == 1;
  // Every registered solver, and auto.
  std::vector<Method> methods{Method::kAuto};
  if (!table)
    for (const auto& solver : analytic::registered_solvers()) methods.push_back(solver.method);
  for (Method method : methods) {
    INFO("method " << analytic::method_name(method));
    const analytic::PolicyEvaluator evaluator(model, method);
    if (!analytic::registration(method, model).refusal(model).empty()) {
      CHECK_THROWS_AS(evaluator.evaluate(policy), std::invalid_argument);
      continue;
    }
    if (method == Method::kQbd) CHECK(single_arrivals);
    const analytic::PolicyEvaluation evaluation = evaluator.evaluate(policy);
    CHECK(evaluation.stationary.summary.status == analytic::SolverStatus::kConverged);
    if (method != Method::kAuto) CHECK(evaluation.stationary.summary.method == method);
    compare_probabilities(space, arrivals, chain, evaluation.stationary.probabilities);
    compare_measures(evaluation.measures, chain.measures());
    compare_sojourn(evaluation, evaluator.sojourn_times(evaluation), sojourn);
    // The laws depend on the stationary vector only through where a page starts: one solver's
    // suffices for both ways of computing them.
    if (method == Method::kAuto)
      for (analytic::LawMethod law :
           {analytic::LawMethod::kUniformisation, analytic::LawMethod::kKrylov})
        compare_laws(evaluator.sojourn_times(evaluation), law, sojourn);
    check_close("cost", evaluation.measures.cost, brute_cost);
  }
}

void compare_random_models(std::uint64_t first_seed, int count, bool single_arrivals) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    const model::Model model =
        random_model(seed, {.single_arrivals = single_arrivals, .holding_cost = true});
    INFO("seed " << seed << "\n" << describe(model));
    compare_with_brute_force(model, *model.level_map());
  }
}

TEST_CASE("exact engine vs brute force: random models with batches", "[crosscheck]") {
  compare_random_models(1, 70, false);
}

TEST_CASE("exact engine vs brute force: random models with single arrivals", "[crosscheck]") {
  compare_random_models(5001, 30, true);
}

// Beyond level maps: each form's rule written state by state in the brute force, against the
// engine's controlled arrival process (controlled_arrivals.hpp), with every solver.
void compare_random_policies(std::uint64_t first_seed, int count, PolicyForm form) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    const model::Model model = random_model(
        seed, {.single_arrivals = seed % 4 == 0, .max_states = 500, .holding_cost = true});
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    compare_with_brute_force(model, policy);
  }
}

TEST_CASE("exact engine vs brute force: phase-aware policies on random models",
          "[crosscheck][policy]") {
  compare_random_policies(301, 30, PolicyForm::kPhaseAware);
}

TEST_CASE("exact engine vs brute force: memory and hysteresis policies on random models",
          "[crosscheck][policy]") {
  compare_random_policies(401, 25, PolicyForm::kMemory);
  compare_random_policies(501, 15, PolicyForm::kHysteresis);
}

// A clock whose every phase exits at one rate: the engine solves the lumped chain (one clock
// phase), the brute force the chain with every phase, written from the model's rules as ever.
void compare_lumped(const model::Model& model, const model::ControlPolicy& policy) {
  const std::optional<model::Model> lumped = analytic::lumped_clock_model(model, policy);
  REQUIRE(lumped);
  REQUIRE(lumped->obsolescence->phases() == 1);
  CHECK_THAT(lumped->obsolescence->exit_rates()(0),
             Catch::Matchers::WithinRel(model.obsolescence->exit_rates().minCoeff(), 1e-12));
  const BruteForceChain chain(model, policy);
  const BruteForceSojourn sojourn(model, chain);
  const analytic::PolicyEvaluator evaluator(*lumped);
  const analytic::PolicyEvaluation evaluation = evaluator.evaluate(policy);
  CHECK(evaluation.stationary.probabilities.size() < chain.size());
  compare_measures(evaluation.measures, chain.measures());
  compare_sojourn(evaluation, evaluator.sojourn_times(evaluation), sojourn);
  compare_laws(evaluator.sojourn_times(evaluation), analytic::LawMethod::kKrylov, sojourn);
  check_close("cost", evaluation.measures.cost,
              brute_force_cost(model.costs, chain.measures(), sojourn.mean(Fate::kServed)));
}

TEST_CASE("exact engine vs brute force: a clock whose phases exit at one rate, solved lumped",
          "[crosscheck][lumping]") {
  constexpr PolicyForm kForms[] = {PolicyForm::kLevels, PolicyForm::kPhaseAware,
                                   PolicyForm::kMemory, PolicyForm::kHysteresis};
  for (std::uint64_t seed = 801; seed < 841; ++seed) {
    const model::Model model = random_lumpable_model(seed, 600);
    const model::ControlPolicy policy = random_control_policy(model, seed, kForms[seed % 4]);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    compare_lumped(model, policy);
    // A table names the clock's phases: never lumped.
    CHECK_FALSE(analytic::lumped_clock_model(
        model, random_control_policy(model, seed, PolicyForm::kTable)));
  }
}

TEST_CASE("exact engine vs brute force: full-state tables on random models",
          "[crosscheck][policy]") {
  compare_random_policies(601, 30, PolicyForm::kTable);
}

TEST_CASE(
    "exact engine vs brute force: the paper's example at K = 8, where the tagged page's blocks take Schur forms",
    "[crosscheck][heavy]") {
  // With 6 pages ahead its block has 2 x 2^7 = 256 states: past the dense limit of 64, so the
  // moments and transforms go through Kronecker-sum solves, the distribution through the operator.
  model::Model model = scenarios::load_scenario(std::filesystem::path(CRAWLQ_SOURCE_DIR) /
                                                "scenarios/data/paper-example-1.yaml")
                           .model;
  model.capacity = 8;
  REQUIRE(analytic::TaggedPageChain(model).max_pages_ahead() == 6);
  compare_with_brute_force(
      model, model::Policy::from_thresholds({-1, 2, 5}, model.modes(), model.capacity));
}

TEST_CASE(
    "exact engine vs brute force: a service phase 10^6 times faster than the sojourn, its laws by Krylov steps",
    "[crosscheck]") {
  // Uniformisation would take about 2 x 10^6 products per unit of time: the automatic choice
  // takes Krylov steps, which once the fast phase has settled span far more than its 1 / q.
  const model::Model model = scenarios::parse_scenario(R"(capacity: 4
admission: partial
arrivals: {kind: per-mode, modes: [{D: [[[-1.3, 0.4], [0.2, -0.9]], [[0.5, 0.4], [0.3, 0.4]]]},
                                   {D: [[[-2.6, 0.7], [0.5, -1.9]], [[1.1, 0.8], [0.6, 0.8]]]}]}
service: {beta: [0.45, 0.35, 0.2], S: [[-2.1e6, 1.3e6, 0], [0, -0.83, 0.41], [0, 0, -1.7]]}
obsolescence: {gamma: [0.65, 0.35], Gamma: [[-0.31, 0.12], [0.05, -0.47]]}
)",
                                                       "stiff")
                                 .model;
  const model::ControlPolicy policy =
      model::Policy::from_thresholds({1}, model.modes(), model.capacity);
  const BruteForceChain chain(model, policy);
  const BruteForceSojourn sojourn(model, chain);
  const analytic::PolicyEvaluator evaluator(model);
  const analytic::PolicyEvaluation evaluation = evaluator.evaluate(policy);
  CHECK(evaluator.sojourn_times(evaluation).law_method() == analytic::LawMethod::kKrylov);
  compare_sojourn(evaluation, evaluator.sojourn_times(evaluation), sojourn);
  compare_laws(evaluator.sojourn_times(evaluation), analytic::LawMethod::kKrylov, sojourn);
}

// The brute force's dense generator: larger chains are compared at a smaller capacity.
constexpr long kBruteForceStates = 1500;

TEST_CASE("exact engine vs brute force: the scenario files", "[crosscheck]") {
  std::set<std::string> compared;
  int comparisons = 0, in_part = 0;
  for (const ShippedScenario& file : shipped_queue_scenarios()) {
    model::Model model = scenarios::load_scenario(file.path).model;
    const int capacity = model.capacity;
    const long per_mode = model.policy && model.policy->index() >= 2 ? model.modes() : 1;
    while (model.capacity > 1 && chain_size(model) * per_mode > kBruteForceStates) --model.capacity;
    INFO(file.name << "\n" << describe(model));
    if (model.capacity < capacity) {
      // Its own policy is written for its own capacity: the structure (phases, batches, modes,
      // admission) is still compared, under every constant policy.
      WARN(file.name << ": K = " << capacity << " is past the brute force's " << kBruteForceStates
                     << " states; compared at K = " << model.capacity
                     << " under constant policies only");
      model.policy.reset();
      ++in_part;
    } else if (model.policy) {
      compare_with_brute_force(model, *model.policy);
      ++comparisons;
    } else {
      WARN(file.name << ": no policy in the file; compared under constant policies only");
      ++in_part;
    }
    // Constant policies too: every mode of the file is then exercised at every level.
    for (int robots = 1; robots <= model.modes(); ++robots) {
      INFO("constant policy with " << robots << " robots");
      compare_with_brute_force(model,
                               model::Policy::constant(robots, model.modes(), model.capacity));
      ++comparisons;
    }
    compared.insert(file.name);
  }
  if (in_part > 0)
    WARN(in_part << " of " << compared.size()
                 << " scenario files compared without their own policy");
  INFO("files compared: " << compared.size() << ", policies: " << comparisons);
  CHECK(missing_scenarios(compared).empty());
  CHECK(compared.size() >= expected_queue_scenarios().size());
  // Today every file fits whole: its own policy and one constant policy per mode, 4 + (4 + 4 + 2 +
  // 2).
  CHECK(comparisons >= 16);
}

TEST_CASE("exact engine vs brute force: paper-real-data's structure at its own capacity",
          "[crosscheck]") {
  // Rates of 1e-3 to 1e-6, batches up to 8, four scaled modes, a two-phase service of very unequal
  // rates: the brute force takes its K = 20 chain whole (82 states), so its own policy is compared.
  const model::Model model = scenarios::load_scenario(std::filesystem::path(CRAWLQ_SOURCE_DIR) /
                                                      "scenarios/data/paper-real-data.yaml")
                                 .model;
  REQUIRE(model.policy);
  REQUIRE(chain_size(model) <= kBruteForceStates);
  REQUIRE(model.capacity == 20);
  compare_with_brute_force(model, *model.policy);
  compare_with_brute_force(
      model, model::Policy::from_thresholds({-1, 5, 12}, model.modes(), model.capacity));
}

}  // namespace
}  // namespace crawlq::crosscheck
