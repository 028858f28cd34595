// The transient's observer: the state at each moment (right-continuous), the events of each
// stretch (moments[i-1], moments[i]], and the time integrals cut at the moments, on a hand-made
// sequence of intervals and events whose answers are written down from the definitions.
#include "sim/transient_observer.hpp"

#include <catch2/catch.hpp>

namespace crawlq::sim {
namespace {

using Catch::Matchers::WithinAbs;

TEST_CASE("transient observer: states at the moments, events and time cut into stretches",
          "[sim][transient]") {
  // Observation from 10; moments at 10 (the start), 11, 11 (a stretch of no length) and 13.5.
  TransientObserver seen(10, {10, 11, 11, 13.5});
  seen.on_interval(10, 0.5, 0, 2);    // [10, 10.5): empty, 2 robots
  seen.on_batch(10.5, 3, 2);          // 3 offered, 1 lost
  seen.on_interval(10.5, 0.5, 2, 1);  // [10.5, 11): 2 pages, 1 robot
  seen.on_served(11, 0.4);            // exactly at the moment 11: counts in (10, 11]
  seen.on_interval(11, 2, 1, 1);      // [11, 13): 1 page
  seen.on_expired(12, 1.5);
  seen.on_interval(13, 1, 3, 3);  // [13, 14): 3 pages, 3 robots; the moment 13.5 is inside
  seen.on_served(13.9, 1);        // after the last moment: not counted

  CHECK(seen.levels() == std::vector<int>{0, 1, 1, 3});
  CHECK(seen.robots() == std::vector<int>{2, 1, 1, 3});
  const auto& s = seen.stretches();
  REQUIRE(s.size() == 4);
  // (-, 10]: nothing has happened at the start.
  CHECK(s[0].offered == 0);
  CHECK(s[0].robot_time == 0);
  // (10, 11]: the batch and the service at 11; 0.5 empty with 2 robots, then 0.5 with 2 pages.
  CHECK(s[1].offered == 3);
  CHECK(s[1].lost == 1);
  CHECK(s[1].served == 1);
  CHECK_THAT(s[1].robot_time, WithinAbs(0.5 * 2 + 0.5 * 1, 1e-15));
  CHECK_THAT(s[1].empty_time, WithinAbs(0.5, 1e-15));
  CHECK_THAT(s[1].page_time, WithinAbs(0.5 * 2, 1e-15));
  // (11, 11]: no time, no event.
  CHECK(s[2].served == 0);
  CHECK(s[2].robot_time == 0);
  // (11, 13.5]: the expiry; 2 time units with 1 page and 1 robot, 0.5 with 3 pages and 3 robots.
  CHECK(s[3].obsolete == 1);
  CHECK(s[3].served == 0);
  CHECK_THAT(s[3].robot_time, WithinAbs(2 * 1 + 0.5 * 3, 1e-15));
  CHECK_THAT(s[3].page_time, WithinAbs(2 * 1 + 0.5 * 3, 1e-15));
  CHECK(s[3].empty_time == 0);
}

}  // namespace
}  // namespace crawlq::sim
