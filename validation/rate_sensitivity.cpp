#include "validation/rate_sensitivity.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <variant>

#include "analytic/parallel_for.hpp"
#include "analytic/sensitivity/measure_gradients.hpp"
#include "analytic/sensitivity/stationary_adjoint.hpp"
#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "model/measure_list.hpp"
#include "validation/rate_parameters.hpp"

namespace crawlq::validation {

namespace {

// The forward steps of the measures with p held, as fractions of a parameter's room: the
// extrapolation's error is of order (1e-3)^3, each evaluation's rounding divided by 2.5e-4.
constexpr double kStep = 1e-3;

// Every measure of p (not a stationary vector of `model` in general) under `policy`.
analytic::Measures measures_with_p_held(const model::Model& model,
                                        const model::ControlPolicy& policy,
                                        const analytic::StateSpace& space,
                                        const analytic::TaggedPageChain& chain,
                                        const Eigen::VectorXd& p) {
  const analytic::ControlledArrivals arrivals(model, policy);
  analytic::Measures m = analytic::compute_measures(model, arrivals, space, p);
  analytic::add_sojourn_means_and_cost(
      model.costs,
      analytic::SojournTimes(chain, chain.arrival_distribution(model, arrivals, space, p)), m);
  return m;
}

// The slope of f at 0 from f at 0, h, h/2 and h/4 (`at[i]` at h / 2^i): forward differences,
// extrapolated twice (their errors go as h, then h^2), leaving an error of order h^3.
template <typename Value>
Value extrapolated_slope(const std::array<Value, 3>& at, const Value& base, double h) {
  std::array<Value, 3> forward;
  for (int i = 0; i < 3; ++i) forward[i] = (at[i] - base) / (h / (1 << i));
  const Value first = 2 * forward[1] - forward[0], second = 2 * forward[2] - forward[1];
  return (4 * second - first) / 3;
}

// Whether Q is linear in the parameter, so that any step gives p dQ exactly: every rate, and the
// service's start (each completion draws one phase); not the clock's start, which a batch of a
// pages draws a times (gamma^(x)a).
bool generator_is_linear_in(const RateParameter& parameter) {
  return !(parameter.law == RateParameter::Law::kObsolescence &&
           parameter.kind == RateParameter::Kind::kStart);
}

}  // namespace

std::vector<Sensitivity> rate_sensitivities(const analytic::PolicyEvaluator& evaluator,
                                            const analytic::PolicyEvaluation& evaluation,
                                            int threads) {
  const model::Model& model = evaluator.model();
  const model::ControlPolicy& policy = evaluation.policy;
  if (std::holds_alternative<model::TablePolicy>(policy))
    throw std::invalid_argument(
        "the per-rate sensitivities take a policy by levels, phases or memory, not a full-state "
        "table");
  const Eigen::VectorXd& p = evaluation.stationary.probabilities;
  const analytic::GeneratorBlocks blocks(model, policy);
  const analytic::ControlledArrivals& arrivals = blocks.arrivals();
  const analytic::StateSpace& space = blocks.space();
  const analytic::TaggedPageChain& chain = evaluator.tagged_chain();
  const auto& measures = model::scalar_measures<double>();
  const analytic::Measures at = measures_with_p_held(model, policy, space, chain, p);

  // One adjoint vector per measure.
  const std::vector<Eigen::VectorXd> gradients =
      analytic::measure_gradients(model, arrivals, space, chain, p, at);
  const analytic::StationaryAdjoint adjoint(blocks.assemble(), p);
  // The cost needs none: its derivative follows from the others' (cost_partials).
  const std::vector<double> cost_partials = analytic::cost_partials(model.costs, at);
  std::size_t cost_index = 0;
  while (measures[cost_index].field != &analytic::Measures::cost) ++cost_index;
  std::vector<Eigen::VectorXd> adjoints(measures.size());
  analytic::parallel_for(measures.size(), threads, [&](std::size_t m) {
    if (m != cost_index) adjoints[m] = adjoint.solve(gradients[m]);
  });

  const Eigen::VectorXd p_q = analytic::GeneratorOperator(model, arrivals).apply(p);
  const std::vector<RateParameter> parameters = rate_parameters(model);
  std::vector<std::array<double, 12>> derivatives(parameters.size());
  static_assert(std::tuple_size_v<std::decay_t<decltype(measures)>> == 12);
  analytic::parallel_for(parameters.size(), threads, [&](std::size_t j) {
    const RateParameter& parameter = parameters[j];
    const double h = kStep * parameter.room;
    const auto p_times_q = [&](const model::Model& m) -> Eigen::VectorXd {
      return analytic::GeneratorOperator(m, analytic::ControlledArrivals(m, policy)).apply(p);
    };
    // Through p: -p dQ x, dQ the generator's change per unit of the parameter.
    Eigen::VectorXd p_dq;
    if (generator_is_linear_in(parameter)) {
      const double wide = parameter.room / 2;
      p_dq = (p_times_q(moved(model, parameter, wide)) - p_q) / wide;
    } else {
      std::array<Eigen::VectorXd, 3> stepped;
      for (int i = 0; i < 3; ++i) stepped[i] = p_times_q(moved(model, parameter, h / (1 << i)));
      p_dq = extrapolated_slope(stepped, p_q, h);
    }
    // With p held: the measures alone at h, h/2 and h/4.
    std::array<analytic::Measures, 3> held;
    for (int i = 0; i < 3; ++i) {
      const model::Model m = moved(model, parameter, h / (1 << i));
      if (parameter.tagged()) {
        const analytic::TaggedPageChain moved_chain(m, 1);
        held[i] = measures_with_p_held(m, policy, space, moved_chain, p);
      } else {
        held[i] = measures_with_p_held(m, policy, space, chain, p);
      }
    }
    double cost = 0;
    for (std::size_t m = 0; m < measures.size(); ++m) {
      if (m == cost_index) continue;
      const auto field = measures[m].field;
      const double with_p_held = extrapolated_slope<double>(
          {held[0].*field, held[1].*field, held[2].*field}, at.*field, h);
      derivatives[j][m] = -p_dq.dot(adjoints[m]) + with_p_held;
      cost += cost_partials[m] * derivatives[j][m];
    }
    derivatives[j][cost_index] = cost;
  });

  std::vector<Sensitivity> rows;
  for (std::size_t j = 0; j < parameters.size(); ++j)
    for (std::size_t m = 0; m < measures.size(); ++m) {
      const double measure = evaluation.measures.*measures[m].field;
      const double derivative = derivatives[j][m];
      rows.push_back({parameters[j].name, std::string(measures[m].name.key), derivative,
                      measure == 0
                          ? std::nullopt
                          : std::optional<double>(derivative * parameters[j].value / measure)});
    }
  return rows;
}

}  // namespace crawlq::validation
