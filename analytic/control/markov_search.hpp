#pragma once
// `optimize --class markov`: the best policy over every stationary policy that sees the whole
// state, beside the best threshold policy, with what makes it trustworthy.
//
// With sojourn weight 0 the cost (2) is a long-run average of cost rates, and policy iteration
// (markov_control.hpp) finds the optimum with a certificate: optimality "global", a lower bound for
// every non-anticipating policy. With a sojourn weight a > 0 the term a V^(1) is a ratio (mean
// sojourn of served pages) that no cost rate carries. Then candidate policies come from the rate
// criterion with a holding weight h standing in for it (Little: a V ~ (a / lambda_accepted) L),
// h searched over a grid and refined by golden section, each candidate evaluated exactly under (2);
// the best is reported "heuristic", with a lower bound valid for every policy: the optimum of the
// other terms plus a times the mean service time (a served page's sojourn includes its service).
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/markov_control.hpp"
#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/policy_search.hpp"

namespace crawlq::analytic {

struct MarkovSearch {
  std::optional<PolicyEvaluation>
      best;                   // a full-state table, evaluated exactly under (2); always set
  PolicyCost threshold_best;  // the threshold class's optimum under (2)
  bool global = false;        // certified optimum (sojourn weight 0) rather than a heuristic's best
  double lower_bound = 0;     // no policy costs less under (2)
  int improvement_steps = 0;  // policy evaluations of the iteration that gave `best`
  double stand_in_holding = 0;  // with a sojourn weight: the holding weight whose optimum won
  std::vector<std::pair<double, double>>
      tried;                     // with a sojourn weight: (holding weight, cost (2))
  std::string threshold_search;  // "exhaustive" or "local", as for --class thresholds
};

struct MarkovSearchOptions {
  int threads = 0;  // the threshold search's, and the full-state generators' assembly (0: all)
  Search search = Search::kAuto;
  int starts = 1;  // the local threshold search's (policy_search.hpp)
  // The threshold class's best when the caller has it already; otherwise searched here.
  std::optional<PolicyCost> threshold_best = std::nullopt;
  std::function<void(const std::string&)> progress;  // a line per stage, for a terminal
  WorkMeter* meter = nullptr;  // charged by the threshold search (policy_search.hpp)
};

// With a sojourn weight, the stand-in holding weights tried: 8 on a grid, 2 + 8 by golden section.
inline constexpr int kMarkovCandidates = 18;

// Throws std::runtime_error when a solve fails or the iteration does not end.
MarkovSearch optimize_markov_policies(const PolicyEvaluator& evaluator,
                                      const MarkovSearchOptions& options = {});

}  // namespace crawlq::analytic
