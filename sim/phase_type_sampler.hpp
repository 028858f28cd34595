#pragma once
// Draws phase-type times (alpha, T): the service time of a page when it enters service, the
// obsolescence time of a page when it enters the buffer. This is the simulator's hottest code, and
// each law is drawn the way that takes fewest random numbers on average:
// - a law whose every phase is left for absorption at the same rate c is exponential with rate c,
//   whatever its start and its moves between phases (the phases lump into one): one exponential;
// - otherwise from its canonical series form (model/series_form.hpp), where it has one: the last,
//   fastest phase's exponential, a uniform for the phase the series starts in (none where it has
//   one start), and an exponential a phase from there to the last;
// - or by walking the phases to absorption: a uniform for the start and, for each phase visited,
//   an exponential and a uniform for the way on. The walk skips the uniform at a phase whose only
//   way on is absorption (a hyperexponential's) or one other phase (every phase of an Erlang law
//   but its last).
// For example, the series draws a Coxian law of n phases with at most n + 1 numbers, where the
// walk may take 2n - 1; the walk draws a hyperexponential law with two, where the series may need
// n + 1.
#include <vector>

#include "model/phase_type.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

class PhaseTypeSampler {
 public:
  explicit PhaseTypeSampler(const model::PhaseType& law);

  double sample(RandomStream& random) const {
    if (lumped_mean_ > 0) return random.unit_exponential() * lumped_mean_;
    if (!series_means_.empty()) {
      double time = random.unit_exponential() * series_means_.back();
      const int last = static_cast<int>(series_means_.size()) - 1;
      int phase = start_phase(random);
      for (; phase < last; ++phase) time += random.unit_exponential() * series_means_[phase];
      return time;
    }
    int phase = start_phase(random);
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
  int start_phase(RandomStream& random) const {
    return start_single_ >= 0 ? start_single_ : pick(start_, 0, phases_, random.uniform());
  }
  // The start's table for these chances (alpha for the walk, beta for the series).
  template <class Chances>
  void set_start(const Chances& chances) {
    start_.clear();
    int starts = 0;
    double sum = 0;
    for (int i = 0; i < phases_; ++i) {
      start_.push_back(sum += chances[i]);
      if (chances[i] > 0) ++starts, start_single_ = i;
    }
    start_.back() = 1.0;
    if (starts != 1) start_single_ = -1;
  }
  // Keeps the series form (series_means_ and its start) where the law has one and its expected
  // draws are no more than the walk's.
  void take_series_if_fewer_draws(const model::PhaseType& law);
  int phases_;
  double lumped_mean_ = 0;  // 1 / c when every phase exits at rate c, else 0
  // The series form where it is drawn (empty where not): its phases' means, slowest first.
  std::vector<double> series_means_;
  // The cumulative chances to start in each phase, of the form drawn (the walk's alpha, or the
  // series' beta), and the one phase it always starts in (-1 where it has a choice).
  std::vector<double> start_;
  int start_single_ = -1;
  std::vector<Phase> table_;
  // Per phase: cumulative probabilities of the next phase 0..n-1, then absorption.
  std::vector<double> jump_cumulative_;
};

}  // namespace crawlq::sim
