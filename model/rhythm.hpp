#pragma once
// A daily (or any periodic) rhythm of the arrivals: the period cut into equal pieces, and in piece
// i every arrival matrix of every mode, D_0 included, multiplied by scales[i] (sweep's
// arrival-scale in each piece). Service and obsolescence keep their laws.
#include <cstddef>
#include <vector>

#include "model/arrival_modes.hpp"

namespace crawlq::model {

// The most pieces a rhythm may have: each is a transient stretch of the period's map.
inline constexpr std::size_t kMostRhythmPieces = 10'000;

struct Rhythm {
  double period = 1;           // in the scenario's time unit
  std::vector<double> scales;  // one per piece, each > 0

  std::size_t pieces() const { return scales.size(); }
  double piece_length() const { return period / static_cast<double>(scales.size()); }
  double piece_start(std::size_t i) const { return period * static_cast<double>(i) / pieces(); }
  // The period's mean scale: the arrivals a rhythm averages to.
  double mean_scale() const;
};

// Every D_k of every mode times s (D_0 included): the arrival process sped up s times. InputError
// naming the matrix when a rate overflows or falls below the smallest rate.
ArrivalModes scaled_arrivals(const ArrivalModes& arrivals, double s);

}  // namespace crawlq::model
