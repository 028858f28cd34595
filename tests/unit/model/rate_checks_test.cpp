#include "model/rate_checks.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "model/bmap.hpp"
#include "model/input_error.hpp"
#include "model/number_text.hpp"
#include "model/phase_type.hpp"

using crawlq::model::Bmap;
using crawlq::model::Matrix;
using crawlq::model::PhaseType;
using crawlq::model::RowVector;
using crawlq::model::TermSum;

namespace {

// `cents` / 100 as the decimal a person types, read the way the loader reads it.
double typed(long cents) {
  const long a = cents < 0 ? -cents : cents;
  std::string text =
      cents < 0 ? "-" : "";  // appended in steps: g++ 12 warns (-Wrestrict) at "x" + string&&
  text += std::to_string(a / 100);
  text += a % 100 < 10 ? ".0" : ".";
  text += std::to_string(a % 100);
  return *crawlq::model::parse_finite_number(text);
}

}  // namespace

TEST_CASE("decimals that cancel on paper cancel, judged against their terms", "[rate_checks]") {
  TermSum issue;  // the issue's row: -0.9 + 0.6 + 0.3 is -5.55e-17 in binary
  for (double term : {-0.9, 0.6, 0.3}) issue.add(term);
  CHECK(issue.value() != 0.0);
  CHECK(issue.equals(0.0));
  CHECK_NOTHROW(Bmap(
      {Matrix::Constant(1, 1, -0.9), Matrix::Constant(1, 1, 0.6), Matrix::Constant(1, 1, 0.3)}));

  // Every row of two-decimal rates whose diagonal is minus the rest, as printed, is accepted.
  std::mt19937_64 engine(12);
  std::uniform_int_distribution<long> cents(1, 999);
  int rows_missing_zero = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const long a = cents(engine), b = cents(engine), c = cents(engine), e = cents(engine);
    const std::vector<Matrix> d{Matrix{{typed(-(a + b + c + e)), typed(a), typed(b)}},
                                Matrix{{typed(c), typed(e), 0.0}}};
    TermSum row;
    for (const Matrix& dk : d)
      for (Eigen::Index j = 0; j < 3; ++j) row.add(dk(0, j));
    rows_missing_zero += row.value() != 0.0 ? 1 : 0;
    INFO(d[0] << " | " << d[1]);
    REQUIRE(row.equals(0.0));
    REQUIRE_NOTHROW(crawlq::model::check_conservative(d, "D"));
  }
  CHECK(rows_missing_zero > 100);  // the trap is there in many of them
}

TEST_CASE("a row off by 1e-6 of its entries is refused with the message as before",
          "[rate_checks]") {
  CHECK_THROWS_WITH(Bmap({Matrix::Constant(1, 1, -0.9), Matrix::Constant(1, 1, 0.6),
                          Matrix::Constant(1, 1, 0.3 + 9e-7)},
                         "arrivals.modes[1].D"),
                    "arrivals.modes[1].D row 0: sum 9e-07 != 0");
  CHECK_THROWS_WITH(
      PhaseType(RowVector::Ones(2), Matrix{{-1.0, 1.000001}, {0.0, -1.0}}, "service", "beta", "S"),
      Catch::Contains("service.beta: sum 2 != 1"));
  CHECK_THROWS_WITH(PhaseType((RowVector(2) << 0.3, 0.7).finished(),
                              Matrix{{-1.0, 1.000001}, {0.0, -1.0}}, "service", "beta", "S"),
                    Catch::Contains("service.S row 0: sum 1e-06 > 0"));
  CHECK_THROWS_WITH(PhaseType((RowVector(3) << 0.1, 0.2, 0.7000015).finished(),
                              -Matrix::Identity(3, 3), "service", "beta", "S"),
                    Catch::Contains("service.beta: sum 1.0000015 != 1"));
}

TEST_CASE("a phase written without an exit has an exit rate of exactly zero", "[rate_checks]") {
  // Row 0 cancels only up to rounding (-0.9 + 0.6 + 0.3), row 1 has exit rate 0.1, row 2 is the way
  // out.
  const PhaseType law((RowVector(3) << 0.1, 0.2, 0.7).finished(),
                      Matrix{{-0.9, 0.6, 0.3}, {0.1, -0.3, 0.1}, {0.0, 0.0, -1.1}});
  CHECK(law.exit_rates()(0) == 0.0);
  CHECK(law.exit_rates()(1) == Approx(0.1).epsilon(1e-15));
  CHECK(law.exit_rates()(2) == 1.1);
}
