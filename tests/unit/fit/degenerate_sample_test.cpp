// Degenerate samples (issue 28): equal times, a scv near 0 or huge, one distinct value, times near
// the ends of a double's range. Each fit answers with a law and a note saying what it matched, or
// refuses with InputError; none crashes or asks for 1/scv phases.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "fit/batched_log.hpp"
#include "fit/hyperexponential_em.hpp"
#include "fit/map_statistics.hpp"
#include "fit/ph_moment_fit.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/timestamp_log.hpp"
#include "model/input_error.hpp"

namespace crawlq {
namespace {

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

TEST_CASE("fit: a log of equal timestamps is one batch", "[fit][degenerate]") {
  const std::vector<double> zeros(1000, 0.0);
  CHECK(fit::default_batch_gap(zeros) == 0);
  const fit::BatchedLog log = fit::split_batches(zeros, 0, 0);
  CHECK(log.batches == 1);
  CHECK(log.intervals.empty());
  // Equal times join even with --batch-gap 0: a time of 0 between batches is no MAP's.
  const fit::BatchedLog pairs = fit::split_batches({1, 1, 2, 2, 3}, 0, 0);
  CHECK(pairs.batches == 3);
  CHECK(pairs.size_probabilities == std::vector<double>{1.0 / 3, 2.0 / 3});
}

TEST_CASE("fit: three moments of a nearly constant time give Erlang-100 and say so",
          "[fit][degenerate]") {
  for (const double scv : {1e-10, 1e-13, 0.005}) {
    INFO("scv " << scv);
    const fit::PhaseTypeFit ph =
        fit::fit_three_moments(2, 4 * (1 + scv), 8 * (1 + scv) * (1 + 2 * scv));
    CHECK(ph.s.rows() == 100);
    CHECK_FALSE(ph.third_moment_matched);
    CHECK_THAT(ph.note, Catch::Contains("Erlang-100"));
    CHECK(relative(fit::phase_type_moments(ph.beta, ph.s, 1)[0], 2) < 1e-12);
  }
  CHECK_THROWS_AS(fit::fit_three_moments(1, 1, 1), model::InputError);    // a constant
  CHECK_THROWS_AS(fit::fit_three_moments(1, 0.5, 1), model::InputError);  // no law's
}

TEST_CASE("fit: a huge scv is matched to its moments or said unmatched", "[fit][degenerate]") {
  // Two means 10^8 apart: Prony's roots lose m2 to rounding (1.7% off before this was checked).
  const fit::PhaseTypeFit ph = fit::fit_three_moments(1, 1e8, 1e20);
  const std::vector<double> m = fit::phase_type_moments(ph.beta, ph.s, 3);
  CHECK(relative(m[0], 1) < 1e-8);
  CHECK(relative(m[1], 1e8) < 1e-6);
  if (ph.third_moment_matched)
    CHECK(relative(m[2], 1e20) < 1e-6);
  else
    CHECK_FALSE(ph.note.empty());
}

TEST_CASE(
    "fit: a scv past what a double holds of a law is refused, and below it the rates stay > 0",
    "[fit][degenerate]") {
  // Found by moments_fuzzer: m2 / m1^2 overflows, whatever the unit.
  CHECK_THROWS_WITH(fit::fit_three_moments(1.3388838010580131e-76, 3.0353039405638255e+299,
                                           7.6921530884355365e-305),
                    Catch::Contains("past what a double holds"));
  // Balanced means at scv 1e30: 1 - q is 0 in a double unless computed as a quotient.
  model::RowVector alpha;
  model::Matrix t;
  fit::phase_type_with(1, 1e30, 2, alpha, t);
  CHECK(t(1, 1) < 0);
  const std::vector<double> m = fit::phase_type_moments(alpha, t, 2);
  CHECK(relative(m[0], 1) < 1e-12);
  CHECK(relative(m[1], 1 + 1e30) < 1e-9);  // m2 = (1 + scv) m1^2
}

TEST_CASE("fit: EM refuses times whose moments leave a double", "[fit][degenerate]") {
  // Found by log_fuzzer: rates of 1e-300, and moments of NaN.
  CHECK_THROWS_WITH(
      fit::fit_hyperexponential_em({55, 5, 2.00000051e300, 1.0000000000000006e300, 1}, 2),
      Catch::Contains("another unit"));
}

TEST_CASE("fit: moments out of a double's reach are refused, asking for another unit",
          "[fit][degenerate]") {
  CHECK_THROWS_WITH(fit::fit_three_moments(1e300, 1e301, 1e302), Catch::Contains("another unit"));
  CHECK_THROWS_WITH(fit::fit_three_moments(1e-300, 2e-300, 3e-300),
                    Catch::Contains("another unit"));
  CHECK_THROWS_WITH(fit::fit_regime_map(1e285, INFINITY, {0.1}, {0.05}),
                    Catch::Contains("another unit"));
  CHECK_THROWS_WITH(fit::fit_regime_map(1e-300, 1e-310, {0.1}, {0.05}),
                    Catch::Contains("another unit"));
  // Times of 10^-60 and 10^60 are fitted like times of 1.
  const fit::PhaseTypeFit small = fit::fit_three_moments(1e-60, 3e-120, 15e-180);
  CHECK(relative(fit::phase_type_moments(small.beta, small.s, 3)[2], 15e-180) < 1e-9);
  const fit::PhaseTypeFit large = fit::fit_three_moments(1e60, 3e120, 15e180);
  CHECK(relative(fit::phase_type_moments(large.beta, large.s, 3)[2], 15e180) < 1e-9);
}

TEST_CASE("fit: times between batches of (nearly) no variance give Erlang-50 regimes",
          "[fit][degenerate]") {
  for (const double variance : {0.0, 1e-13}) {
    INFO("variance " << variance);
    const fit::RegimeMapFit map = fit::fit_regime_map(1, variance, {0, 0}, {0.1, 0.1});
    CHECK(map.d0.rows() == 50);
    CHECK_THAT(map.note, Catch::Contains("50 phases give 0.02"));
    CHECK(relative(fit::map_statistics(map.d0, map.d1, 1).mean, 1) < 1e-9);
  }
  model::RowVector alpha;
  model::Matrix t;
  fit::phase_type_with(1, 1e-13, 1000, alpha, t);  // 1/scv past any int: capped, not cast
  CHECK(t.rows() == 1000);
}

TEST_CASE("fit: the likelihood of a sample under a law by its chains", "[fit][degenerate]") {
  // Exponential of rate 2: sum log(2 e^{-2x}); Erlang-2 of rate 3: sum log(9 x e^{-3x}).
  const std::vector<double> sample{0.5, 1.5, 0.1};
  double exponential = 0, erlang = 0;
  for (const double x : sample) {
    exponential += std::log(2) - 2 * x;
    erlang += std::log(9 * x) - 3 * x;
  }
  CHECK(relative(fit::phase_type_log_likelihood(model::RowVector::Ones(1),
                                                model::Matrix::Constant(1, 1, -2), sample),
                 exponential) < 1e-12);
  model::Matrix s(2, 2);
  s << -3, 3, 0, -3;
  model::RowVector beta(2);
  beta << 1, 0;
  CHECK(relative(fit::phase_type_log_likelihood(beta, s, sample), erlang) < 1e-12);
}

TEST_CASE("fit: logs and samples are read as regular UTF-8 files", "[fit][degenerate]") {
  CHECK_THROWS_WITH(fit::read_timestamps("/dev/zero"),
                    Catch::Contains("/dev/zero: a device, not a log"));
  CHECK_THROWS_WITH(fit::read_sample("/dev/zero"), Catch::Contains("not a sample"));
  const auto file = std::filesystem::temp_directory_path() /
                    ("crawlq-degenerate-latin-" + std::to_string(::getpid()) + ".log");
  std::ofstream(file, std::ios::binary) << "1\n2\n3 \xb5s\n";
  CHECK_THROWS_WITH(fit::read_timestamps(file.string()),
                    Catch::Contains("line 3, column 3: byte 0xb5"));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace crawlq

namespace crawlq {
namespace {

TEST_CASE("fit: a long value that is no time is quoted whole characters at a time",
          "[fit][messages]") {
  // 39 ASCII bytes, then two-byte characters: byte 40 is the first half of one.
  const std::string value = std::string(39, 'x') + "\u00e9\u00e9\u00e9\u00e9";
  try {
    fit::parse_timestamps("1\n2\n" + value + "\n", "log.txt");
    FAIL("a line of text was read as a time");
  } catch (const model::InputError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Catch::Contains("line 3") && Catch::Contains(std::string(39, 'x') + "..."));
    CHECK_THAT(message, !Catch::Contains("\\x"));
  }
}

}  // namespace
}  // namespace crawlq
