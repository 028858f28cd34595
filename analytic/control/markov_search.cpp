#include "analytic/control/markov_search.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "model/thread_count.hpp"

namespace crawlq::analytic {

namespace {

// The stand-in holding weights tried, as multiples of a / lambda_accepted, before the refinement.
constexpr double kGrid[] = {0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0};
constexpr int kGoldenSteps = 8;
static_assert(std::size(kGrid) + 2 + kGoldenSteps == kMarkovCandidates);

PolicyEvaluation evaluate_exactly(const PolicyEvaluator& evaluator, const std::vector<int>& robots,
                                  const std::string& source) {
  const model::Model& m = evaluator.model();
  PolicyEvaluation e = evaluator.evaluate(model::make_table(
      robots, m.capacity, m.arrivals.phases(), m.service.phases(),
      m.obsolescence ? m.obsolescence->phases() : 1, m.modes(), source, "policy.table"));
  if (e.stationary.summary.status != SolverStatus::kConverged)
    throw std::runtime_error(fmt::format("the full-state optimum could not be evaluated: {}",
                                         e.stationary.summary.message));
  return e;
}

MarkovOptimum iterate(const FullStateChain& chain, std::vector<int> start, double extra_holding,
                      int threads) {
  MarkovOptimum optimum = optimize_markov(chain, std::move(start),
                                          {.extra_holding = extra_holding,
                                           .max_steps = 200,
                                           .stop = nullptr,
                                           .progress = nullptr,
                                           .threads = model::resolved_threads(threads)});
  if (!optimum.converged) throw std::runtime_error("policy iteration: " + optimum.message);
  return optimum;
}

}  // namespace

MarkovSearch optimize_markov_policies(const PolicyEvaluator& evaluator,
                                      const MarkovSearchOptions& options) {
  const model::Model& model = evaluator.model();
  const auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  say("the best threshold policy");
  const bool local = choose_search(options.search, model) == Search::kLocal;
  MarkovSearch result{
      .best = std::nullopt,
      .threshold_best = options.threshold_best
                            ? *options.threshold_best
                            : best_threshold(evaluator, options.search, options.threads,
                                             options.starts, options.meter),
      .global = false,
      .lower_bound = 0,
      .improvement_steps = 0,
      .stand_in_holding = 0,
      .tried = {},
      .threshold_search = local ? "local" : "exhaustive"};
  say("the chain under every number of robots");
  const FullStateChain& chain = evaluator.full_state_chain(options.threads);
  const std::vector<int> start = chain.robots_of(result.threshold_best.policy);

  say("policy iteration on the rate terms of (2)");
  const MarkovOptimum rates = iterate(chain, start, 0.0, options.threads);
  const double sojourn_weight = model.costs.sojourn;
  if (sojourn_weight == 0) {
    result.best = evaluate_exactly(evaluator, rates.robots, "markov optimum");
    result.global = true;
    result.lower_bound = rates.lower_bound;
    result.improvement_steps = rates.steps;
    return result;
  }

  // A served page's sojourn holds its own service: V^(1) >= b_1 under every policy.
  result.lower_bound = rates.lower_bound + sojourn_weight * model.service.mean();
  const PolicyEvaluation threshold = evaluator.evaluate(result.threshold_best.policy);
  const Measures& m = threshold.measures;
  const double unit = sojourn_weight / std::max(m.lambda * (1 - m.p_loss), 1e-300);
  std::vector<int> previous = rates.robots;
  const auto candidate = [&](double holding) {
    const MarkovOptimum optimum =
        holding == 0 ? rates : iterate(chain, previous, holding, options.threads);
    previous = optimum.robots;
    PolicyEvaluation e = evaluate_exactly(evaluator, optimum.robots, "markov heuristic");
    result.tried.emplace_back(holding, e.measures.cost);
    if (!result.best || e.measures.cost < result.best->measures.cost) {
      result.best = std::move(e);
      result.stand_in_holding = holding;
      result.improvement_steps = optimum.steps;
    }
    return result.tried.back().second;
  };
  say("candidates from holding weights standing in for the sojourn term");
  std::vector<double> costs;
  for (const double multiple : kGrid) costs.push_back(candidate(multiple * unit));
  // Golden section on the bracket around the grid's best.
  std::size_t best_at = 0;
  for (std::size_t i = 1; i < costs.size(); ++i)
    if (costs[i] < costs[best_at]) best_at = i;
  double low = kGrid[best_at == 0 ? 0 : best_at - 1] * unit;
  double high = kGrid[std::min(best_at + 1, std::size(kGrid) - 1)] * unit;
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  if (high > low) {
    double a = high - ratio * (high - low), b = low + ratio * (high - low);
    double cost_a = candidate(a), cost_b = candidate(b);
    for (int step = 0; step < kGoldenSteps; ++step) {
      if (cost_a <= cost_b) {
        high = b, b = a, cost_b = cost_a;
        a = high - ratio * (high - low);
        cost_a = candidate(a);
      } else {
        low = a, a = b, cost_a = cost_b;
        b = low + ratio * (high - low);
        cost_b = candidate(b);
      }
    }
  }
  // The threshold class is inside the full-state class: never report worse than its best.
  if (result.threshold_best.cost < result.best->measures.cost) {
    result.best = evaluate_exactly(evaluator, start, "threshold optimum");
    result.stand_in_holding = std::nan("");
  }
  return result;
}

}  // namespace crawlq::analytic
