#include "analytic/stationary/clock_lumping.hpp"

#include <algorithm>
#include <variant>

namespace crawlq::analytic {

namespace {
bool by_state(const model::ControlPolicy& policy) {
  return std::holds_alternative<model::TablePolicy>(policy);
}
}  // namespace

std::optional<model::Model> lumped_clock_model(const model::Model& model,
                                               const model::ControlPolicy& policy) {
  if (by_state(policy)) return std::nullopt;
  return lumped_clock_model(model);
}

std::optional<model::Model> lumped_clock_model(const model::Model& model) {
  if (!model.obsolescence || model.obsolescence->phases() == 1) return std::nullopt;
  if (std::ranges::any_of(model.piece_policies, by_state)) return std::nullopt;
  const std::optional<double> rate = model.obsolescence->common_exit_rate();
  if (!rate) return std::nullopt;
  model::Model lumped = model;
  lumped.obsolescence = model::PhaseType::exponential(*rate);
  return lumped;
}

std::optional<double> lumped_clock_rate(const model::Model& solved, const model::Model& given) {
  if (!solved.obsolescence || solved.obsolescence->phases() == given.obsolescence->phases())
    return std::nullopt;
  return solved.obsolescence->exit_rates()(0);
}

}  // namespace crawlq::analytic
