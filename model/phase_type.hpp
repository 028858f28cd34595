#pragma once
// A phase-type law (alpha, T): the time until a Markov chain with sub-generator T, started in
// alpha, is absorbed. The paper's service time (beta, S) and obsolescence time (gamma, Gamma).
#include <optional>
#include <string>

#include "model/linear_algebra.hpp"

namespace crawlq::model {

class PhaseType {
 public:
  // Checks every rule (see validate) and throws InputError naming `key_path` on the first broken
  // one.
  PhaseType(RowVector initial, Matrix subgenerator, const std::string& key_path = "",
            const std::string& initial_key = "alpha", const std::string& matrix_key = "T");

  static PhaseType exponential(double rate);
  static PhaseType erlang(int phases, double rate);

  int phases() const { return static_cast<int>(initial_.size()); }
  const RowVector& initial() const { return initial_; }
  const Matrix& subgenerator() const { return subgenerator_; }
  // T_0 = -T e: the absorption rate from each phase; exactly 0 where the row cancels up to the
  // rounding of its decimals, so that a phase written without an exit has none.
  const Vector& exit_rates() const { return exit_rates_; }
  // The rate at which every phase exits, where they agree up to the rounding of the inputs' last
  // bits; nothing where they differ or none exits. The law is then exponential at that rate
  // whatever the phases do, and no measure depends on the phase
  // (analytic/stationary/clock_lumping.hpp).
  std::optional<double> common_exit_rate() const;

  // The same start with the clock stopped: no moves and no exit, so a phase entered stays (the page
  // at an indexer in an outage). Not the law of a time, which it never ends: its moments are not
  // defined, and no file gives one.
  PhaseType paused() const;

  // E[X^k] = k! alpha (-T)^{-k} e.
  double moment(int k) const;
  double mean() const { return moment(1); }
  double variance() const;

 private:
  RowVector initial_;
  Matrix subgenerator_;
  Vector exit_rates_;
};

}  // namespace crawlq::model
