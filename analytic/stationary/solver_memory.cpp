#include "analytic/stationary/solver_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <variant>

#include "analytic/sojourn/krylov_absorption.hpp"
#include "analytic/transient/transient_options.hpp"
#include "model/simulation_policy.hpp"

namespace crawlq::analytic {

double environment_phases(const model::Model& model) {
  const bool remembers =
      model.policy && (std::holds_alternative<model::MemoryPolicy>(*model.policy) ||
                       std::holds_alternative<model::HysteresisPolicy>(*model.policy));
  return model.arrivals.phases() * (remembers ? model.modes() : 1.0);
}

// The block recursion (and the QBD recursion, which keeps the same level factors): dense level
// factors.
MemoryEstimate block_recursion_memory(const model::Model& model) {
  const double w = environment_phases(model);
  const double m = model.service.phases();
  const double r = model.obsolescence ? model.obsolescence->phases() : 1;
  MemoryEstimate e;
  double level = w, top = w, below_top = 0, all_levels = w, factors = 0;
  for (int k = 1; k <= model.capacity; ++k) {
    below_top = level;
    level = k == 1 ? w * m : level * r;
    all_levels += level;
    // Each level keeps its factorised diagonal block and G_{k-1}.
    factors += level * level + level * below_top;
    top = level;
  }
  e.states = all_levels;
  // Level factors, two dense top-level blocks being formed, and sparse blocks/vectors (~40 doubles
  // a state for the generator, the tagged chain and its factorisation).
  e.bytes = 8.0 * (factors + 2.0 * top * top + 40.0 * all_levels);
  return e;
}

// The iterative solver applies Q from its factors, and the sojourn times and transients the chains
// they need from theirs, so a solve holds vectors alone: per state of the chain (S) and of the
// tagged page's chain (T, one for every W of the chain's) at the peak of whichever part runs (the
// stationary solve: BiCGSTAB's eight and the residual's product; the sojourn times: the stationary
// vector, the fates' moment vectors and the uniformisation's; the transients: theirs and the
// stationary vector). Peaks measured on 2026-12-07 (`crawlq solve --json --full-chain`, less the
// process's 15 MB), in bytes a state of the chain:
// - the paper's example (T = S / 2), K = 22 and 24: 67 plain or with --sojourn, 78 with --times;
// - one arrival and one service phase (T = S), K = 22: 98 plain, 113 with --sojourn, 129 with
//   --times;
// - the paper's example with a service phase at 3 x 10^5 (stiff: Krylov steps), K = 18: 75 with
//   --sojourn and 94 with --times beside the Krylov basis; at K = 15, 109 with --times.
// kBytesPerState S + kBytesPerTaggedState T bounds each by a third or more. A stiff chain's Krylov
// steps add a basis of up to 30 vectors: the transients' within kKrylovBytes on the chain, the
// sojourn laws' within kAbsorptionKrylovBytes on the tagged chain; the larger is counted.
// (Before, 128 S + 160 T, counting sixteen vectors of an older solver and twenty of the tagged
// chain's but no basis: 3.2 times the peak at K = 24, whose 4.5 GB were refused on a 16 GB
// machine, and short of a stiff transient's at K = 18.)
MemoryEstimate iterative_memory(const model::Model& model) {
  constexpr double kBytesPerState = 110, kBytesPerTaggedState = 80;
  MemoryEstimate e = block_recursion_memory(model);
  const double tagged_states = e.states / environment_phases(model);
  const double transient_basis = std::min(kKrylovBytes, 8.0 * kKrylovDimension * e.states);
  const double sojourn_basis =
      std::min(kAbsorptionKrylovBytes, 8.0 * kAbsorptionKrylovDimension * (tagged_states + 2));
  e.bytes = kBytesPerState * e.states + kBytesPerTaggedState * tagged_states +
            std::max(transient_basis, sojourn_basis);
  return e;
}

// UMFPACK's LU of the assembled generator: its fill in a block upper-Hessenberg matrix reaches the
// dense level blocks the recursion keeps, and the factors come with index arrays and a workspace of
// their size, so twice the recursion's need.
MemoryEstimate sparse_lu_memory(const model::Model& model) {
  MemoryEstimate e = block_recursion_memory(model);
  e.bytes *= 2;
  return e;
}

MemoryEstimate adjoint_memory(const model::Model& model) {
  MemoryEstimate e = iterative_memory(model);
  e.bytes += 2400.0 * e.states;
  return e;
}

MemoryEstimate markov_control_memory(const model::Model& model) {
  // The chain of section 3 itself (a full-state policy adds no state): W (1 + M (1 + R + ... +
  // R^(K-1))).
  const long long states =
      model::chain_states(model.capacity, model.arrivals.phases(), model.service.phases(),
                          model.obsolescence ? model.obsolescence->phases() : 1);
  MemoryEstimate e;
  e.states = states > 0 ? static_cast<double>(states) : std::ldexp(1.0, 41);  // 0: beyond 2^40
  e.bytes = e.states * (600.0 * model.modes() + 1000.0);
  return e;
}

namespace {

// A cgroup v2 memory.max ("max", absent or unreadable: no limit, 0).
double cgroup_memory_limit() {
  std::ifstream in("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  char* end = nullptr;
  const double bytes = std::strtod(text.c_str(), &end);
  return end != text.c_str() && bytes > 0 ? bytes : 0;
}

}  // namespace

double physical_memory_bytes() {
  // A container's or `ulimit -v`'s limit ends a solve with an allocation failure long before the
  // machine's memory would: the estimate is checked against the least of them.
  double bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (const double cgroup = cgroup_memory_limit(); cgroup > 0) bytes = std::min(bytes, cgroup);
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  return bytes;
}

double available_memory_bytes() { return 0.8 * physical_memory_bytes(); }

}  // namespace crawlq::analytic
