#include "sim/phase_type_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "model/series_form.hpp"

namespace crawlq::sim {

namespace {
constexpr double kExitRoundOff = 1e-12;
// The series form's setup is cubic in the phases (the eigenvalues, the recursion, the moments):
// beyond the largest law `fit` makes (two Erlang-100 laws mixed), a law is walked.
constexpr int kMostSeriesPhases = 200;
}  // namespace

PhaseTypeSampler::PhaseTypeSampler(const model::PhaseType& law) : phases_(law.phases()) {
  const auto& t = law.subgenerator();
  const auto& exits = law.exit_rates();
  if (const std::optional<double> rate = law.common_exit_rate()) lumped_mean_ = 1 / *rate;
  set_start(law.initial());
  for (int i = 0; i < phases_; ++i) {
    const double rate = -t(i, i);
    int moves = 0, last_move = -1;
    double c = 0;
    const int offset = static_cast<int>(jump_cumulative_.size());
    for (int j = 0; j < phases_; ++j) {
      const double p = j == i ? 0.0 : t(i, j) / rate;
      if (p > 0) ++moves, last_move = j;
      jump_cumulative_.push_back(c += p);
    }
    jump_cumulative_.push_back(1.0);  // absorption
    // An exit below round-off of the phase's rate is none: the row's sum is zero as given.
    const bool never_exits = exits(i) <= kExitRoundOff * rate;
    table_.push_back({1.0 / rate, offset, moves == 0, moves == 1 && never_exits ? last_move : -1});
  }
  if (lumped_mean_ == 0 && phases_ <= kMostSeriesPhases) take_series_if_fewer_draws(law);
}

void PhaseTypeSampler::take_series_if_fewer_draws(const model::PhaseType& law) {
  const std::optional<model::SeriesForm> series = model::series_form(law);
  if (!series) return;
  // The walk's draws: the start's uniform, then each visit's exponential and, where the phase has a
  // choice, uniform. The visits to phase i are alpha (-T)^{-1} e_i times its rate.
  const model::RowVector time_in_phase =
      (-law.subgenerator()).transpose().partialPivLu().solve(law.initial().transpose()).transpose();
  double walk_draws = start_single_ >= 0 ? 0 : 1;
  for (int i = 0; i < phases_; ++i) {
    const Phase& p = table_[i];
    const bool chooses = !p.absorbs_surely && p.surely_to < 0;
    walk_draws += time_in_phase(i) / p.mean_sojourn * (chooses ? 2 : 1);
  }
  // The series' draws: the last phase's exponential, the start's uniform, and an exponential for
  // each phase between the start and the last.
  double series_draws = 1;
  int starts = 0;
  for (int i = 0; i < phases_; ++i) {
    series_draws += series->start[i] * (phases_ - 1 - i);
    if (series->start[i] > 0) ++starts;
  }
  if (starts > 1) series_draws += 1;
  // On a tie the series goes: its loop has no choice to mispredict.
  if (series_draws > walk_draws) return;
  for (int i = 0; i < phases_; ++i) series_means_.push_back(1 / series->rates[i]);
  set_start(series->start);
}

}  // namespace crawlq::sim
