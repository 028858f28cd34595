// solve --sensitivity-rates (validation/rate_sensitivity.hpp, by adjoint) against central
// differences of the brute-force chain, which applies the model's rules state by state and solves
// densely: every rate of every D_k^(r), S, Gamma and their exits, every entry of beta and gamma, on
// random models and policies of three forms, for every scalar measure (the sojourn means by the
// brute-force tagged page). Each parameter is moved here by this file's own reading of the rule
// (a rate's row diagonal takes it back; a start entry takes it from the others in proportion).
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/sensitivity/stationary_adjoint.hpp"
#include "model/bmap.hpp"
#include "model/costs.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "validation/rate_parameters.hpp"
#include "validation/rate_sensitivity.hpp"
#include "validation/sensitivity.hpp"

namespace crawlq::crosscheck {
namespace {

constexpr double kStep = 1e-5;       // relative to the parameter's size
constexpr double kTolerance = 1e-5;  // relative, with an absolute floor of the same size

std::map<std::string, double> brute_scalars(const model::Model& model,
                                            const model::ControlPolicy& policy) {
  return brute_force_scalar_measures(model, BruteForceChain(model, policy));
}

// A phase-type law with the entry named by (matrix or exit or start, u, v) moved by `step`.
model::PhaseType moved_law(const model::PhaseType& law, const std::string& what, int u, int v,
                           double step) {
  model::RowVector start = law.initial();
  model::Matrix t = law.subgenerator();
  if (what == "exit") {
    t(u, u) -= step;
  } else if (what == "start") {
    const double others = start.sum() - start(u);
    for (int i = 0; i < start.size(); ++i)
      if (i != u) start(i) -= step * start(i) / others;
    start(u) += step;
  } else {
    t(u, v) += step;
    t(u, u) -= step;
  }
  return model::PhaseType(start, t);
}

// The model with the parameter `name` moved by `step`, and its size; parsed from the name.
std::pair<model::Model, double> moved(const model::Model& model, const std::string& name,
                                      double step) {
  std::smatch match;
  model::Model m = model;
  if (std::regex_match(name, match,
                       std::regex(R"(arrivals\.modes\[(\d+)\]\.D\[(\d+)\]\[(\d+)\]\[(\d+)\])"))) {
    const int mode = std::stoi(match[1]), k = std::stoi(match[2]), u = std::stoi(match[3]),
              v = std::stoi(match[4]);
    std::vector<model::Bmap> modes;
    double size = 0;
    for (int r = 0; r < model.modes(); ++r) {
      std::vector<model::Matrix> d = model.arrivals.mode(r + 1).matrices();
      if (r == mode) {
        size = d[k](u, v);
        d[k](u, v) += step * size;
        d[0](u, u) -= step * size;
      }
      modes.emplace_back(std::move(d));
    }
    m.arrivals = model::ArrivalModes(std::move(modes));
    return {m, size};
  }
  REQUIRE(std::regex_match(
      name, match,
      std::regex(R"((service|obsolescence)\.(S|Gamma|exit|beta|gamma)\[(\d+)\](\[(\d+)\])?)")));
  const bool service = match[1] == "service";
  const model::PhaseType& law = service ? model.service : *model.obsolescence;
  const std::string entry = match[2];
  const int u = std::stoi(match[3]), v = match[5].matched ? std::stoi(match[5]) : -1;
  const std::string what = entry == "exit"                       ? "exit"
                           : entry == "beta" || entry == "gamma" ? "start"
                                                                 : "rate";
  // Steps relative to the rate; a start entry's relative to what the others hold.
  const double size = what == "exit"    ? law.exit_rates()(u)
                      : what == "start" ? 1 - law.initial()(u)
                                        : law.subgenerator()(u, v);
  const model::PhaseType moved_one = moved_law(law, what, u, v, step * size);
  if (service)
    m.service = moved_one;
  else
    m.obsolescence = moved_one;
  return {m, size};
}

// The value of a start entry ("service.beta[1]", "obsolescence.gamma[0]").
double start_entry(const model::Model& model, const std::string& name) {
  const model::PhaseType& law = name.starts_with("service") ? model.service : *model.obsolescence;
  return law.initial()(std::stoi(name.substr(name.rfind('[') + 1)));
}

void check_against_brute_force(const model::Model& model, const model::ControlPolicy& policy) {
  INFO(describe(model));
  const analytic::PolicyEvaluator evaluator(model);
  const analytic::PolicyEvaluation evaluation = evaluator.evaluate(policy);
  const std::vector<validation::Sensitivity> rows =
      validation::rate_sensitivities(evaluator, evaluation, 2);
  std::map<std::string, std::map<std::string, double>> differences;
  for (const validation::Sensitivity& s : rows) {
    if (!differences.contains(s.parameter)) {
      // Central differences, or second-order forward ones where the entry is 0 and cannot fall.
      const auto [above, size] = moved(model, s.parameter, kStep);
      const auto high = brute_scalars(above, policy);
      const bool start = s.parameter.find(".beta[") != std::string::npos ||
                         s.parameter.find(".gamma[") != std::string::npos;
      const bool at_zero = start && start_entry(model, s.parameter) == 0;
      if (at_zero) {
        const auto at = brute_scalars(model, policy);
        const auto further = brute_scalars(moved(model, s.parameter, 2 * kStep).first, policy);
        for (const auto& [key, value] : high)
          differences[s.parameter][key] =
              (4 * value - 3 * at.at(key) - further.at(key)) / (2 * kStep * size);
      } else {
        const auto low = brute_scalars(moved(model, s.parameter, -kStep).first, policy);
        for (const auto& [key, value] : high)
          differences[s.parameter][key] = (value - low.at(key)) / (2 * kStep * size);
      }
    }
    const double brute = differences[s.parameter].at(s.measure);
    INFO(s.parameter << ", " << s.measure << ": adjoint " << s.derivative << ", brute force "
                     << brute);
    CHECK(std::abs(s.derivative - brute) <= kTolerance * std::max(1.0, std::abs(brute)));
  }
  // Every nonzero rate of every D_k^(r) (D_0's diagonal aside), of S and Gamma off their
  // diagonals and of their exits, and every entry below 1 of a start vector of two or more.
  std::size_t expected = 0;
  for (int r = 1; r <= model.modes(); ++r) {
    const std::vector<model::Matrix>& d = model.arrivals.mode(r).matrices();
    for (std::size_t k = 0; k < d.size(); ++k)
      expected += (d[k].array() != 0).count() - (k == 0 ? d[0].rows() : 0);
  }
  const auto law_count = [](const model::PhaseType& law) {
    const model::Matrix& t = law.subgenerator();
    const model::RowVector& start = law.initial();
    return static_cast<std::size_t>((t.array() != 0).count() - t.rows() +
                                    (law.exit_rates().array() != 0).count() +
                                    (start.size() > 1 ? (start.array() < 1).count() : 0));
  };
  expected += law_count(model.service) + (model.obsolescence ? law_count(*model.obsolescence) : 0);
  CHECK(differences.size() == expected);
  CHECK(rows.size() == 12 * expected);
}

TEST_CASE("rate sensitivity: every rate and start entry against the brute force's differences",
          "[crosscheck][sensitivity]") {
  const auto seed = GENERATE(range(1, 7));
  const model::Model model = random_model(static_cast<std::uint64_t>(seed), {.holding_cost = true});
  const auto form = GENERATE(PolicyForm::kLevels, PolicyForm::kPhaseAware, PolicyForm::kMemory);
  INFO("seed " << seed << ", form " << static_cast<int>(form));
  check_against_brute_force(model,
                            random_control_policy(model, static_cast<std::uint64_t>(seed), form));
}

// Scaling a law multiplies every one of its rates (a diagonal is minus its row's others), so the
// rates' derivatives times the rates add up to the scale group's derivative. On models of up to
// 20,000 states, solved iteratively and applied in the operator's pieces, where the brute force
// cannot go; the groups are central differences of the exact engine (validation/sensitivity.hpp).
TEST_CASE("rate sensitivity: each law's rates add up to its scale group on larger chains",
          "[crosscheck][sensitivity][heavy]") {
  // The first three seeds from 21 on whose chains are past the dense factorisation.
  const int index = GENERATE(range(0, 3));
  std::uint64_t seed = 20;
  for (int found = -1; found < index;)
    if (chain_size(random_model(++seed, split_models())) >
        analytic::StationaryAdjoint::kDenseStates)
      ++found;
  const model::Model model = random_model(seed, split_models());
  INFO(describe(model));
  const analytic::PolicyEvaluator evaluator(model);
  const analytic::PolicyEvaluation evaluation = evaluator.evaluate(*model.policy);
  const std::vector<validation::Sensitivity> rates =
      validation::rate_sensitivities(evaluator, evaluation, 2);
  const std::vector<validation::RateParameter> parameters = validation::rate_parameters(model);
  REQUIRE(rates.size() == 12 * parameters.size());
  // The group each rate scales with ("" for a start entry), and each mode's own.
  std::map<std::pair<std::string, std::string>, double> sums;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const validation::RateParameter& parameter = parameters[i / 12];
    REQUIRE(rates[i].parameter == parameter.name);
    const double term = rates[i].derivative * parameter.value;
    if (parameter.kind == validation::RateParameter::Kind::kStart) continue;
    switch (parameter.law) {
      case validation::RateParameter::Law::kArrivals:
        sums[{"arrival-scale", rates[i].measure}] += term;
        sums[{"arrival-scale:" + std::to_string(parameter.mode + 1), rates[i].measure}] += term;
        break;
      case validation::RateParameter::Law::kService:
        sums[{"service-scale", rates[i].measure}] += term;
        break;
      case validation::RateParameter::Law::kObsolescence:
        sums[{"obsolescence-scale", rates[i].measure}] += term;
        break;
    }
  }
  int compared = 0;
  for (const validation::Sensitivity& group : validation::sensitivities(
           model, *model.policy, evaluation.measures, analytic::Method::kAuto, 2)) {
    const auto sum = sums.find({group.parameter, group.measure});
    if (sum == sums.end()) continue;
    INFO(group.parameter << ", " << group.measure << ": rates " << sum->second << ", group "
                         << group.derivative);
    CHECK(std::abs(sum->second - group.derivative) <=
          1e-7 * std::max(1.0, std::abs(group.derivative)));
    ++compared;
  }
  CHECK(compared == static_cast<int>(sums.size()));
  CHECK(compared == 12 * (model.modes() + 2 + (model.obsolescence ? 1 : 0)));
}

}  // namespace
}  // namespace crawlq::crosscheck
