#pragma once
// Threshold policies for a scenario whose arrivals follow a rhythm, judged by the cost (2) of the
// periodic regime over the whole period (analytic/transient/periodic_regime.hpp): the best single
// threshold vector for every piece, then a vector per piece by a coordinate search over the
// pieces that starts from it, so the per-piece answer never costs more. The difference is what
// following the clock is worth.
#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

struct PeriodicSearchOptions {
  int threads =
      0;  // candidates solved side by side (0: every core); the answer does not depend on it
  const std::atomic<bool>* stop = nullptr;  // set from another thread: analytic::Cancelled
  // Up to this many threshold vectors the single vector is found by enumeration; beyond, by a
  // descent over threshold_neighbours from `start`.
  std::int64_t most_enumerated = 400;
  int most_sweeps = 25;  // passes over the pieces of the per-piece search
  std::function<void(const std::string&)> progress = {};  // a line per stage
};

struct PeriodicThresholdSearch {
  int modes = 1, capacity = 1;  // N and K, which the vectors are over
  std::vector<int> start;       // the descent's start: the mean arrivals' best vector
  std::vector<int> single;      // the best one vector for the whole period
  double single_cost = 0;
  bool single_enumerated = false;          // every vector tried (else a local descent)
  std::vector<std::vector<int>> by_piece;  // one vector per piece
  double by_piece_cost = 0;
  int sweeps = 0;                    // passes over the pieces
  int moves = 0;                     // improving changes of one piece's vector
  std::int64_t policies_solved = 0;  // periodic regimes computed, each assignment once
};

// `guess`: where each periodic regime's iterations start (the mean arrivals' stationary vector
// under `start`); `start`: the descent's first vector when the single vector is not enumerated.
// Moves are taken only when they lower the cost by more than a relative 1e-10, the first on ties,
// so the result is the same for any thread count. Throws std::runtime_error when a periodic regime
// does not settle, Cancelled when `stop` is set.
PeriodicThresholdSearch optimize_periodic_thresholds(const model::Model& model,
                                                     const TaggedPageChain& tagged,
                                                     const Eigen::VectorXd& guess,
                                                     const std::vector<int>& start,
                                                     const PeriodicSearchOptions& options = {});

}  // namespace crawlq::analytic
