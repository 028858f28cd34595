#include "analytic/stationary/method_choice.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "analytic/stationary/solver_memory.hpp"

namespace crawlq::analytic {

namespace {

// Breadth-first distances over the edges i -> j with edge(i, j), from every start at 0; -1 where
// none leads.
template <typename Edge>
std::vector<int> distances(int size, const std::vector<int>& starts, Edge edge) {
  std::vector<int> d(static_cast<std::size_t>(size), -1);
  std::deque<int> queue;
  for (int s : starts) d[static_cast<std::size_t>(s)] = 0, queue.push_back(s);
  while (!queue.empty()) {
    const int i = queue.front();
    queue.pop_front();
    for (int j = 0; j < size; ++j)
      if (d[static_cast<std::size_t>(j)] < 0 && edge(i, j)) {
        d[static_cast<std::size_t>(j)] = d[static_cast<std::size_t>(i)] + 1;
        queue.push_back(j);
      }
  }
  return d;
}

int farthest(const std::vector<int>& d) {
  // A phase nothing reaches counts as the whole law's length: the estimate stays on the safe side.
  int most = 0;
  for (int x : d) most = std::max(most, x < 0 ? static_cast<int>(d.size()) : x);
  return most;
}

// How far the arrival phases are apart: the farthest phase from phase 0 and back, under the union
// of every mode's phase changes (within twice the graph's diameter).
int arrival_reach(const model::ArrivalModes& arrivals) {
  const int w = arrivals.phases();
  if (w == 1) return 0;
  model::Matrix moves = model::Matrix::Zero(w, w);
  for (int r = 1; r <= arrivals.modes(); ++r) moves += arrivals.mode(r).generator().cwiseAbs();
  const auto forward = [&](int i, int j) { return i != j && moves(i, j) > 0; };
  const auto backward = [&](int i, int j) { return i != j && moves(j, i) > 0; };
  return farthest(distances(w, {0}, forward)) + farthest(distances(w, {0}, backward));
}

}  // namespace

int absorption_depth(const model::PhaseType& law) {
  const int m = law.phases();
  const model::Matrix& s = law.subgenerator();
  std::vector<int> exits;
  for (int i = 0; i < m; ++i)
    if (law.exit_rates()(i) > 0) exits.push_back(i);
  // Backwards from the phases that leave: j is one step further than i when j moves to i.
  const std::vector<int> d =
      distances(m, exits, [&](int i, int j) { return i != j && s(j, i) > 0; });
  return farthest(d) + 1;
}

int krylov_reach(const model::Model& model) {
  int reach = std::max(model.capacity, absorption_depth(model.service));
  if (model.obsolescence) reach = std::max(reach, absorption_depth(*model.obsolescence));
  return std::max(reach, arrival_reach(model.arrivals));
}

double recursion_work(const model::Model& model) {
  // Level 0 holds W states, level k >= 1 holds W M R^(k-1): a geometric sum of cubes.
  const double w = environment_phases(model);
  const double m = model.service.phases();
  const double r = model.obsolescence ? model.obsolescence->phases() : 1;
  const double first = std::pow(w * m, 3), ratio = r * r * r, k = model.capacity;
  const double levels = ratio == 1 ? k : (std::pow(ratio, k) - 1) / (ratio - 1);
  return w * w * w + first * levels;
}

double iterative_work(const model::Model& model) {
  const double states = block_recursion_memory(model).states;
  const double factors = environment_phases(model) + model.service.phases() +
                         (model.obsolescence ? model.obsolescence->phases() : 1);
  const double iterations = std::max(kTypicalIterations, kIterationsPerStep * krylov_reach(model));
  return 5.0 * iterations * states * factors;
}

Method automatic_method(const model::Model& model) {
  // Below a few thousand states the direct recursion costs nothing and needs no convergence. With
  // small levels (a clock of one phase, or none: a long buffer) its dense work is linear in K,
  // while a Krylov method needs more iterations the longer the chain
  // (benchmarks/solve_by_capacity). Where the levels grow with K (the clocks' R^(K-1)) BiCGSTAB is
  // faster, unless the chain's long paths of phases make it slower than a factorisation: then
  // sparse LU, whose fill in such sparse laws stays far below the recursion's dense levels.
  if (block_recursion_memory(model).states <= 2000) return Method::kBlockRecursion;
  const double direct = recursion_work(model);
  if (direct <= kLargestRecursionWork) return Method::kBlockRecursion;
  return iterative_work(model) > direct ? Method::kSparseLu : Method::kIterative;
}

}  // namespace crawlq::analytic
