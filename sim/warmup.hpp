#pragma once
// The warm-up by MSER-5 (White 1997; Franklin and White 2008): on a pilot run, the time-average
// level over equal slices is grouped in batches of 5, and the truncation d minimising sum_{i>=d}
// (x_i - mean_d)^2 / (n - d)^2 over the first half of the batches is where the run stops
// remembering its empty start.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "sim/policy.hpp"

namespace crawlq::sim {

// The MSER-5 truncation, as a number of leading values of `series` to drop.
std::size_t mser5_truncation(const std::vector<double>& series);

// The pilot's share of the replications' horizon. It runs on one thread before the replications
// can start, so with R replications on T threads it was 1 of the 1 + R / T horizons a run took when
// it ran a whole horizon (half the wall time of 16 replications on 16 threads). A quarter of the
// default horizon is still about 250,000 offered pages, far longer than the warm-ups MSER-5 finds.
inline constexpr double kPilotShare = 0.25;
// MSER-5 truncates within the pilot's first half. A truncation past this share of the quarter
// pilot may be a transient cut short by the pilot's end, so a pilot of the whole horizon decides.
inline constexpr double kLongTransient = 0.4;

struct Mser5Pilot {
  double warmup = 0;
  double pilot = 0;  // the time units the pilot ran
};
// Simulates a pilot of kPilotShare of `horizon` time units (the whole horizon after a long
// transient) from an empty system on its own streams (a replication index no estimate uses), and
// gives its MSER-5 warm-up time.
Mser5Pilot mser5_pilot(const model::Model& model, const Policy& policy, std::uint64_t seed,
                       double horizon);
// Its warm-up.
double mser5_warmup(const model::Model& model, const Policy& policy, std::uint64_t seed,
                    double horizon);

}  // namespace crawlq::sim
