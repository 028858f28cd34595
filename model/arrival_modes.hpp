#pragma once
// The arrival process for every number of active robots: mode r (1..N) is a BMAP D_k^(r), all on
// the same phase space, so that switching robots on or off keeps the phase (section 2).
#include <vector>

#include "model/bmap.hpp"

namespace crawlq::model {

class ArrivalModes {
 public:
  // Throws InputError when the modes do not share one phase space.
  ArrivalModes(std::vector<Bmap> modes, const std::string& key_path = "arrivals");

  int modes() const { return static_cast<int>(modes_.size()); }
  int phases() const { return modes_.front().phases(); }
  // The largest batch of any mode.
  int max_batch() const;
  const Bmap& mode(int robots) const { return modes_.at(robots - 1); }

 private:
  std::vector<Bmap> modes_;
};

// Interpretation 1: robot l is its own BMAP; r active robots are robots 1..r, and the phase process
// of an inactive robot keeps running on D(1) without arrivals.
ArrivalModes independent_robots(const std::vector<Bmap>& robots);
// Interpretation 2: one BMAP whose batches are accepted with probability q_r under r robots.
ArrivalModes thinned(const Bmap& base, const std::vector<double>& accept);
// Interpretation 3 (BMMAP): common D_0 and marked batches D_k^(m) of robot m; batches of inactive
// robots become phase changes without arrivals. `marked[m][k-1]` is D_k of robot m+1.
ArrivalModes marked(const Matrix& d0, const std::vector<std::vector<Matrix>>& marked);
// D_k^(r) = f_r D_k for every k.
ArrivalModes scaled(const Bmap& base, const std::vector<double>& factors);

}  // namespace crawlq::model
