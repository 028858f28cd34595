#include "sim/piece_observer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crawlq::sim {

PieceObserver::PieceObserver(const model::Rhythm& rhythm, int capacity, int modes,
                             model::Costs costs)
    : rhythm_(rhythm),
      pieces_(rhythm.pieces(),
              Counts{.time_at_level = std::vector<double>(static_cast<std::size_t>(capacity) + 1),
                     .time_with_robots = std::vector<double>(static_cast<std::size_t>(modes))}),
      costs_(std::move(costs)) {}

std::size_t PieceObserver::piece_of(double time) const {
  const double into_period = std::fmod(std::max(time, 0.0), rhythm_.period);
  const auto piece = static_cast<std::size_t>(into_period / rhythm_.piece_length());
  return std::min(piece, pieces_.size() - 1);
}

void PieceObserver::on_interval(double from, double length, int level, int robots) {
  // The simulator cuts its intervals at the pieces' boundaries: the middle names the piece without
  // the round-off of an end that falls on a boundary.
  Counts& c = pieces_[piece_of(from + 0.5 * length)];
  c.time_at_level[static_cast<std::size_t>(level)] += length;
  c.time_with_robots[static_cast<std::size_t>(robots) - 1] += length;
}

void PieceObserver::on_batch(double time, int batch, int accepted) {
  Counts& c = pieces_[piece_of(time)];
  c.offered += batch;
  c.accepted += accepted;
}

void PieceObserver::on_served(double time, double sojourn) {
  ++pieces_[piece_of(time)].served;
  Counts& arrived = pieces_[piece_of(time - sojourn)];
  ++arrived.served_arrived;
  arrived.served_sojourn += sojourn;
}

void PieceObserver::on_expired(double time, double sojourn) {
  ++pieces_[piece_of(time)].expired;
  Counts& arrived = pieces_[piece_of(time - sojourn)];
  ++arrived.expired_arrived;
  arrived.expired_sojourn += sojourn;
}

void PieceObserver::write(ReplicationEstimate& estimate) const {
  estimate.pieces.clear();
  for (const Counts& c : pieces_) {
    PieceEstimate<double> e;
    double t = 0;
    for (double x : c.time_at_level) t += x;
    if (t <= 0) t = 1;
    e.lambda = c.offered / t;
    if (c.offered > 0) {
      e.p_loss = (c.offered - c.accepted) / c.offered;
      e.p_obsolete = c.expired / c.offered;
      e.p_served = c.served / c.offered;
      e.p_served_by_arrival = c.served_arrived / c.offered;
      e.p_obsolete_by_arrival = c.expired_arrived / c.offered;
    }
    for (std::size_t i = 0; i < c.time_at_level.size(); ++i) {
      e.level_probabilities.push_back(c.time_at_level[i] / t);
      e.mean_in_system += static_cast<double>(i) * c.time_at_level[i] / t;
      if (i > 0) e.mean_in_queue += static_cast<double>(i - 1) * c.time_at_level[i] / t;
    }
    for (std::size_t r = 0; r < c.time_with_robots.size(); ++r) {
      e.mode_probabilities.push_back(c.time_with_robots[r] / t);
      e.mean_active_robots += static_cast<double>(r + 1) * c.time_with_robots[r] / t;
    }
    e.p_starvation = e.level_probabilities.front();
    const double finished = c.served_arrived + c.expired_arrived;
    e.mean_sojourn_served = c.served_arrived > 0 ? c.served_sojourn / c.served_arrived : 0.0;
    e.mean_sojourn_obsolete = c.expired_arrived > 0 ? c.expired_sojourn / c.expired_arrived : 0.0;
    e.mean_sojourn = finished > 0 ? (c.served_sojourn + c.expired_sojourn) / finished : 0.0;
    e.cost = model::cost_criterion(costs_, e);
    estimate.pieces.push_back(std::move(e));
  }
}

}  // namespace crawlq::sim
