#pragma once
// The parts of Q's blocks (section 3) that no policy changes: the server and the clocks within a
// level, I_W (x) A_n; a page leaving, I_W (x) B_n (or B_n alone, for a controller that switches the
// environment on leaving); the clocks of new pages, gamma^(x)a. A policy search solves hundreds of
// policies of one model: built once and shared, these are no longer most of each small solve.
#include <Eigen/SparseCore>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "analytic/stationary/kronecker_terms.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

class PolicyFreeBlocks {
 public:
  // Nothing is built until first asked for.
  PolicyFreeBlocks(const model::Model& model, Eigen::Index environment_phases);

  Eigen::Index environment_phases() const { return w_; }
  // For a level >= 1 with n = level - 1 waiting pages.
  const Sparse& within(int level) const;         // I_W (x) A_n
  const Sparse& leaving(int level) const;        // I_W (x) B_n (I_W (x) S_0 with nobody waiting)
  const Sparse& leaving_alone(int level) const;  // B_n (S_0 with nobody waiting)
  const Sparse& gamma_power(int a) const;        // gamma^(x)a, a = 0 .. min(K, the longest batch)
  const Sparse& beta() const;                    // 1 x M

 private:
  void build() const;

  model::PhaseType service_;
  std::optional<model::PhaseType> obsolescence_;
  int capacity_, longest_batch_;
  Eigen::Index w_;
  mutable std::once_flag built_;
  mutable std::unique_ptr<KroneckerTerms> terms_;
  mutable std::vector<Sparse> within_, leaving_, leaving_alone_, gamma_powers_;
};

}  // namespace crawlq::analytic
