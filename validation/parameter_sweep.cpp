#include "validation/parameter_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "analytic/control/periodic_evaluation.hpp"
#include "analytic/control/periodic_search.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "model/input_error.hpp"
#include "model/rhythm.hpp"
#include "model/thread_count.hpp"
#include "model/worker_threads.hpp"

namespace crawlq::validation {

namespace {

[[noreturn]] void refuse(SweepParameter parameter, double value, const std::string& why) {
  throw std::invalid_argument(fmt::format("{} {}: {}", parameter_name(parameter), value, why));
}

// The cost parameters follow model::cost_weights() in order.
const model::CostWeight* cost_weight(SweepParameter parameter) {
  const int index = static_cast<int>(parameter) - static_cast<int>(SweepParameter::kLossCost);
  if (index < 0 || index >= static_cast<int>(model::cost_weights().size())) return nullptr;
  return &model::cost_weights()[static_cast<std::size_t>(index)];
}

double model::Costs::*cost_field(SweepParameter parameter) {
  const model::CostWeight* w = cost_weight(parameter);
  return w ? w->weight : nullptr;
}

// s M, refused when a rate overflows: inf - inf rows would slip past the generator checks as NaN.
model::Matrix scaled(const model::Matrix& m, double s, const std::string& key) {
  model::Matrix out = s * m;
  if (!out.allFinite())
    throw model::InputError(key, fmt::format("a rate overflows when multiplied by {}", s));
  return out;
}

model::PhaseType scaled(const model::PhaseType& law, double s, const std::string& key_path,
                        const std::string& initial_key, const std::string& matrix_key) {
  return model::PhaseType(law.initial(), scaled(law.subgenerator(), s, key_path + "." + matrix_key),
                          key_path, initial_key, matrix_key);
}

// Under a rhythm: the periodic regime's costs, the single vector's search started where optimize
// starts it (the period's mean arrivals' best vector and its long run).
SweepRow solve_periodic(const model::Model& model, double value) {
  const model::Model averaged = analytic::averaged_over_period(model);
  const analytic::PolicyEvaluator evaluator(averaged);
  const analytic::ThresholdSearch mean_best = analytic::optimize_thresholds(evaluator, 1);
  const analytic::PolicyEvaluation long_run = evaluator.evaluate(mean_best.best.policy);
  const analytic::PeriodicThresholdSearch search = analytic::optimize_periodic_thresholds(
      model, evaluator.tagged_chain(), long_run.stationary.probabilities,
      *mean_best.best.policy.thresholds(), {.threads = 1});
  const auto policy_of = [&](const std::vector<int>& thresholds) {
    return model::Policy::from_thresholds(thresholds, model.modes(), model.capacity, "thresholds");
  };
  std::vector<model::ControlPolicy> by_piece;
  for (const std::vector<int>& t : search.by_piece) by_piece.emplace_back(policy_of(t));
  const analytic::Measures measures =
      analytic::evaluate_periodic(model, by_piece, evaluator).evaluation.measures;
  std::vector<double> constant;
  for (int r = 1; r <= model.modes(); ++r)
    constant.push_back(analytic::evaluate_periodic(
                           model,
                           {model::Policy::from_levels(std::vector<int>(model.capacity + 1, r),
                                                       model.modes(), model.capacity)},
                           evaluator)
                           .evaluation.measures.cost);
  return SweepRow{.value = value,
                  .best = {.policy = policy_of(search.single), .cost = search.single_cost},
                  .constant = constant,
                  .relative_profit = model::relative_profit(search.by_piece_cost, constant),
                  .measures = measures,
                  .mean_service_time = model.service.mean(),
                  .mean_obsolescence_time = model.obsolescence
                                                ? std::optional<double>(model.obsolescence->mean())
                                                : std::nullopt,
                  .class_best = std::nullopt,
                  .by_piece = SweepByPiece{search.by_piece, search.by_piece_cost}};
}

SweepRow solve_one(const model::Model& model, double value, const std::string& policy_class) {
  if (model.rhythm) return solve_periodic(model, value);
  const analytic::PolicyEvaluator evaluator(model);
  // One thread inside: the values are what runs in parallel.
  const analytic::ThresholdSearch search = analytic::optimize_thresholds(evaluator, 1);
  const analytic::PolicyEvaluation best = evaluator.evaluate(search.best.policy);
  const double profit = model::relative_profit(search.best.cost, search.constant);
  std::optional<analytic::ClassRow> class_best;
  if (policy_class != "thresholds")
    class_best = analytic::best_of_class(evaluator, policy_class,
                                         {.threads = 1,
                                          .search = analytic::Search::kAuto,
                                          .starts = 1,
                                          .max_maps = 1'000'000,
                                          .progress = nullptr},
                                         search.best);
  return SweepRow{.value = value,
                  .best = search.best,
                  .constant = search.constant,
                  .relative_profit = profit,
                  .measures = best.measures,
                  .mean_service_time = model.service.mean(),
                  .mean_obsolescence_time = model.obsolescence
                                                ? std::optional<double>(model.obsolescence->mean())
                                                : std::nullopt,
                  .class_best = std::move(class_best)};
}

}  // namespace

std::string parameter_name(SweepParameter parameter) {
  switch (parameter) {
    case SweepParameter::kCapacity:
      return "capacity";
    case SweepParameter::kServiceScale:
      return "service-scale";
    case SweepParameter::kObsolescenceScale:
      return "obsolescence-scale";
    case SweepParameter::kArrivalScale:
      return "arrival-scale";
    case SweepParameter::kRhythmAmplitude:
      return "rhythm-amplitude";
    default:
      return "costs." + std::string(cost_weight(parameter)->key);
  }
  return "unknown";
}

const std::vector<SweepParameter>& sweep_parameters() {
  static const std::vector<SweepParameter> all{
      SweepParameter::kCapacity,          SweepParameter::kServiceScale,
      SweepParameter::kObsolescenceScale, SweepParameter::kArrivalScale,
      SweepParameter::kLossCost,          SweepParameter::kObsolescenceCost,
      SweepParameter::kSojournCost,       SweepParameter::kRobotCost,
      SweepParameter::kStarvationCost,    SweepParameter::kHoldingCost,
      SweepParameter::kRhythmAmplitude};
  static_assert(static_cast<int>(SweepParameter::kHoldingCost) -
                    static_cast<int>(SweepParameter::kLossCost) + 1 ==
                std::tuple_size_v<std::decay_t<decltype(model::cost_weights())>>);
  return all;
}

SweepParameter parse_sweep_parameter(const std::string& name) {
  std::string known;
  for (const SweepParameter p : sweep_parameters()) {
    if (parameter_name(p) == name) return p;
    known += (known.empty() ? "" : ", ") + parameter_name(p);
  }
  throw std::invalid_argument(fmt::format("unknown parameter '{}' (known: {})", name, known));
}

void require_applicable(const model::Model& model, SweepParameter parameter) {
  if (parameter == SweepParameter::kObsolescenceScale && !model.obsolescence)
    throw std::invalid_argument(
        "obsolescence-scale: the scenario has no obsolescence section (waiting pages never "
        "expire), "
        "so there is no Gamma to scale");
  if (parameter == SweepParameter::kRhythmAmplitude && !model.rhythm)
    throw std::invalid_argument(
        "rhythm-amplitude: the scenario has no rhythm (add `rhythm: {period: T, scales: [...]}`), "
        "so there is no swing to scale");
}

model::Model with_parameter(const model::Model& model, SweepParameter parameter, double value) {
  require_applicable(model, parameter);
  model::Model m = model;
  if (parameter == SweepParameter::kCapacity) {
    if (!std::isfinite(value) || value != std::floor(value) || value < 1 ||
        value > model::kMostCapacity)
      refuse(parameter, value,
             fmt::format("K must be a whole number from 1 to {}", model::kMostCapacity));
    m.capacity = static_cast<int>(value);
    // A level map has one entry per level 0..K: the file's policy does not fit another K.
    if (m.capacity != model.capacity) {
      m.policy.reset();
      m.piece_policies.clear();
    }
    return m;
  }
  if (const auto field = cost_field(parameter)) {
    if (!std::isfinite(value) || value < 0)
      refuse(parameter, value, "a cost coefficient must be finite and at least 0");
    m.costs.*field = value;
    return m;
  }
  if (parameter == SweepParameter::kRhythmAmplitude) {
    if (!std::isfinite(value) || value < 0)
      refuse(parameter, value, "an amplitude must be finite and at least 0");
    const double mean = model.rhythm->mean_scale();
    const double lowest =
        *std::min_element(model.rhythm->scales.begin(), model.rhythm->scales.end());
    for (double& s : m.rhythm->scales) s = mean + value * (s - mean);
    if (*std::min_element(m.rhythm->scales.begin(), m.rhythm->scales.end()) <= 0)
      refuse(parameter, value,
             fmt::format("the quietest piece's scale would be {:.6g}, and a scale must be greater "
                         "than 0: the largest amplitude is below {:.6g}",
                         mean + value * (lowest - mean), mean / (mean - lowest)));
    try {
      for (const double s : m.rhythm->scales) (void)model::scaled_arrivals(model.arrivals, s);
    } catch (const model::InputError& e) {
      refuse(parameter, value, fmt::format("a piece breaks a rule: {}", e.what()));
    }
    return m;
  }
  if (!std::isfinite(value) || value <= 0)
    refuse(parameter, value, "a scale factor must be finite and greater than 0");
  try {
    if (parameter == SweepParameter::kServiceScale)
      m.service = scaled(model.service, value, "service", "beta", "S");
    else if (parameter == SweepParameter::kObsolescenceScale)
      m.obsolescence = scaled(*model.obsolescence, value, "obsolescence", "gamma", "Gamma");
    else
      m.arrivals = model::scaled_arrivals(model.arrivals, value);
  } catch (const model::InputError& e) {
    // Only extreme factors get here (rates overflowing or vanishing): the file itself was valid.
    refuse(parameter, value, fmt::format("the scaled model breaks a rule: {}", e.what()));
  }
  return m;
}

model::Model swept_chain_model(const model::Model& model, const std::string& policy_class,
                               bool full_chain) {
  if (full_chain || policy_class == "markov") return model;
  return analytic::lumped_clock_model(model).value_or(model);
}

SweepOutcomes sweep_outcomes(const model::Model& model, SweepParameter parameter,
                             const std::vector<double>& values, int threads,
                             const std::string& policy_class, bool full_chain) {
  // Every value is checked before the first solve, so that a bad one costs no time.
  std::vector<model::Model> models;
  models.reserve(values.size());
  for (const double v : values)
    models.push_back(
        swept_chain_model(with_parameter(model, parameter, v), policy_class, full_chain));

  // Largest chains first, so that the longest solve does not start last; every row keeps its place.
  // Only the capacity changes the chain, and with it the number of policies, so states order both.
  std::vector<double> states(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    states[i] = analytic::estimate_memory(models[i]).states;
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return states[a] > states[b]; });

  SweepOutcomes outcomes;
  outcomes.rows.resize(values.size());
  outcomes.failures.resize(values.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t n = next++; n < order.size(); n = next++) {
      const std::size_t i = order[n];
      try {
        outcomes.rows[i] = solve_one(models[i], values[i], policy_class);
      } catch (const std::exception& e) {
        outcomes.failures[i] =
            fmt::format("{} {}: {}", parameter_name(parameter), values[i], e.what());
      }
    }
  };
  threads = model::resolved_threads(threads);
  threads = static_cast<int>(std::min<std::size_t>(threads, values.size()));
  model::run_on_threads(threads, work);
  return outcomes;
}

std::vector<SweepRow> sweep(const model::Model& model, SweepParameter parameter,
                            const std::vector<double>& values, int threads,
                            const std::string& policy_class, bool full_chain) {
  SweepOutcomes outcomes =
      sweep_outcomes(model, parameter, values, threads, policy_class, full_chain);
  // Every value was tried, so the first failure in value order is the same for any thread count.
  for (const auto& failure : outcomes.failures)
    if (failure) throw std::runtime_error(*failure);
  std::vector<SweepRow> out;
  out.reserve(outcomes.rows.size());
  for (auto& row : outcomes.rows) out.push_back(std::move(*row));
  return out;
}

}  // namespace crawlq::validation
