#include "analytic/control/periodic_search.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/policy_search.hpp"
#include "analytic/parallel_for.hpp"
#include "analytic/transient/periodic_regime.hpp"

namespace crawlq::analytic {

namespace {

using Assignment = std::vector<std::vector<int>>;  // a threshold vector per piece (or one)

// Every non-decreasing vector j_1..j_{N-1} over -1..K, in lexicographic order.
std::vector<std::vector<int>> every_threshold_vector(int modes, int capacity) {
  std::vector<std::vector<int>> all;
  std::vector<int> t(static_cast<std::size_t>(modes - 1), -1);
  if (t.empty()) return {t};
  for (;;) {
    all.push_back(t);
    std::size_t q = t.size();
    while (q > 0 && t[q - 1] == capacity) --q;
    if (q == 0) return all;
    ++t[q - 1];
    for (std::size_t r = q; r < t.size(); ++r) t[r] = t[q - 1];
  }
}

// The periodic regimes' costs, each assignment solved once.
class PeriodicCosts {
 public:
  PeriodicCosts(const model::Model& model, const TaggedPageChain& tagged,
                const Eigen::VectorXd& guess, const PeriodicSearchOptions& options)
      : model_(model), tagged_(tagged), guess_(guess), options_(options) {}

  // The costs of `candidates`, solved side by side (those met before from the memo).
  std::vector<double> costs(const std::vector<Assignment>& candidates) {
    std::vector<double> out(candidates.size(), 0.0);
    std::vector<std::size_t> unsolved;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (const auto found = memo_.find(candidates[i]); found != memo_.end())
        out[i] = found->second;
      else
        unsolved.push_back(i);
    }
    parallel_for(unsolved.size(), options_.threads,
                 [&](std::size_t k) { out[unsolved[k]] = solve(candidates[unsolved[k]]); });
    for (const std::size_t i : unsolved) memo_.emplace(candidates[i], out[i]);
    return out;
  }
  std::int64_t solved() const { return static_cast<std::int64_t>(memo_.size()); }

 private:
  double solve(const Assignment& thresholds) const {
    if (options_.stop && options_.stop->load()) throw Cancelled();
    std::vector<model::ControlPolicy> policies;
    for (const std::vector<int>& t : thresholds)
      policies.emplace_back(
          model::Policy::from_thresholds(t, model_.modes(), model_.capacity, "thresholds"));
    const PeriodicRegime regime =
        periodic_regime(model_, policies, guess_, tagged_, {.threads = 1, .stop = options_.stop});
    if (!regime.converged)
      throw std::runtime_error(
          fmt::format("the periodic regime of a candidate did not settle: after {} periods the "
                      "period still moves the distribution by {:.2g} (l1)",
                      regime.periods, regime.residual));
    return regime.period.cost;
  }

  const model::Model& model_;
  const TaggedPageChain& tagged_;
  const Eigen::VectorXd& guess_;
  const PeriodicSearchOptions& options_;
  std::map<Assignment, double> memo_;
};

// The cheapest of `costs` (the first on ties); its index.
std::size_t cheapest(const std::vector<double>& costs) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < costs.size(); ++i)
    if (costs[i] < costs[best]) best = i;
  return best;
}

bool lowers(double candidate, double current) {
  return candidate < current - 1e-10 * std::abs(current);
}

}  // namespace

PeriodicThresholdSearch optimize_periodic_thresholds(const model::Model& model,
                                                     const TaggedPageChain& tagged,
                                                     const Eigen::VectorXd& guess,
                                                     const std::vector<int>& start,
                                                     const PeriodicSearchOptions& options) {
  const auto tell = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  PeriodicCosts costs(model, tagged, guess, options);
  PeriodicThresholdSearch search;
  search.start = start;
  search.modes = model.modes();
  search.capacity = model.capacity;

  // The single vector: every one, or a descent from `start`.
  const std::int64_t count = threshold_policy_count(model.modes(), model.capacity);
  search.single_enumerated = count <= options.most_enumerated;
  if (search.single_enumerated) {
    tell(fmt::format("one threshold vector for the whole period: all {}", count));
    std::vector<Assignment> all;
    for (std::vector<int>& t : every_threshold_vector(model.modes(), model.capacity))
      all.push_back({std::move(t)});
    const std::vector<double> c = costs.costs(all);
    const std::size_t best = cheapest(c);
    search.single = all[best].front();
    search.single_cost = c[best];
  } else {
    tell("one threshold vector for the whole period: a descent from the mean arrivals' best");
    search.single = start;
    search.single_cost = costs.costs({{start}}).front();
    for (;;) {
      std::vector<Assignment> next;
      for (std::vector<int>& t : threshold_neighbours(search.single, model.capacity))
        next.push_back({std::move(t)});
      const std::vector<double> c = costs.costs(next);
      const std::size_t best = cheapest(c);
      if (!lowers(c[best], search.single_cost)) break;
      search.single = next[best].front();
      search.single_cost = c[best];
    }
  }

  // A vector per piece: one piece at a time, its neighbours tried with the others held.
  const std::size_t pieces = model.rhythm->pieces();
  search.by_piece.assign(pieces, search.single);
  search.by_piece_cost = search.single_cost;
  for (int sweep = 0; sweep < options.most_sweeps; ++sweep) {
    ++search.sweeps;
    tell(fmt::format("a vector per piece: pass {} over the {} pieces (cost {:.6g})", sweep + 1,
                     pieces, search.by_piece_cost));
    bool moved = false;
    for (std::size_t piece = 0; piece < pieces; ++piece) {
      std::vector<Assignment> next;
      for (std::vector<int>& t : threshold_neighbours(search.by_piece[piece], model.capacity)) {
        next.push_back(search.by_piece);
        next.back()[piece] = std::move(t);
      }
      if (next.empty()) continue;
      const std::vector<double> c = costs.costs(next);
      const std::size_t best = cheapest(c);
      if (!lowers(c[best], search.by_piece_cost)) continue;
      search.by_piece = next[best];
      search.by_piece_cost = c[best];
      ++search.moves;
      moved = true;
    }
    if (!moved) break;
  }
  search.policies_solved = costs.solved();
  return search;
}

}  // namespace crawlq::analytic
