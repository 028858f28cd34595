// `fit arrivals --bootstrap`'s standard errors against what sampling theory says of the logs'
// generators, not against the bootstrap's own output: a renewal log's mean has sd / sqrt(n); a
// correlated log's has sqrt(variance / n (1 + 2 sum_k rho_k)), which a resample of single batches
// would miss by the factor the correlations add.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "api/fit_request.hpp"
#include "fit/block_bootstrap.hpp"
#include "fit/map_statistics.hpp"
#include "model/input_error.hpp"
#include "tests/unit/fit/map_sampler.hpp"

namespace crawlq {
namespace {

api::FitArrivalsRequest bootstrapped(std::vector<double> times, int refits) {
  api::FitArrivalsRequest request;
  request.source = "generated.log";
  request.times = std::move(times);
  request.batch_gap = 1e-6;
  request.censor_gap = 1e9;
  request.bootstrap = refits;
  request.seed = 11;
  return request;
}

// The standard deviation of the mean of n times between batches of the MAP (D0, D1), from its
// variance and lag correlations summed until they have died out.
double mean_standard_error(const model::Matrix& d0, const model::Matrix& d1, double n) {
  const fit::MapStatistics truth = fit::map_statistics(d0, d1, 3000);
  double sum = 0;
  for (const double rho : truth.lag_correlations) sum += rho;
  return std::sqrt(truth.variance / n * (1 + 2 * sum));
}

TEST_CASE("fit bootstrap: a Poisson log's mean has the standard error sd / sqrt(n)",
          "[api][fit][bootstrap]") {
  model::Matrix d0(1, 1), d1(1, 1);
  d0 << -0.5;
  d1 << 0.5;
  const int n = 8000;
  const nlohmann::json j = api::fit_arrivals(bootstrapped(fit_test::map_times(d0, d1, n, 3), 300));
  const nlohmann::json& b = j.at("bootstrap");
  CHECK(b.at("replicates") == 300);
  const double expected = mean_standard_error(d0, d1, n - 1);  // 2 / sqrt(n - 1)
  CHECK(b.at("standard_errors").at("mean").get<double>() == Approx(expected).epsilon(0.15));
  // The page rate is 1 / mean here (one page a batch): its error by the delta method.
  CHECK(b.at("standard_errors").at("page_rate").get<double>() ==
        Approx(expected * 0.25).epsilon(0.15));
  CHECK(b.at("standard_errors").at("batch_size_mean").get<double>() < 1e-12);
  // The interval holds the point.
  const auto interval = b.at("intervals").at("mean").get<std::vector<double>>();
  const double point = b.at("point").at("mean").get<double>();
  CHECK(interval[0] < point);
  CHECK(point < interval[1]);
}

TEST_CASE(
    "fit bootstrap: a correlated log's mean has the standard error its correlations give, which "
    "single batches drawn apart would miss",
    "[api][fit][bootstrap]") {
  // Two regimes of rates 4 and 0.4 that switch every 25 and 10 batches or so.
  model::Matrix d0(2, 2), d1(2, 2);
  d0 << -4, 0, 0, -0.4;
  d1 << 4 * 0.96, 4 * 0.04, 0.4 * 0.1, 0.4 * 0.9;
  const int n = 20000;
  const double expected = mean_standard_error(d0, d1, n - 1);
  const fit::MapStatistics truth = fit::map_statistics(d0, d1, 1);
  const double independent = std::sqrt(truth.variance / (n - 1));
  REQUIRE(expected > 2 * independent);  // the correlations matter here
  const nlohmann::json j = api::fit_arrivals(bootstrapped(fit_test::map_times(d0, d1, n, 5), 200));
  const double error = j.at("bootstrap").at("standard_errors").at("mean").get<double>();
  CHECK(error == Approx(expected).epsilon(0.35));
  // The blocks are as long as the fitted correlations ask.
  CHECK(j.at("bootstrap").at("block_length").get<int>() >=
        std::ceil(4 / (1 - j.at("fitted").at("correlation_decay").get<double>())));
}

TEST_CASE(
    "fit bootstrap: the same seed gives the same refits, each refit is told, none when not asked",
    "[api][fit][bootstrap]") {
  model::Matrix d0(2, 2), d1(2, 2);
  d0 << -3, 0.2, 0.1, -0.7;
  d1 << 2.5, 0.3, 0.05, 0.55;
  const std::vector<double> times =
      fit_test::with_batches(fit_test::map_times(d0, d1, 3000, 8), {0.6, 0.25, 0.15}, 9);
  api::FitArrivalsRequest request = bootstrapped(times, 12);
  std::vector<int> told;
  std::vector<nlohmann::json> sections;
  request.refitted = [&](int replicate, const nlohmann::json& arrivals) {
    told.push_back(replicate);
    sections.push_back(arrivals);
  };
  const nlohmann::json first = api::fit_arrivals(request);
  CHECK(told == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  // Each refit is a BMAP of pages for the request's modes, and not the point's own.
  CHECK(sections[0].at("modes").size() == 1);
  CHECK(sections[0] != first.at("arrivals"));
  CHECK(sections[0] != sections[1]);
  request.refitted = {};
  CHECK(api::fit_arrivals(request).at("bootstrap") == first.at("bootstrap"));
  request.seed = 12;
  CHECK(api::fit_arrivals(request).at("bootstrap").at("standard_errors") !=
        first.at("bootstrap").at("standard_errors"));
  request.bootstrap = 0;
  CHECK_FALSE(api::fit_arrivals(request).contains("bootstrap"));
  request.bootstrap = -1;
  CHECK_THROWS_WITH(api::fit_arrivals(request), Catch::Contains("--bootstrap -1"));
}

TEST_CASE("fit bootstrap: a resample keeps the log's batches, in blocks of consecutive ones",
          "[fit][bootstrap]") {
  model::ArrivalTrace trace;
  for (int i = 0; i < 100; ++i) {
    trace.gaps.push_back(1 + i);  // each gap names its batch
    trace.sizes.push_back(1 + i % 3);
  }
  const fit::BatchedLog log = fit::block_resample(trace, 10, 4, 1);
  REQUIRE(log.intervals.size() == 1);
  const std::vector<double>& run = log.intervals[0];
  REQUIRE(run.size() == 100);
  CHECK(log.batches == 101);
  // Blocks of 10 consecutive batches: every tenth time starts a block, the rest follow their
  // neighbour.
  int breaks = 0;
  for (std::size_t i = 1; i < run.size(); ++i)
    if (run[i] != run[i - 1] + 1) {
      ++breaks;
      CHECK(i % 10 == 0);
    }
  CHECK(breaks > 0);
  // Sizes counted from the batches drawn: the size of batch g is 1 + (g - 1) % 3.
  std::vector<double> shares(3, 0.0);
  for (const double g : run) shares[static_cast<std::size_t>(static_cast<int>(g - 1) % 3)] += 0.01;
  REQUIRE(log.size_probabilities.size() <= 3);
  for (std::size_t k = 0; k < log.size_probabilities.size(); ++k)
    CHECK(log.size_probabilities[k] == Approx(shares[k]).epsilon(1e-12));
  // Block lengths: n^(1/3), the lags, and the correlation's reach.
  CHECK(fit::bootstrap_block_length(8000, 6, 0) == 20);
  CHECK(fit::bootstrap_block_length(8000, 30, 0) == 31);
  CHECK(fit::bootstrap_block_length(8000, 6, 0.99) == 400);
  CHECK(fit::bootstrap_block_length(100, 6, 0.99) == 20);
}

}  // namespace
}  // namespace crawlq
