#include "validation/sensitivity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "model/costs.hpp"
#include "model/input_error.hpp"
#include "model/measure_list.hpp"
#include "model/policy.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::validation {

namespace {

// Richardson's pair of steps: D(h) = f' + c h^2 + O(h^4), so (4 D(h/2) - D(h)) / 3 = f' + O(h^4).
constexpr double kStep = 1e-3;

// `model` with the scale of `parameter` (a group of scale_parameters()) at `scale`.
model::Model scaled_model(const model::Model& model, const std::string& parameter, double scale) {
  constexpr std::string_view kModePrefix = "arrival-scale:";
  if (parameter.starts_with(kModePrefix))
    return with_mode_arrival_scale(model, std::stoi(parameter.substr(kModePrefix.size())), scale);
  return with_parameter(model, parse_sweep_parameter(parameter), scale);
}

analytic::Measures measures_at(const model::Model& model, const model::ControlPolicy& policy,
                               analytic::Method method, int threads, const std::string& parameter) {
  const analytic::PolicyEvaluator evaluator(model, method, threads);
  analytic::PolicyEvaluation evaluation = evaluator.evaluate(policy);
  if (evaluation.stationary.summary.status != analytic::SolverStatus::kConverged)
    throw std::runtime_error(
        fmt::format("{}: the solve of the shifted model did not converge (residual {:.2e})",
                    parameter, evaluation.stationary.summary.residual));
  return evaluation.measures;
}

std::optional<double> elasticity(double derivative, double parameter, double measure) {
  if (measure == 0) return std::nullopt;
  return derivative * parameter / measure;
}

// The scale groups of `model`: each multiplies rates, so each is a solve of a shifted model.
std::vector<std::string> scale_parameters(const model::Model& model) {
  std::vector<std::string> names{"arrival-scale"};
  for (int r = 1; r <= model.modes(); ++r) names.push_back(fmt::format("arrival-scale:{}", r));
  names.emplace_back("service-scale");
  if (model.obsolescence) names.emplace_back("obsolescence-scale");
  return names;
}

// `policy` at capacity `capacity`, one page from its own: it keeps its levels and gives a new top
// level the robots of the old top (a threshold vector's last band reaches K), or loses its top.
model::Policy level_map_at(const model::Policy& policy, int capacity) {
  std::vector<int> levels = policy.levels();
  levels.resize(static_cast<std::size_t>(capacity) + 1, levels.back());
  return model::Policy::from_levels(levels, policy.modes(), capacity);
}

}  // namespace

model::Model with_mode_arrival_scale(const model::Model& model, int mode, double scale) {
  if (mode < 1 || mode > model.modes())
    throw std::invalid_argument(
        fmt::format("arrival-scale:{}: the scenario has modes 1 to {}", mode, model.modes()));
  try {
    return with_mode_matrices(model, mode, [scale](std::vector<model::Matrix>& d) {
      for (model::Matrix& matrix : d) matrix *= scale;
    });
  } catch (const model::InputError& e) {
    throw std::invalid_argument(
        fmt::format("arrival-scale:{}: the scaled model breaks a rule: {}", mode, e.what()));
  }
}

model::Model with_mode_matrices(const model::Model& model, int mode,
                                const std::function<void(std::vector<model::Matrix>&)>& change) {
  std::vector<model::Bmap> modes;
  for (int r = 1; r <= model.modes(); ++r) {
    const model::Bmap& bmap = model.arrivals.mode(r);
    if (r != mode) {
      modes.push_back(bmap);
      continue;
    }
    std::vector<model::Matrix> d = bmap.matrices();
    change(d);
    modes.emplace_back(std::move(d), fmt::format("arrivals.modes[{}].D", r - 1));
  }
  model::Model m = model;
  m.arrivals = model::ArrivalModes(std::move(modes));
  return m;
}

std::vector<Sensitivity> sensitivities(const model::Model& model,
                                       const model::ControlPolicy& policy,
                                       const analytic::Measures& at, analytic::Method method,
                                       int threads) {
  const auto& measures = model::scalar_measures<double>();
  std::vector<Sensitivity> rows;
  for (const std::string& parameter : scale_parameters(model)) {
    std::array<analytic::Measures, 4> shifted;  // at 1 - h, 1 + h, 1 - h/2, 1 + h/2
    const std::array<double, 4> scales{1 - kStep, 1 + kStep, 1 - kStep / 2, 1 + kStep / 2};
    for (std::size_t i = 0; i < scales.size(); ++i)
      shifted[i] = measures_at(scaled_model(model, parameter, scales[i]), policy, method, threads,
                               parameter);
    // value(i): the quantity in shifted[i].
    const auto extrapolated = [&](const auto& value) {
      const double wide = (value(1) - value(0)) / (2 * kStep);
      const double narrow = (value(3) - value(2)) / kStep;
      return (4 * narrow - wide) / 3;
    };
    for (const auto& measure : measures) {
      const double derivative =
          extrapolated([&](std::size_t i) { return shifted[i].*measure.field; });
      rows.push_back({parameter, std::string(measure.name.key), derivative,
                      elasticity(derivative, 1, at.*measure.field)});
    }
    // Each level's and each mode's probability, named as validate names them.
    const auto entries = [&](std::vector<double> analytic::Measures::*list, const char* key) {
      for (std::size_t e = 0; e < (at.*list).size(); ++e) {
        const double derivative =
            extrapolated([&](std::size_t i) { return (shifted[i].*list)[e]; });
        rows.push_back({parameter, fmt::format("{}[{}]", key, e), derivative,
                        elasticity(derivative, 1, (at.*list)[e])});
      }
    };
    entries(&analytic::Measures::level_probabilities, "level_probabilities");
    entries(&analytic::Measures::mode_probabilities, "mode_probabilities");
  }
  // Capacity is whole: the difference over K - 1 and K + 1 (K and K + 1 at K = 1), a level map's
  // top level kept for the page added.
  if (const auto* levels = std::get_if<model::Policy>(&policy)) {
    const int capacity = model.capacity;
    const int low = std::max(1, capacity - 1), high = capacity + 1;
    const auto measures_with = [&](int k) {
      if (k == capacity) return at;
      model::Model m = model;
      m.capacity = k;
      m.policy = level_map_at(*levels, k);
      return measures_at(m, *m.policy, method, threads, "capacity");
    };
    const analytic::Measures below = measures_with(low), above = measures_with(high);
    for (const auto& measure : measures) {
      const double derivative = (above.*measure.field - below.*measure.field) / (high - low);
      rows.push_back({"capacity", std::string(measure.name.key), derivative,
                      elasticity(derivative, capacity, at.*measure.field)});
    }
  }
  // J is linear in each weight and no other measure sees the weights.
  for (const model::CostWeight& weight : model::cost_weights()) {
    model::Costs shifted = model.costs;
    shifted.*weight.weight += 1;
    for (const auto& measure : measures) {
      const bool cost = measure.name.key == "cost";
      const double derivative =
          cost ? model::cost_criterion(shifted, at) - model::cost_criterion(model.costs, at) : 0;
      rows.push_back({fmt::format("costs.{}", weight.key), std::string(measure.name.key),
                      derivative,
                      elasticity(derivative, model.costs.*weight.weight, at.*measure.field)});
    }
  }
  return rows;
}

}  // namespace crawlq::validation
