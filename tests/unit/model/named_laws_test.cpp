#include "model/named_laws.hpp"

#include <catch2/catch.hpp>

#include "model/input_error.hpp"

using namespace crawlq::model;

TEST_CASE("each law by name is exactly the phase-type law written out", "[named_laws]") {
  const PhaseType e = exponential_law(2.5, "service.exponential");
  CHECK(e.initial() == RowVector::Ones(1));
  CHECK(e.subgenerator() == Matrix::Constant(1, 1, -2.5));

  const PhaseType erlang = erlang_law(3, 1.5, "service.erlang");  // each phase at rate 3 / 1.5 = 2
  CHECK(erlang.initial() == (RowVector(3) << 1, 0, 0).finished());
  CHECK(erlang.subgenerator() == Matrix{{-2, 2, 0}, {0, -2, 2}, {0, 0, -2}});
  CHECK(erlang.mean() == Approx(1.5));
  CHECK(erlang.variance() == Approx(1.5 * 1.5 / 3));

  const PhaseType h = hyperexponential_law({0.3, 0.7}, {0.5, 4}, "service.hyperexponential");
  CHECK(h.initial() == (RowVector(2) << 0.3, 0.7).finished());
  CHECK(h.subgenerator() == Matrix{{-0.5, 0}, {0, -4}});
  CHECK(h.mean() == Approx(0.3 / 0.5 + 0.7 / 4));
}

TEST_CASE("Poisson batches are exactly the BMAP written out", "[named_laws]") {
  const Bmap b = poisson_batches(0.8, {0.5, 0.3, 0.2}, "arrivals.modes[0]");
  REQUIRE(b.max_batch() == 3);
  CHECK(b.d(0) == Matrix::Constant(1, 1, -0.8));
  CHECK(b.d(1) == Matrix::Constant(1, 1, 0.8 * 0.5));
  CHECK(b.d(2) == Matrix::Constant(1, 1, 0.8 * 0.3));
  CHECK(b.d(3) == Matrix::Constant(1, 1, 0.8 * 0.2));
  CHECK(b.fundamental_rate() == Approx(0.8 * (0.5 + 2 * 0.3 + 3 * 0.2)));
  CHECK(b.group_rate() == Approx(0.8));
}

TEST_CASE("wrong numbers in a law by name are refused naming the key and the value",
          "[named_laws]") {
  CHECK_THROWS_WITH(exponential_law(0, "service.exponential"),
                    "service.exponential.rate: 0: a rate must be finite and > 0");
  CHECK_THROWS_WITH(erlang_law(0, 1, "service.erlang"),
                    Catch::Contains("service.erlang.phases: 0"));
  CHECK_THROWS_WITH(erlang_law(2, -1, "service.erlang"),
                    Catch::Contains("service.erlang.mean: -1"));
  CHECK_THROWS_WITH(hyperexponential_law({0.3, 0.6}, {1, 2}, "h"), "h.probabilities: sum 0.9 != 1");
  CHECK_THROWS_WITH(hyperexponential_law({0.3, 0.7}, {1}, "h"),
                    "h.rates: 1 rates for 2 probabilities");
  CHECK_THROWS_WITH(hyperexponential_law({0.3, 0.7}, {1, -2}, "h"),
                    Catch::Contains("h.rates[1]: -2"));
  CHECK_THROWS_WITH(poisson_batches(-1, {1}, "m"), Catch::Contains("m.rate: -1"));
  CHECK_THROWS_WITH(poisson_batches(1, {0.5, 0.4}, "m"), "m.batch: sum 0.9 != 1");
  CHECK_THROWS_WITH(poisson_batches(1, {1.2, -0.2}, "m"),
                    Catch::Contains("m.batch[1]: negative probability -0.2"));
  // Decimals that sum to one on paper are a distribution, whatever binary makes of them.
  CHECK_NOTHROW(poisson_batches(1, {0.1, 0.2, 0.3, 0.4}, "m"));
  CHECK_NOTHROW(hyperexponential_law({0.7, 0.2, 0.1}, {1, 2, 3}, "h"));
}
