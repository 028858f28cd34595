#pragma once
// An independent brute force for the chain xi_t = {i, nu, m, r^(1), ..., r^(i-1)} of section 3:
// every state is written out and the model's rules (arrivals, admission, service, obsolescence) are
// applied to it one by one. It never uses the Lemma's Kronecker blocks nor analytic/, so that a
// shared misreading of the Lemma cannot pass the crosscheck. Dense and slow on purpose: small
// models only.
#include <Eigen/Dense>
#include <functional>
#include <map>
#include <vector>

#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::crosscheck {

struct ChainState {
  int level = 0;
  int arrival_phase = 0;
  int service_phase = 0;    // 0 at level 0, where no page is served
  std::vector<int> clocks;  // clock phase of each waiting page, head of the queue first
  int robots = 0;           // active in this state
  auto operator<=>(const ChainState&) const = default;
};

// How the robots are chosen after each move of the chain, written from each policy form's rule:
// from the state reached (its `robots` still those of the state left) and the state left.
struct Controller {
  std::function<int(const ChainState& reached, const ChainState& left)> decide;
  bool remembers = false;  // the robots in force are a state variable of their own
  // A full-state table: robots by the state's place in the enumeration (level, then arrival
  // phase, service phase, clocks head first: the order of `solve --export`); `decide` unused.
  std::vector<int> table = {};
};
Controller controller_for(const model::ControlPolicy& policy);

// The stationary measures of section 4, each computed from per-state event rates.
struct ChainMeasures {
  double lambda = 0;  // pages offered per unit time
  double p_loss = 0;
  double p_obsolete = 0;
  double p_served = 0;
  double p_starvation = 0;
  double mean_active_robots = 0;
  double mean_in_system = 0;
  double mean_in_queue = 0;
  std::vector<double> level_probabilities;  // levels 0..K
  std::vector<double> mode_probabilities;   // entry r-1 for r robots
};

// The phase-type laws of the model with obsolescence made explicit: absent obsolescence is one
// clock phase that never expires, so a waiting page always carries a clock.
struct PageLaws {
  explicit PageLaws(const model::Model& model);
  int service_phases() const { return static_cast<int>(beta.size()); }
  int clock_phases() const { return static_cast<int>(gamma.size()); }

  Eigen::RowVectorXd beta, gamma;
  Eigen::MatrixXd s, clock;                  // S and Gamma
  Eigen::VectorXd service_exit, clock_exit;  // S_0 and Gamma_0, computed as -(row sums)
};

class BruteForceChain {
 public:
  // `stationary`: solve for the long run (a chain without one, such as an outage's, says false).
  BruteForceChain(const model::Model& model, const model::ControlPolicy& policy,
                  bool stationary = true);

  Eigen::Index size() const { return static_cast<Eigen::Index>(states_.size()); }
  const std::vector<ChainState>& states() const { return states_; }
  // Throws std::out_of_range for a state outside the chain.
  Eigen::Index index(const ChainState& state) const { return index_.at(state); }

  const Eigen::MatrixXd& generator() const { return q_; }
  const Eigen::VectorXd& probabilities() const { return p_; }
  const ChainMeasures& measures() const { return measures_; }
  // The same sums over any vector (no normalisation: an integrated vector gives expected counts).
  ChainMeasures measures_of(const Eigen::VectorXd& p) const;
  // ||p Q||_1 of the dense solution.
  double residual() const;
  const PageLaws& laws() const { return laws_; }

 private:
  // Per-state event rates: the measures are p times these.
  struct Flows {
    double offered = 0, lost = 0, served = 0, expired = 0;
  };

  void enumerate_states();
  void add_rate(Eigen::Index from, const ChainState& to, double rate);
  void add_arrivals(Eigen::Index from, const ChainState& state, std::vector<Flows>& flows);
  void add_service(Eigen::Index from, const ChainState& state, std::vector<Flows>& flows);
  void add_clocks(Eigen::Index from, const ChainState& state, std::vector<Flows>& flows);
  void solve();

  const model::Model& model_;
  Controller controller_;
  PageLaws laws_;
  std::vector<ChainState> states_;
  std::map<ChainState, Eigen::Index> index_;
  std::map<ChainState, std::size_t> ordinal_;  // of each state without its robots, for a table
  Eigen::MatrixXd q_;
  std::vector<Flows> flows_;
  Eigen::VectorXd p_;
  ChainMeasures measures_;
};

// Every way of drawing `count` fresh phases independently from `initial`: each outcome with its
// probability (outcomes of probability zero left out).
std::vector<std::pair<std::vector<int>, double>> phase_draws(const Eigen::RowVectorXd& initial,
                                                             int count);

// The cost criterion (2) written out from its definition.
double brute_force_cost(const model::Costs& costs, const ChainMeasures& measures,
                        double mean_sojourn_served);

}  // namespace crawlq::crosscheck
