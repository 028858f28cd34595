#pragma once
// The long run of a chain whose arrivals follow a rhythm (model/rhythm.hpp): not a stationary
// vector but a periodic one. Its value at the start of the period, x, is the fixed point of the
// period's map M = exp(Q_1 h) ... exp(Q_n h) (one transient stretch per piece, h the piece's
// length): x M = x. The measures are averages over the period and over each piece, the
// probabilities ratios of expected counts (lost pages / offered pages).
//
// The sojourn times are exact too: a page's journey after it is accepted depends only on the pages
// ahead of it, their clocks and the server, none of which the arrivals touch, so the tagged page's
// chain (section 5) is the same in every piece. Only where it starts changes with the clock: the
// state an arriving page finds, integrated over the piece (or the period) and weighted by the
// pages offered. Little's law over the period then holds as a check, not as the method.
#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/transient/transient_options.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

struct PeriodicOptions {
  int threads = 1;
  // ||x M - x||_1 at which x is taken as the fixed point.
  double residual_target = 1e-11;
  int most_periods = 20'000;  // applications of M before giving up (converged false)
  // How many iterates each extrapolation combines (reduced rank extrapolation: GMRES on x (I - M)
  // for a linear map); 0: plain iterations.
  int extrapolate_every = 8;
  const std::atomic<bool>* stop = nullptr;  // set from another thread: analytic::Cancelled
  TransientMethod method = TransientMethod::kAuto;
  // > 0: the most products x Q the whole computation may take (TooMuchTransientWork).
  double most_products = 0;
};

// Averages over one piece: the usual measures (rates per unit time; the probabilities as ratios of
// the piece's expected counts, so that p_obsolete is the pages gone stale during the piece over the
// pages offered during it, which may arrive in another piece: over a piece the three need not sum
// to 1, over the period they do), the sojourn means of the pages offered during the piece, and the
// cost (2) of the piece's averages.
struct PeriodicPiece {
  double start = 0, length = 0, scale = 1;
  Measures measures;
  std::vector<double> level_probabilities_at_start;
  double offered = 0, lost = 0, obsolete = 0, served = 0;  // expected pages during the piece
  // Of the pages offered during the piece, the share later served and the share gone stale (with
  // p_loss they sum to 1).
  double served_by_arrival = 0, obsolete_by_arrival = 0;
};

struct PeriodicRegime {
  Eigen::VectorXd start;  // x: the distribution at the period's start, chain_space's order
  Measures period;        // averages over the period, sojourn means and cost included
  std::vector<PeriodicPiece> pieces;
  // Where every page offered over the period starts in the tagged page's chain (per page offered):
  // the period's sojourn laws.
  Eigen::RowVectorXd arrival_start;
  double residual = 0;  // ||x M - x||_1
  bool converged = false;
  int periods = 0;         // applications of M, the final one (with the averages) included
  int extrapolations = 0;  // of them, those that started from an extrapolated iterate
  std::size_t products = 0;
  double truncation_error = 0;  // of the final period: the Poisson sums' omitted weight
  TransientMethod method = TransientMethod::kUniformisation;
};

// `policies`: piece i runs policies[i % size] (one for the whole period, one per piece, or a
// shorter list repeated), all over the same states; `guess`: where the iterations start (the
// stationary vector of the period's mean arrivals is a good one: the regime itself when the period
// is short, and a few periods from it when it is long).
// `tagged`: the tagged page's chain of the model (PolicyEvaluator::tagged_chain of any piece's).
PeriodicRegime periodic_regime(const model::Model& model,
                               const std::vector<model::ControlPolicy>& policies,
                               const Eigen::VectorXd& guess, const TaggedPageChain& tagged,
                               const PeriodicOptions& options);

// The model of piece `piece`: its arrivals scaled, no rhythm left.
model::Model piece_model(const model::Model& model, std::size_t piece);

}  // namespace crawlq::analytic
