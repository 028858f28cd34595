// "Every phase must reach absorption" at its edge: a closed class of phases beside an exiting one.
// Phases 0 and 1 pass the time between them forever unless a rate leads out of their class; a zero
// entry is no path out. With beta's weight on the class the law's time is infinite with positive
// probability, and the solvers disagree on such a model (the 3.14, 2.6 and a NaN residual).
#include <catch2/catch.hpp>
#include <string>

#include "model/input_error.hpp"
#include "model/phase_type.hpp"
#include "model/rate_checks.hpp"

using crawlq::model::InputError;
using crawlq::model::Matrix;
using crawlq::model::PhaseType;
using crawlq::model::RowVector;

namespace {

// The class {0, 1} with `out` from phase 0 to the exiting phase 2 (row 0's diagonal keeps it a
// subgenerator row that sums to zero).
Matrix closed_class(double out) {
  Matrix s{{-1.0 - out, 1.0, out}, {1.0, -1.0, 0.0}, {0.0, 0.0, -2.0}};
  return s;
}

const RowVector kOnTheClass{{0.5, 0.25, 0.25}};

}  // namespace

TEST_CASE("a closed class of phases beside an exiting one never reaches absorption",
          "[rate_checks]") {
  CHECK_THROWS_WITH(
      crawlq::model::check_subgenerator(closed_class(0.0), "service.S"),
      Catch::Contains("service.S") && Catch::Contains("phase 0 never reaches absorption"));
  CHECK_THROWS_AS(PhaseType(kOnTheClass, closed_class(0.0)), InputError);
  // Weight only on the exiting phase: the law is finite, but its phases 0 and 1 still trap any
  // page that reached them, and a law is judged by its phases (the engines index every one).
  CHECK_THROWS_AS(PhaseType(RowVector{{0.0, 0.0, 1.0}}, closed_class(0.0)), InputError);
}

TEST_CASE("a closed class with a tiny rate out of it is a law like any other", "[rate_checks]") {
  // Just inside the rule: 1e-9 out of the class, far below the other rates, still a path.
  CHECK_NOTHROW(crawlq::model::check_subgenerator(closed_class(1e-9), "service.S"));
  const PhaseType law(kOnTheClass, closed_class(1e-9));
  CHECK(law.exit_rates()(2) == 2.0);
  CHECK(law.exit_rates()(0) == 0.0);
  // Leaving the class through phase 1 instead, a chain of two steps to the exit.
  Matrix s = closed_class(0.0);
  s(1, 2) = 1e-9;
  s(1, 1) -= 1e-9;
  CHECK_NOTHROW(PhaseType(kOnTheClass, s));
}
