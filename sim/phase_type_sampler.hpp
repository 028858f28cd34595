#pragma once
// Draws phase-type times (alpha, T) by walking the phases to absorption: the service time of a page
// when it enters service, the obsolescence time of a page when it enters the buffer. This is the
// simulator's hottest code: the tables are flat, and a phase whose only way on is absorption (as in
// a hyperexponential law) skips the choice. A law whose every phase is left for absorption at the
// same rate c is exponential with rate c, whatever its start and its moves between phases (the
// phases lump into one), and is drawn as such: one draw where the walk took two a phase visited.
// A two-phase law with moves between its phases is drawn from its canonical acyclic form (Cumani
// 1982): a fast phase at the larger eigenvalue of -T, entered first with probability 1 - p or after
// a slow phase at the smaller one, where p = 1 - alpha t / lambda_fast gives the same Laplace
// transform. One uniform and one or two exponentials, where the walk took a uniform and an
// exponential a phase visited. The walk skips the choice at a phase that only ever moves to one
// other (every phase of an Erlang law but its last): an exponential a phase there.
#include <vector>

#include "model/phase_type.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

class PhaseTypeSampler {
 public:
  explicit PhaseTypeSampler(const model::PhaseType& law);

  double sample(RandomStream& random) const {
    if (lumped_mean_ > 0) return random.unit_exponential() * lumped_mean_;
    if (fast_mean_ > 0) {
      double time = random.unit_exponential() * fast_mean_;
      if (random.uniform() < slow_first_) time += random.unit_exponential() * slow_mean_;
      return time;
    }
    int phase = start_single_ >= 0 ? start_single_ : pick(start_, 0, phases_, random.uniform());
    double time = 0;
    while (true) {
      const Phase& p = table_[phase];
      time += random.unit_exponential() * p.mean_sojourn;
      if (p.absorbs_surely) return time;
      if (p.surely_to >= 0) {
        phase = p.surely_to;
        continue;
      }
      const int next = pick(jump_cumulative_, p.offset, phases_ + 1, random.uniform());
      if (next == phases_) return time;
      phase = next;
    }
  }

 private:
  struct Phase {
    double mean_sojourn;  // 1 / -T_ii
    int offset;           // of its row in jump_cumulative_
    bool absorbs_surely;  // no transition to another phase
    int surely_to;        // the one phase it moves to where it never exits (an Erlang's), else -1
  };
  // The index of the first cumulative probability above u: counted rather than searched, so that
  // the choice costs no mispredicted branch (the walk's length is random enough already).
  static int pick(const std::vector<double>& cumulative, int offset, int count, double u) {
    int i = 0;
    for (int j = 0; j + 1 < count; ++j) i += u >= cumulative[offset + j];
    return i;
  }
  int phases_;
  double lumped_mean_ = 0;  // 1 / c when every phase exits at rate c, else 0
  // The canonical form of a two-phase law with moves (fast_mean_ 0 when not drawn by it): the
  // phases' means and the chance to start in the slow one.
  double fast_mean_ = 0, slow_mean_ = 0, slow_first_ = 0;
  int start_single_ = -1;  // the start phase when alpha is a unit vector
  std::vector<double> start_;
  std::vector<Phase> table_;
  // Per phase: cumulative probabilities of the next phase 0..n-1, then absorption.
  std::vector<double> jump_cumulative_;
};

}  // namespace crawlq::sim
