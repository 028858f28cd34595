// solve --sensitivity (validation/sensitivity.hpp) against central differences of the brute-force
// chain, which applies the model's rules state by state and solves densely: every scale group
// (all arrivals, each mode's own arrivals built here from the matrices, service, obsolescence) on
// random models and policies of each form, for every scalar measure (the sojourn means by the
// brute-force tagged page); the cost weights against the cost's own terms.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "model/bmap.hpp"
#include "model/costs.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "validation/parameter_sweep.hpp"
#include "validation/sensitivity.hpp"

namespace crawlq::crosscheck {
namespace {

constexpr double kStep = 1e-5;       // the brute force's central difference
constexpr double kTolerance = 1e-5;  // relative, with an absolute floor of the same size

// The model with `parameter` at `scale`, built without validation/sensitivity.cpp's code for a
// mode's own arrivals: the matrices of mode r times the scale, the others as they are.
model::Model scaled(const model::Model& model, const std::string& parameter, double scale) {
  if (parameter.starts_with("arrival-scale:")) {
    const int mode = std::stoi(parameter.substr(std::string("arrival-scale:").size()));
    std::vector<model::Bmap> modes;
    for (int r = 1; r <= model.modes(); ++r) {
      std::vector<model::Matrix> d = model.arrivals.mode(r).matrices();
      if (r == mode)
        for (model::Matrix& m : d) m *= scale;
      modes.emplace_back(std::move(d));
    }
    model::Model m = model;
    m.arrivals = model::ArrivalModes(std::move(modes));
    return m;
  }
  return validation::with_parameter(model, validation::parse_sweep_parameter(parameter), scale);
}

std::map<std::string, double> brute_measures(const model::Model& model,
                                             const model::ControlPolicy& policy) {
  const BruteForceChain chain(model, policy);
  const ChainMeasures& m = chain.measures();
  std::map<std::string, double> measures = brute_force_scalar_measures(model, chain);
  for (std::size_t i = 0; i < m.level_probabilities.size(); ++i)
    measures["level_probabilities[" + std::to_string(i) + "]"] = m.level_probabilities[i];
  for (std::size_t i = 0; i < m.mode_probabilities.size(); ++i)
    measures["mode_probabilities[" + std::to_string(i) + "]"] = m.mode_probabilities[i];
  return measures;
}

// A level map at capacity k, written here apart from validation/sensitivity.cpp: its top level's
// robots repeated for a level added, its top level dropped for one taken away.
model::ControlPolicy level_map_with(const model::Policy& policy, int k) {
  std::vector<int> levels(policy.levels().begin(), policy.levels().end());
  while (static_cast<int>(levels.size()) < k + 1) levels.push_back(levels.back());
  while (static_cast<int>(levels.size()) > k + 1) levels.pop_back();
  return model::Policy::from_levels(levels, policy.modes(), k);
}

// The brute force's measures at capacity k under the level map moved there.
std::map<std::string, double> brute_at_capacity(const model::Model& model,
                                                const model::Policy& policy, int k) {
  model::Model m = model;
  m.capacity = k;
  m.policy = level_map_with(policy, k);
  return brute_measures(m, *m.policy);
}

void check_against_brute_force(const model::Model& model, const model::ControlPolicy& policy) {
  INFO(describe(model));
  const analytic::PolicyEvaluator evaluator(model);
  const analytic::Measures at = evaluator.evaluate(policy).measures;
  const std::vector<validation::Sensitivity> rows =
      validation::sensitivities(model, policy, at, analytic::Method::kAuto, 1);
  std::map<std::string, std::map<std::string, double>> below, above;
  int compared = 0;
  const auto* levels = std::get_if<model::Policy>(&policy);
  for (const validation::Sensitivity& s : rows) {
    if (s.parameter.starts_with("costs.")) continue;
    if (s.parameter == "capacity") {
      // A difference over whole pages: both engines exact, so they agree to the solves' digits.
      REQUIRE(levels);
      const int low = std::max(1, model.capacity - 1), high = model.capacity + 1;
      const double brute = (brute_at_capacity(model, *levels, high).at(s.measure) -
                            brute_at_capacity(model, *levels, low).at(s.measure)) /
                           (high - low);
      INFO("capacity, " << s.measure << ": engine " << s.derivative << ", brute force " << brute);
      CHECK(std::abs(s.derivative - brute) <= 1e-8 * std::max(1.0, std::abs(brute)));
      ++compared;
      continue;
    }
    if (!below.contains(s.parameter)) {
      below[s.parameter] = brute_measures(scaled(model, s.parameter, 1 - kStep), policy);
      above[s.parameter] = brute_measures(scaled(model, s.parameter, 1 + kStep), policy);
    }
    REQUIRE(above[s.parameter].contains(s.measure));
    const double brute =
        (above[s.parameter].at(s.measure) - below[s.parameter].at(s.measure)) / (2 * kStep);
    INFO(s.parameter << ", " << s.measure << ": engine " << s.derivative << ", brute force "
                     << brute);
    CHECK(std::abs(s.derivative - brute) <= kTolerance * std::max(1.0, std::abs(brute)));
    ++compared;
  }
  // arrival-scale, each mode's, service-scale, (when pages expire) obsolescence-scale and (for a
  // level map) capacity.
  // Each scale also moves every level's and every mode's probability.
  const int scales = model.modes() + 2 + (model.obsolescence ? 1 : 0);
  CHECK(compared ==
        (12 + model.capacity + 1 + model.modes()) * scales + (levels != nullptr ? 12 : 0));
}

TEST_CASE("sensitivity: every scale group against the brute force's central differences",
          "[crosscheck][sensitivity]") {
  const auto seed = GENERATE(range(1, 7));
  const model::Model model = random_model(static_cast<std::uint64_t>(seed));
  const auto form = GENERATE(PolicyForm::kLevels, PolicyForm::kPhaseAware, PolicyForm::kMemory);
  INFO("seed " << seed << ", form " << static_cast<int>(form));
  check_against_brute_force(model,
                            random_control_policy(model, static_cast<std::uint64_t>(seed), form));
}

TEST_CASE("sensitivity: a cost weight moves the cost by its own term and nothing else",
          "[crosscheck][sensitivity]") {
  const model::Model model = random_model(11, {.holding_cost = true});
  const model::ControlPolicy policy = *model.policy;
  const analytic::Measures at = analytic::PolicyEvaluator(model).evaluate(policy).measures;
  const std::map<std::string, double> terms{
      {"costs.loss", at.lambda * at.p_loss},     {"costs.obsolescence", at.lambda * at.p_obsolete},
      {"costs.sojourn", at.mean_sojourn_served}, {"costs.robot", at.mean_active_robots},
      {"costs.starvation", at.p_starvation},     {"costs.holding", at.mean_in_system}};
  int checked = 0;
  for (const validation::Sensitivity& s :
       validation::sensitivities(model, policy, at, analytic::Method::kAuto, 1)) {
    if (!s.parameter.starts_with("costs.")) continue;
    INFO(s.parameter << ", " << s.measure);
    if (s.measure != "cost") {
      CHECK(s.derivative == 0);
      continue;
    }
    CHECK_THAT(s.derivative, Catch::Matchers::WithinRel(terms.at(s.parameter), 1e-12));
    const double weight =
        model.costs.*std::find_if(model::cost_weights().begin(), model::cost_weights().end(),
                                  [&](const model::CostWeight& w) {
                                    return s.parameter == "costs." + std::string(w.key);
                                  })
                         ->weight;
    CHECK_THAT(*s.elasticity, Catch::Matchers::WithinRel(s.derivative * weight / at.cost, 1e-12));
    ++checked;
  }
  CHECK(checked == 6);
}

}  // namespace
}  // namespace crawlq::crosscheck
