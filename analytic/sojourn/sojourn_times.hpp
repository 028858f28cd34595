#pragma once
// Sojourn times of accepted, served and obsolete pages (section 5): means (Corollary 1), transforms
// (Theorem 4), distribution functions and quantiles. The tagged page's law is phase-type
// (alpha, T), so its distribution function is computed exactly by uniformisation, or, where that
// would take too many products (a stiff chain), by Krylov steps to a set tolerance.
#include <Eigen/Core>
#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

#include "analytic/adaptive_threads.hpp"
#include "analytic/sojourn/krylov_absorption.hpp"
#include "analytic/sojourn/tagged_page_chain.hpp"
#include "model/name_table.hpp"

namespace crawlq::analytic {

// How the distribution functions are computed. Automatic: uniformisation unless the fastest rate
// times the sojourn's reach (the mean plus ten standard deviations of the slowest fate) passes
// kKrylovReach. The nine quantiles took as long either way near 2,700 at K = 12 and K = 16, and
// 1.5 times as long by uniformisation at 5,300 (`sojourn_at_scale --fast F --law-method m`).
enum class LawMethod { kAutomatic, kUniformisation, kKrylov };
inline constexpr double kKrylovReach = 5e3;
inline constexpr model::NameTable<LawMethod, 3> kLawMethodNames{
    "law method",
    {{{LawMethod::kAutomatic, "automatic"},
      {LawMethod::kUniformisation, "uniformisation"},
      {LawMethod::kKrylov, "krylov"}}}};
inline std::string_view law_method_name(LawMethod method) { return kLawMethodNames.name(method); }

class SojournTimes {
 public:
  // `start` from TaggedPageChain::arrival_distribution; `chain` must outlive this object.
  SojournTimes(const TaggedPageChain& chain, Eigen::RowVectorXd start);

  // P(fate) for an arriving page: P_served (15), P_obs (14); accepted = 1 - P_loss.
  double probability(PageFate fate) const;
  // Conditional on the fate; 0 when the fate has probability 0.
  double mean(PageFate fate) const;  // (23), (24); over accepted pages (22) divided by 1 - P_loss
  double standard_deviation(PageFate fate) const;
  double transform(PageFate fate, double u) const;  // v(u) of (16)-(18), conditional on the fate
  double cdf(PageFate fate, double x) const;
  // The smallest x with cdf(x) >= level, to a relative 1e-10.
  double quantile(PageFate fate, double level) const;
  // Before the first cdf or quantile: a method other than the automatic choice.
  void set_law_method(LawMethod method) { method_ = method; }
  // The method the distribution functions use (automatic resolved).
  LawMethod law_method() const;
  // Set from another thread: the distribution functions' products stop with analytic::Cancelled.
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }

 private:
  // P(tau <= x, fate) = sum_n P(Poisson(qx) > n) alpha P^n t / q with P = I + T/q.
  double joint_cdf(PageFate fate, double x) const;
  void extend_terms(std::size_t count) const;
  // The largest x whose distribution function `terms` terms give (to the Poisson tail's bound).
  double farthest_reach(std::size_t terms) const;
  // moments_[*][k], two passes over the chain: accepted is served plus obsolete.
  void take_moments(int k) const;
  // Zeroes the top blocks of alpha P^n while their mass is negligible, so products skip them.
  void drop_negligible_blocks() const;
  // Over the active blocks' pieces: alpha P^n += the product / q when `add_product`, then each
  // piece's obsolescence rate and mass (shared among `threads`).
  void sweep(bool add_product, int threads) const;

  struct Piece {
    Eigen::Index begin, end;
    int ahead;  // its block: -1 in service, else the pages ahead
  };

  const TaggedPageChain& chain_;
  Eigen::RowVectorXd start_;
  // alpha (-T)^{-(k+1)} t_fate for k = 0, 1, 2 by fate: each a pass over the chain, which every
  // distribution function of a quantile's bisection would otherwise repeat; k = 2 on first use.
  mutable double moments_[3][3] = {};
  mutable bool third_moments_taken_ = false;
  double uniformisation_rate_;
  mutable std::vector<double> terms_[3];  // alpha P^n t_fate / q for n = 0, 1, ...
  mutable Eigen::RowVectorXd power_;      // alpha P^n for the next n
  mutable Eigen::RowVectorXd product_;    // alpha P^n T
  mutable int most_ahead_;                // power_ is zero beyond the block with this many ahead
  std::vector<Piece> pieces_;             // in order, block by block
  mutable std::vector<double> obsolete_parts_, mass_parts_;  // by piece, of power_
  // The probability of the less likely fate of the two that occur: what the dropped blocks' mass
  // and the Krylov steps' tolerance are measured against.
  double least_likely_ = 1;
  // Up to the chain's threads, a product and its sweep at a time.
  mutable AdaptiveThreads threads_;
  LawMethod method_ = LawMethod::kAutomatic;
  const std::atomic<bool>* stop_ = nullptr;
  mutable std::unique_ptr<KrylovAbsorption> krylov_;  // made on first use
  // Beyond the slowest fate's mean plus ten standard deviations: where the quantiles lie.
  double reach() const;
};

}  // namespace crawlq::analytic
