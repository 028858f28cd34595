#pragma once
// One stretch of time on one chain: from p, the sums of p and of its integral at given offsets,
// and p (and its integral as a vector) at the stretch's end. Transient analysis strings stretches
// together (an outage, then the serving chain); the periodic regime strings one per piece of a
// rhythm. Uniformisation or Krylov steps, as TransientOptions::method says.
#include <Eigen/Core>
#include <vector>

#include "analytic/transient/transient_chain.hpp"
#include "analytic/transient/transient_options.hpp"
#include "analytic/transient/transient_sums.hpp"

namespace crawlq::analytic {

struct Stretch {
  std::vector<TransientSums> at, area;  // one per offset
  double truncation_error = 0;
};

class StretchRunner {
 public:
  // `frozen`: how many states, from the first, make no move (the absorbing levels). The products
  // and the method taken are counted in `result`.
  StretchRunner(const TransientOptions& options, TransientResult& result, Eigen::Index frozen = 0)
      : options_(options), result_(result), frozen_(frozen) {}

  // p becomes p(end) when `end` > 0 (and is left as it is otherwise). With `area_at_end` (and
  // end > 0): the integral of p over [0, end], as a vector, is written there.
  Stretch run(const TransientChain& chain, Eigen::VectorXd& p, const std::vector<double>& offsets,
              double end, Eigen::VectorXd* area_at_end = nullptr);

 private:
  // y = x Q with the frozen states' mass held where it is (their rows zero) on `threads`;
  // `moving` is scratch.
  void apply_moving(const TransientChain& chain, const Eigen::VectorXd& x, Eigen::VectorXd& y,
                    Eigen::VectorXd& moving, int threads) const;
  // The Krylov basis's dimension when the stretch takes that method, 0 when it takes
  // uniformisation (whose products number about `uniform_products`).
  int krylov_dimension(double uniform_products, Eigen::Index states) const;
  void run_krylov(const TransientChain& chain, Eigen::VectorXd& p,
                  const std::vector<double>& offsets, double end, int dimension, Stretch& out,
                  Eigen::VectorXd* area_at_end);

  const TransientOptions& options_;
  TransientResult& result_;
  Eigen::Index frozen_;
};

}  // namespace crawlq::analytic
