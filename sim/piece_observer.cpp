#include "sim/piece_observer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crawlq::sim {

PieceObserver::PieceObserver(const model::Rhythm& rhythm, int capacity, int modes,
                             model::Costs costs)
    : rhythm_(rhythm),
      pieces_(rhythm.pieces(),
              MeasureCounts{
                  .time_at_level = std::vector<double>(static_cast<std::size_t>(capacity) + 1),
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
  MeasureCounts& c = pieces_[piece_of(from + 0.5 * length)];
  c.time_at_level[static_cast<std::size_t>(level)] += length;
  c.time_with_robots[static_cast<std::size_t>(robots) - 1] += length;
}

void PieceObserver::on_batch(double time, int batch, int accepted) {
  MeasureCounts& c = pieces_[piece_of(time)];
  c.offered += batch;
  c.accepted += accepted;
}

void PieceObserver::on_served(double time, double sojourn) {
  ++pieces_[piece_of(time)].served;
  MeasureCounts& arrived = pieces_[piece_of(time - sojourn)];
  ++arrived.served_timed;
  arrived.served_sojourn += sojourn;
}

void PieceObserver::on_expired(double time, double sojourn) {
  ++pieces_[piece_of(time)].expired;
  MeasureCounts& arrived = pieces_[piece_of(time - sojourn)];
  ++arrived.expired_timed;
  arrived.expired_sojourn += sojourn;
}

void PieceObserver::write(ReplicationEstimate& estimate) const {
  estimate.pieces.clear();
  for (const MeasureCounts& c : pieces_) {
    PieceEstimate<double>& e = estimate.pieces.emplace_back();
    put_measures(c, costs_, e);
    if (c.offered > 0) {
      e.p_served_by_arrival = c.served_timed / c.offered;
      e.p_obsolete_by_arrival = c.expired_timed / c.offered;
    }
  }
}

}  // namespace crawlq::sim
