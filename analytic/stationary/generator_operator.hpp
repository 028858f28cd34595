#pragma once
// The generator Q of the Lemma (section 3) applied to a row vector, y = x Q, straight from its
// small factors (D_k, S, beta, Gamma, gamma) without storing a single block. Stored, Q has about 50
// entries a state at K = 20 (each admitted batch of a pages fans out over R^a clock phases, each
// waiting clock moves and expires); applied from the factors, the arrivals are an outer product
// with gamma^(x)a, and the clocks of the waiting pages a recursion over the head clock that stays
// in cache once a sub-block fits there. Memory is the vectors; each entry of y is summed in an
// order fixed by the code, so the result is the same for any thread count.
#include <Eigen/Core>
#include <algorithm>
#include <vector>

#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/state_space.hpp"
#include "analytic/stationary/vector_clones.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

class GeneratorOperator {
 public:
  // `arrivals` must outlive this.
  GeneratorOperator(const model::Model& model, const ControlledArrivals& arrivals);

  const StateSpace& space() const { return space_; }
  // y = x Q, y already of the chain's size; `threads` split the work inside one level, never a sum.
  void apply(const double* x, double* y, int threads = 1) const;
  Eigen::VectorXd apply(const Eigen::VectorXd& x, int threads = 1) const;
  // z with (D + L) z = r for Q^T: D its diagonal, L the batches' moves up from lower levels (the
  // only ones), one forward sweep over the levels: a Gauss-Seidel preconditioner by level. The
  // `pinned` state's equation is pinned_scale z = r.
  void forward_sweep(const double* r, double* z, Eigen::Index pinned, double pinned_scale = 1,
                     int threads = 1) const;
  // z = M^-1 r for M = (D + L) D^-1 (D + U), a symmetric Gauss-Seidel preconditioner for Q^T in
  // the chain's order, without the clocks' moves inside a level: L holds the moves from earlier
  // states (the batches from lower levels; an arrival or service phase that moves to a later block
  // of the same level), U those from later states (the services ending one level up and the
  // expiries of its states' last swept_expiring_clocks clocks; a phase that moves to an earlier
  // block). One sweep up the levels, one back down. On the paper's example it takes 20 iterations
  // where forward_sweep takes 35 (K = 18), each sweep costing about half a product more. The
  // `pinned` state's row is pinned_scale z = r.
  void symmetric_sweep(const double* r, double* z, Eigen::Index pinned, double pinned_scale = 1,
                       int threads = 1) const;
  // The diagonal of Q: minus each state's total outflow rate, built on demand from the factors
  // (the operator keeps no vector of the chain's size).
  Eigen::VectorXd diagonal() const;
  // The smallest nonzero total outflow rate of a state (infinity when none leaves), without
  // building diagonal().
  double slowest_outflow() const;
  // diag(Q) of one piece of one block (or of any range inside it), from the factors: the entry q
  // of the piece is (base + high[q / run]) + low[q % run], with base the block's D(w, w) + S(s, s)
  // plus the piece's split clocks' sum of Gamma(c, c), high the middle clocks' sum and low the last
  // clocks' (at most kDiagonalRun entries, in cache). Read from a full vector, the diagonal was
  // one more vector streamed in every product and in each of the sweep's three passes. Public so
  // that a test can read a range that starts inside a run.
  struct DiagonalPiece {
    double base;
    const double* high;
    const double* low;
    Eigen::Index run;
    // body(begin, end, constant, low): the entries q in [begin, end) of [first, last) are
    // constant + low[q - begin].
    template <typename Body>
    CRAWLQ_INLINE_IN_CLONES void for_runs(Eigen::Index first, Eigen::Index last,
                                          Body&& body) const {
      while (first < last) {
        const Eigen::Index which = first / run, within = first % run;
        const Eigen::Index end = std::min(last, (which + 1) * run);
        body(first, end, base + high[which], low + within);
        first = end;
      }
    }
  };
  // How many leading clocks split a level's (arrival phase, service phase) blocks into pieces:
  // fixed by the level alone, so the pieces, and every sum, are the same for any thread count.
  // Public so that a test can show its fixture reaches the pieces.
  int split_clocks(int level) const;
  // How many of the last clocks of a level's states have their expiries in the symmetric sweep's
  // U: as many as fill kSweptExpiryEntries clock combinations, and at most the unsplit ones.
  int swept_expiring_clocks(int level) const;

 private:
  struct Level {
    Eigen::MatrixXd stay_off_diagonal;  // D_0 + lost batches, without its diagonal: W x W
    // [a-1]: batches that add a pages, a = 1..min(K - level, the longest batch); none add more.
    std::vector<Eigen::MatrixXd> admitting;
  };
  struct LevelDiagonal {
    std::vector<double> blocks;  // D(w, w) + S(s, s) by (arrival, service) block; level 0: D(w, w)
    std::vector<double> split;   // the split clocks' sum of Gamma(c, c), by piece
    std::vector<double> high;    // the middle clocks' sum, by run of the piece
    std::vector<double> low;     // the last clocks' sum, by entry of a run
  };
  void build_diagonal(int level, const Eigen::MatrixXd& stay);
  DiagonalPiece diagonal_piece(int level, int block, Eigen::Index piece) const;
  // body(begin, end, constant, low) over the entries [first, last) of one block of a level >= 1
  // (numbered inside the block), piece by piece and run by run: see DiagonalPiece.
  template <typename Body>
  CRAWLQ_INLINE_IN_CLONES void for_diagonal(int level, int block, Eigen::Index first,
                                            Eigen::Index last, Body&& body) const {
    const Eigen::Index piece_size = piece_span(level, 0).size;
    while (first < last) {
      const Eigen::Index piece = first / piece_size, start = piece * piece_size;
      const Eigen::Index end = std::min(last, start + piece_size);
      diagonal_piece(level, block, piece)
          .for_runs(
              first - start, end - start,
              [&](Eigen::Index begin, Eigen::Index stop, double constant, const double* low)
                  CRAWLQ_INLINE_IN_CLONES { body(begin + start, stop + start, constant, low); });
      first = end;
    }
  }
  // The same over every block of a level >= 1, the entries numbered from the level's first (a
  // serial pass: building the whole diagonal, or reading its extremes).
  template <typename Body>
  void for_level_diagonal(int level, Body&& body) const;
  // The diagonal of the entries [c0, c1) of one block, as the sweeps read it: body(begin, end,
  // constant, low) run by run, the entries numbered from c0.
  auto piece_diagonal(int level, int block, Eigen::Index c0, Eigen::Index c1) const {
    return [this, level, block, c0, c1](auto&& body) CRAWLQ_INLINE_IN_CLONES {
      for_diagonal(level, block, c0, c1,
                   [&](Eigen::Index begin, Eigen::Index end, double constant, const double* low)
                       CRAWLQ_INLINE_IN_CLONES { body(begin - c0, end - c0, constant, low); });
    };
  }
  void apply_level_zero(const double* x, double* y) const;
  // One piece of each (arrival, service) block of a level: the block's clock combinations, and the
  // piece's size and first entry inside the block.
  struct PieceSpan {
    Eigen::Index clocks, size, begin;
    Eigen::Index end() const { return begin + size; }
  };
  PieceSpan piece_span(int level, Eigen::Index piece) const;
  // Whether the sweeps share a level's pieces among threads (levels large enough to pay a barrier).
  bool sweeps_shared(int threads) const;
  // The symmetric sweep's steps for the M blocks of one arrival phase's piece: forward (services in
  // order) and backward (in reverse, `top` when nothing lies above and the level still holds y).
  // A piece's arrival phases go in order (in reverse) on one thread.
  CRAWLQ_VECTOR_CLONES void sweep_up(int level, int arrival, Eigen::Index piece, const double* r,
                                     double* z, Eigen::Index pinned, double pinned_scale) const;
  CRAWLQ_VECTOR_CLONES void sweep_down(int level, int arrival, Eigen::Index piece, double* z,
                                       bool top, bool convert_below, Eigen::Index pinned,
                                       double pinned_value) const;
  // The expiries of one piece of `level` (z final there) into its chunk of the level below, which
  // is first turned from y into -D y when `convert` (it has no other writer then): those of the
  // piece's last clocks only (kSweptExpiryEntries).
  CRAWLQ_VECTOR_CLONES void push_expiries(int level, int block, Eigen::Index piece, double* z,
                                          bool convert) const;
  // The expiries of a piece's split clocks (clocks 0..split-1, which the piece's number spells)
  // into its chunk below, gathered from the R pieces of the block `xb` with that clock put back.
  CRAWLQ_VECTOR_CLONES void add_split_expiries(int level, Eigen::Index piece, const double* xb,
                                               double* y_down) const;
  // The entries of y in one piece of one (arrival phase, service phase) block of a level >= 1 (the
  // block's states whose first split_clocks(level) clocks spell `piece`), and that piece's expiries
  // into the same piece of the block below (started before this level's turn).
  // `started`: started_from_above for this piece.
  CRAWLQ_VECTOR_CLONES void apply_piece(int level, int block, Eigen::Index piece, const double* x,
                                        double* y, const double* started) const;
  void apply_pieces(int level, int arrival, Eigen::Index piece, const double* x, double* y) const;
  CRAWLQ_VECTOR_CLONES void started_from_above(int level, int arrival, Eigen::Index piece,
                                               const double* x, double* started) const;
  // The same, for the sweeps' file: a function with clones is called from its own file only
  // (vector_clones.hpp).
  void started_from_above_for_sweeps(int level, int arrival, Eigen::Index piece, const double* x,
                                     double* started) const;
  void add_arrivals(int level, int block, Eigen::Index c0, Eigen::Index c1, const double* x,
                    double* yb) const;
  // The batches of 1..`nested` pages, whose fan-outs fit in the piece [c0, c1).
  CRAWLQ_VECTOR_CLONES void add_nested_arrivals(int level, int block, Eigen::Index c0,
                                                Eigen::Index c1, int nested, const double* x,
                                                double* yb) const;

  const ControlledArrivals& arrivals_;
  StateSpace space_;
  int w_, m_, r_;
  int longest_batch_ = 0;  // no batch adds more pages than this
  std::vector<Level> levels_;
  Eigen::MatrixXd service_;                  // S: M x M
  Eigen::VectorXd service_exit_;             // S_0
  Eigen::VectorXd service_start_;            // beta
  Eigen::MatrixXd clock_;                    // Gamma: R x R (zero when pages never expire)
  Eigen::VectorXd clock_exit_;               // Gamma_0
  std::vector<Eigen::VectorXd> new_clocks_;  // [a]: gamma^(x)a, a = 0..K
  std::vector<LevelDiagonal> diagonals_;     // [level]
};

}  // namespace crawlq::analytic
