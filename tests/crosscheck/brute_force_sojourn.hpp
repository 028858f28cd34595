#pragma once
// The sojourn time of a tagged page (section 5) by brute force: its own absorbing chain, written
// out state by state from the rules, started from the arrival-Palm law of the stationary
// brute-force chain. Pages behind the tagged page never matter (FIFO), so only the pages ahead are
// tracked.
#include <Eigen/Dense>
#include <map>
#include <string>
#include <vector>

#include "tests/crosscheck/brute_force_chain.hpp"

namespace crawlq::crosscheck {

enum class Fate { kAccepted, kServed, kObsolete };

struct TaggedState {
  bool waiting = false;    // false: the tagged page is in service
  int service_phase = 0;   // of the page in service (the tagged page itself when not waiting)
  std::vector<int> ahead;  // clocks of the pages ahead of it in the queue, head first
  int own_clock = 0;       // meaningless while in service
  auto operator<=>(const TaggedState&) const = default;
};

class BruteForceSojourn {
 public:
  // `occupancy`: the time spent in each of `chain`'s states over a stretch (a periodic regime's
  // piece), whose arriving pages start the tagged chain in place of the stationary vector's.
  BruteForceSojourn(const model::Model& model, const BruteForceChain& chain,
                    const Eigen::VectorXd* occupancy = nullptr);

  Eigen::Index size() const { return static_cast<Eigen::Index>(states_.size()); }
  // P(fate | a page arrives); the accepted fate gives 1 - P_loss.
  double probability(Fate fate) const;
  // E[tau | fate]; 0 when the fate has probability 0.
  double mean(Fate fate) const;
  // P(tau <= x | fate), by a dense matrix exponential.
  double cdf(Fate fate, double x) const;
  // sqrt(E[tau^2 | fate] - E[tau | fate]^2), E[tau^2; fate] = 2 alpha (-T)^{-3} t_fate.
  double standard_deviation(Fate fate) const;
  // E[e^{-u tau} | fate] = alpha (uI - T)^{-1} t_fate / P(fate), by a dense LU.
  double transform(Fate fate, double u) const;

 private:
  void enumerate_states(int capacity);
  void add_rate(Eigen::Index from, const TaggedState& to, double rate);
  void build_subgenerator();
  void build_start(const model::Model& model, const BruteForceChain& chain,
                   const Eigen::VectorXd& occupancy);
  // Where a page accepted at position `position` of a batch arriving in `state` starts.
  void add_start(const ChainState& state, int position, double weight);
  Eigen::VectorXd exit(Fate fate) const;

  PageLaws laws_;
  std::vector<TaggedState> states_;
  std::map<TaggedState, Eigen::Index> index_;
  Eigen::MatrixXd t_;  // transitions among transient states
  Eigen::VectorXd served_exit_, obsolete_exit_;
  Eigen::RowVectorXd start_;     // sums to 1 - P_loss
  Eigen::MatrixXd fundamental_;  // (-T)^{-1}
};

// Every scalar measure of `chain` by its key in `solve --json`, the sojourn means by the
// brute-force tagged page and the cost written out from its definition.
std::map<std::string, double> brute_force_scalar_measures(const model::Model& model,
                                                          const BruteForceChain& chain);

}  // namespace crawlq::crosscheck
