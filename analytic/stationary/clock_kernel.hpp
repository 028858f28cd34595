#pragma once
// The clocks of n waiting pages (head first, most significant), applied from Gamma and Gamma_0
// alone: the inner loop of both the stationary operator (generator_operator.hpp) and the tagged
// page's chain (tagged_page_operator.hpp). A block holds R^n clock combinations, each followed by
// `trailing` entries that the clocks carry along (the tagged page's own clock, which never moves
// down).
#include <Eigen/Core>

namespace crawlq::analytic {

class ClockKernel {
 public:
  // Both must outlive the kernel.
  ClockKernel(const Eigen::MatrixXd& gamma, const Eigen::VectorXd& gamma_exit);

  // y_same += x (Gamma^(+)n without its diagonal) (x) I_trailing; y_down += x Gamma_0^(+)n (x)
  // I_trailing: a page expiring lands in the block with one clock fewer, the others kept in order.
  void apply(const double* x, double* y_same, double* y_down, int n,
             Eigen::Index trailing = 1) const;
  // The expiries of `apply` alone: y_down += x Gamma_0^(+)n (x) I_trailing (the symmetric sweep's
  // moves down, whose moves inside a block it leaves out).
  void expire(const double* x, double* y_down, int n, Eigen::Index trailing = 1) const;
  // The column form of y_down: r += (Gamma_0^(+)n (x) I_trailing) x_down, where x_down is over the
  // block with one clock fewer (the rates of every way of leaving into each state below).
  void gather_down(const double* x_down, double* r, int n, Eigen::Index trailing = 1) const;
  // How many clocks `apply` takes in its first pass over a block of `n` clocks: two where the
  // clocks have two phases, else one.
  int clocks_per_pass(int n) const { return r_ == 2 && n >= 2 ? 2 : 1; }
  // What `apply` does first over a block of `size` entries: the head clocks' moves and expiries
  // (clocks_per_pass of them), for the columns [begin, end) of their phase combinations
  // (size / R^clocks entries apart), so that threads may share the pass; `apply` then goes on
  // sub-block by sub-block, each with that many clocks fewer. The same sums in the same order as
  // `apply`: the same bits however the passes are cut.
  void first_pass(const double* x, double* y_same, double* y_down, Eigen::Index size, int clocks,
                  Eigen::Index begin, Eigen::Index end) const;

 private:
  // The recursion apply, expire and gather_down share, so that each entry gathers its terms in
  // the same order in all three: step(outer, inner, at, below) applies one clock, `at` the offset
  // of the current sub-block, `below` that of its block with one clock fewer. Flat once the block
  // is in L1; else the head clock over the whole block, then each head phase's sub-block.
  // pair(outer, inner, at, below), where the clocks have two phases, applies clock k with those
  // outer and inner and clock k + 1 inside it, in one pass; NoPair takes one clock at a time.
  struct NoPair {
    void operator()(Eigen::Index, Eigen::Index, Eigen::Index, Eigen::Index) const {}
  };
  template <typename Step, typename Pair>
  void walk(int n, Eigen::Index trailing, Eigen::Index at, Eigen::Index below, const Step& step,
            const Pair& pair) const;
  // The clock with `outer` combinations before it and `inner` entries after it.
  void one_clock(const double* x, double* y_same, double* y_down, Eigen::Index outer,
                 Eigen::Index inner, Eigen::Index begin, Eigen::Index end) const;
  void one_clock_expiries(const double* x, double* y_down, Eigen::Index outer,
                          Eigen::Index inner) const;
  void one_clock_gather(const double* x_down, double* r, Eigen::Index outer,
                        Eigen::Index inner) const;

  const Eigen::MatrixXd& gamma_;
  const Eigen::VectorXd& exit_;
  int r_;
};

}  // namespace crawlq::analytic
