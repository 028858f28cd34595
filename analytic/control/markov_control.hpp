#pragma once
// Optimal control over every stationary policy that sees the whole state: a continuous-time Markov
// decision process on the chain of section 3 whose action is the number of active robots, solved by
// policy iteration. Each evaluation solves c_pi + Q^pi h = g e (h = 0 at the empty state) with the
// sparse solvers of full_state_chain.hpp; each improvement picks, state by state, the robots that
// minimise c(x, r) + (Q^(r) h)(x), keeping the current robots on ties so that the iteration ends.
//
// The criterion is the long-run average of the cost rates of full_state_chain.hpp (the cost (2)
// without its sojourn term a V^(1), which is a ratio). For any h, min over x and r of
// c(x, r) + (Q^(r) h)(x) is a lower bound on the optimal gain (take the optimal policy's stationary
// vector): at the end of the iteration it certifies the gain.
#include <atomic>
#include <functional>
#include <vector>

#include "analytic/stationary/full_state_chain.hpp"

namespace crawlq::analytic {

struct MarkovControlOptions {
  // Added to the holding weight of every state (a stand-in for the sojourn term when searching a
  // policy for the whole criterion (2)).
  double extra_holding = 0;
  int max_steps = 200;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(int step, double gain)> progress;  // after each evaluation
  int threads = 1;  // inside each evaluation's solve: the same bits for any count
};

struct MarkovOptimum {
  std::vector<int> robots;  // the policy: robots in each state, in the chain's order
  double gain = 0;          // its long-run average cost rate
  double lower_bound = 0;   // certified: no policy does better
  int steps = 0;            // policy evaluations (the last one finds nothing to improve)
  bool converged = false;   // false: stopped (max_steps, cancelled, a solve failed); see `message`
  std::string message;
  std::vector<double> gains;  // after each evaluation: never increasing
};

// From `start` (robots per state; e.g. the best threshold policy's).
MarkovOptimum optimize_markov(const FullStateChain& chain, std::vector<int> start,
                              const MarkovControlOptions& options = {});

// The gain and bias of one policy: c_pi + Q^pi h = g e with h(pinned) = 0.
struct PolicyValue {
  double gain = 0;
  Eigen::VectorXd bias;
  bool solved = false;
  std::string message;
};
PolicyValue evaluate_markov(const FullStateChain& chain, const std::vector<int>& robots,
                            double extra_holding = 0, const Eigen::VectorXd* warm = nullptr,
                            const std::atomic<bool>* stop = nullptr, int threads = 1);

// c(x, r) + (Q^(r) h)(x) for every state and mode: [r-1](x).
std::vector<Eigen::VectorXd> bellman_values(const FullStateChain& chain,
                                            const Eigen::VectorXd& bias, double extra_holding = 0);

}  // namespace crawlq::analytic
