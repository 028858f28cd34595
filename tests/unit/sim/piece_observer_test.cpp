// The rhythm's piece observer: events and time binned by the piece of the period they fall in,
// over several periods, and the fates and sojourns of pages counted by the piece they were offered
// in; on a hand-made sequence whose answers are written down from the definitions. The pieces are
// unequal in what happens, so a piece index off by one changes every answer.
#include "sim/piece_observer.hpp"

#include <catch2/catch.hpp>

namespace crawlq::sim {
namespace {

using Catch::Matchers::WithinAbs;

TEST_CASE("piece observer: each piece's counts over the periods, fates by the piece offered in",
          "[sim][rhythm]") {
  // A period of 6 in 3 pieces of 2: [0, 2), [2, 4), [4, 6), then again from 6. K = 2, 2 modes.
  const model::Rhythm rhythm{.period = 6, .scales = {0.5, 1.5, 1.0}};
  const model::Costs costs{.loss = 3, .obsolescence = 5, .sojourn = 7, .robot = 2};
  PieceObserver seen(rhythm, 2, 2, costs);
  seen.on_interval(0, 2, 0, 1);  // piece 0: empty, 1 robot
  seen.on_batch(2.5, 4, 3);      // piece 1: 4 offered, 1 lost
  seen.on_interval(2, 1, 1, 2);  // piece 1: [2, 3) one page, 2 robots
  seen.on_interval(3, 1, 2, 2);  // piece 1: [3, 4) two pages
  seen.on_served(4.5, 2.0);      // served in piece 2, offered at 2.5 (piece 1)
  seen.on_expired(5, 2.5);       // stale in piece 2, offered at 2.5 (piece 1)
  seen.on_interval(4, 2, 1, 1);  // piece 2
  seen.on_batch(7, 2, 2);        // piece 0 of the second period
  seen.on_interval(6, 2, 1, 1);  // piece 0 again: 2 more time units, one page
  seen.on_served(8.5, 3.0);      // served in piece 1, offered at 5.5 (piece 2)

  ReplicationEstimate e;
  seen.write(e);
  REQUIRE(e.pieces.size() == 3);
  const PieceEstimate<double>& p0 = e.pieces[0];
  const PieceEstimate<double>& p1 = e.pieces[1];
  const PieceEstimate<double>& p2 = e.pieces[2];
  // Piece 0: 4 time units (two periods), 2 pages offered, none lost, none ended there.
  CHECK_THAT(p0.lambda, WithinAbs(2.0 / 4, 1e-15));
  CHECK(p0.p_loss == 0);
  CHECK(p0.p_served == 0);
  CHECK_THAT(p0.p_starvation, WithinAbs(0.5, 1e-15));
  CHECK_THAT(p0.mean_in_system, WithinAbs(0.5, 1e-15));
  CHECK_THAT(p0.mean_active_robots, WithinAbs(1.0, 1e-15));
  // Piece 1: 2 time units; 4 offered, 1 lost; the page served at 8.5 ended here (offered in 2).
  CHECK_THAT(p1.lambda, WithinAbs(4.0 / 2, 1e-15));
  CHECK_THAT(p1.p_loss, WithinAbs(0.25, 1e-15));
  CHECK_THAT(p1.p_served, WithinAbs(0.25, 1e-15));
  CHECK(p1.p_obsolete == 0);
  CHECK_THAT(p1.mean_in_system, WithinAbs(1.5, 1e-15));
  CHECK_THAT(p1.mean_in_queue, WithinAbs(0.5, 1e-15));
  CHECK_THAT(p1.mean_active_robots, WithinAbs(2.0, 1e-15));
  CHECK(p1.mode_probabilities == std::vector<double>{0, 1});
  CHECK(p1.level_probabilities == std::vector<double>{0, 0.5, 0.5});
  // ... and of its 4 pages, one served (sojourn 2) and one stale (sojourn 2.5).
  CHECK_THAT(p1.p_served_by_arrival, WithinAbs(0.25, 1e-15));
  CHECK_THAT(p1.p_obsolete_by_arrival, WithinAbs(0.25, 1e-15));
  CHECK_THAT(p1.mean_sojourn_served, WithinAbs(2.0, 1e-15));
  CHECK_THAT(p1.mean_sojourn_obsolete, WithinAbs(2.5, 1e-15));
  CHECK_THAT(p1.mean_sojourn, WithinAbs(2.25, 1e-15));
  // cost (2) of the piece's own averages: lambda (c_l P_loss + c_o P_obs) + c_s V(1) + c_r N_act.
  CHECK_THAT(p1.cost, WithinAbs(2.0 * (3 * 0.25 + 5 * 0) + 7 * 2.0 + 2 * 2.0, 1e-13));
  // Piece 2: 2 time units, nothing offered; the ends at 4.5 and 5 count here as ends.
  CHECK(p2.lambda == 0);
  CHECK(p2.p_served == 0);  // no page offered: no ratio
  CHECK_THAT(p2.mean_in_system, WithinAbs(1.0, 1e-15));
  CHECK_THAT(p2.p_starvation, WithinAbs(0.0, 1e-15));
  // The page served at 8.5 was offered at 5.5, in piece 2: its sojourn is piece 2's.
  CHECK_THAT(p2.mean_sojourn_served, WithinAbs(3.0, 1e-15));
}

TEST_CASE("piece observer: a time on a boundary after many periods falls in the later piece",
          "[sim][rhythm]") {
  // A period of 24 in 24 pieces: after 1000 periods, 24000 + 5 is piece 5's first moment.
  const model::Rhythm rhythm{.period = 24, .scales = std::vector<double>(24, 1.0)};
  PieceObserver seen(rhythm, 1, 1, {});
  seen.on_batch(24000 + 5, 1, 1);
  seen.on_interval(24000 + 5, 1, 0, 1);
  ReplicationEstimate e;
  seen.write(e);
  CHECK(e.pieces[5].lambda == 1);
  CHECK(e.pieces[4].lambda == 0);
}

}  // namespace
}  // namespace crawlq::sim
