// The relative profit R of Table 2 and the thread count, each decided in one place.
#include "model/costs.hpp"

#include <catch2/catch.hpp>

#include "model/thread_count.hpp"

namespace crawlq {

TEST_CASE("the relative profit is measured against the cheapest constant policy",
          "[model][costs]") {
  CHECK(model::relative_profit(63.5425, {149.9, 110.0, 89.4, 130.3}) ==
        Approx(100 * (1 - 63.5425 / 89.4)));
  // Nothing costs anything: nothing to save, not 0/0.
  CHECK(model::relative_profit(0, {0, 0}) == 0);
}

TEST_CASE("threads 0 means every core", "[model][threads]") {
  CHECK(model::resolved_threads(3) == 3);
  CHECK(model::resolved_threads(0) == model::available_cores());
  CHECK(model::available_cores() >= 1);
}

}  // namespace crawlq
