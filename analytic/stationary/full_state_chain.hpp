#pragma once
// The chain of section 3 under a policy that picks the robots in every state (a full-state policy,
// and the actions of the Markov decision process of optimal control). A state's outflow depends
// only on the mode in force there, so its row of the generator is its row under the constant policy
// of that mode: Q^pi = sum_r D_r Q^(r), D_r selecting the states that run r robots. The N constant
// generators are assembled once; a policy is a vector of robots in the states' order (that of
// StateSpace and `solve --export`).
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <atomic>
#include <string>
#include <vector>

#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/state_space.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// A x = b for a sparse square matrix stored by rows: a direct LU while the matrix is small,
// BiCGSTAB with a Jacobi preconditioner (from `guess` when given) beyond, its products and vector
// work shared by `threads` with the same bits for any count (parallel_bicgstab.hpp).
struct SparseSolution {
  Eigen::VectorXd x;
  bool solved = false;
  int iterations = 0;
  std::string message;
};
struct SparseSolveOptions {
  const Eigen::VectorXd* guess = nullptr;
  const std::atomic<bool>* stop = nullptr;  // checked once an iteration
  int threads = 1;
};
SparseSolution solve_sparse(const SparseMatrix& a, const Eigen::VectorXd& b,
                            const SparseSolveOptions& options = {});

class FullStateChain {
 public:
  // `threads` assemble the N constant generators side by side.
  explicit FullStateChain(const model::Model& model, int threads = 1);

  const model::Model& model() const { return model_; }
  const StateSpace& space() const { return space_; }
  Eigen::Index size() const { return space_.size(); }
  int modes() const { return static_cast<int>(constant_.size()); }

  // Q^(r): every state running r robots.
  const SparseMatrix& constant_generator(int robots) const {
    return constant_[static_cast<std::size_t>(robots - 1)];
  }
  // Q^pi for robots[x] in state x.
  SparseMatrix generator(const std::vector<int>& robots) const;
  // The rate of the cost (2)'s long-run-average terms in each state under r robots: c_loss times
  // the pages lost per unit time, c_obs times the pages expiring, c_rob r, c_star at level 0,
  // c_hold times the level. (The sojourn term a V^(1) is a ratio, not such a rate.)
  const Eigen::VectorXd& cost_rate(int robots) const {
    return cost_rate_[static_cast<std::size_t>(robots - 1)];
  }
  Eigen::VectorXd cost_rate(const std::vector<int>& robots) const;
  // weight times the level, in each state (a holding cost's rate).
  Eigen::VectorXd per_page(double weight) const;

  // The stationary vector under `robots` (warm: a previous one to start from), checked and with its
  // residual ||p Q||_1 as solve_stationary gives them; the method is sparse-lu while the chain is
  // small (solve_sparse), iterative beyond.
  StationaryResult stationary(const std::vector<int>& robots, const Eigen::VectorXd* warm = nullptr,
                              const std::atomic<bool>* stop = nullptr, int threads = 1) const;
  // Every measure of the stationary vector but the sojourn means and the cost.
  Measures measures(const std::vector<int>& robots, const Eigen::VectorXd& p) const;

  // The robots of a policy of another form, state by state (memory forms are not full-state).
  std::vector<int> robots_of(const model::Policy& levels) const;
  std::vector<int> robots_of(const model::PhaseAwarePolicy& table) const;

 private:
  model::Model model_;
  StateSpace space_;
  std::vector<SparseMatrix> constant_;
  // Per state: pages offered and lost per unit time under each mode; served and expired per unit
  // time (the same in every mode).
  std::vector<Eigen::VectorXd> offered_, lost_, cost_rate_;
  Eigen::VectorXd served_, expired_;
};

}  // namespace crawlq::analytic
