#include "model/phase_type.hpp"

#include <catch2/catch.hpp>

#include "model/input_error.hpp"

using crawlq::model::InputError;
using crawlq::model::Matrix;
using crawlq::model::PhaseType;
using crawlq::model::RowVector;

TEST_CASE("Erlang moments match the closed form", "[phase_type]") {
  // Erlang(3, rate 2): mean 3/2, variance 3/4.
  const PhaseType erlang = PhaseType::erlang(3, 2.0);
  CHECK(erlang.mean() == Approx(1.5).epsilon(1e-12));
  CHECK(erlang.variance() == Approx(0.75).epsilon(1e-12));
}

TEST_CASE("the paper's service law has mean 0.657", "[phase_type]") {
  Matrix s(2, 2);
  s << -3, 1, 2, -3;
  RowVector beta(2);
  beta << 0.4, 0.6;
  const PhaseType service(beta, s);
  // beta (-S)^{-1} e = (0.4*4 + 0.6*5)/7 = 4.6/7.
  CHECK(service.mean() == Approx(4.6 / 7).epsilon(1e-12));
  CHECK(service.exit_rates()(0) == Approx(2.0));
  CHECK(service.exit_rates()(1) == Approx(1.0));
}

TEST_CASE("broken phase-type laws are refused with the key", "[phase_type]") {
  Matrix s(2, 2);
  s << -3, 1, 2, -3;
  RowVector bad_sum(2);
  bad_sum << 0.5, 0.6;
  CHECK_THROWS_WITH(PhaseType(bad_sum, s, "service", "beta", "S"),
                    Catch::Contains("service.beta") && Catch::Contains("sum 1.1"));
  RowVector beta(2);
  beta << 0.4, 0.6;
  Matrix positive_row = s;
  positive_row(1, 1) = -1.5;
  CHECK_THROWS_WITH(PhaseType(beta, positive_row, "service", "beta", "S"),
                    Catch::Contains("service.S row 1") && Catch::Contains("sum 0.5 > 0"));
  Matrix negative_off = s;
  negative_off(0, 1) = -1;
  CHECK_THROWS_AS(PhaseType(beta, negative_off), InputError);
  Matrix trapped(2, 2);
  trapped << -1, 1, 1, -1;  // never absorbed
  CHECK_THROWS_WITH(PhaseType(beta, trapped, "service", "beta", "S"),
                    Catch::Contains("never reaches absorption"));
  CHECK_THROWS_WITH(PhaseType(RowVector::Ones(1), s, "service", "beta", "S"),
                    Catch::Contains("service.S") && Catch::Contains("2x2"));
}
