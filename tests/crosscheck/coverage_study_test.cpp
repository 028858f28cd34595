// Coverage of the simulator's 95% intervals (the acceptance rule): over 200 independent
// seeds, the interval of a measure on paper-example-1.yaml must cover the exact engine's value
// about 95% of the time, and the standardised errors (mean - exact) / (half_width / t) must centre
// on 0. The verdict is familywise: six checks (coverage and centre of p_loss, cost,
// mean_sojourn_served), each at level kFamilyAlpha / 6 (Bonferroni), so that a correct simulator
// fails with probability below 1e-3 whatever the streams. The coverage count of a correct interval
// is Binomial(200, 0.95): it must lie within that law's central 1 - alpha / 6 (177..199 of 200),
// which catches an interval covering 85% nine times in ten; the centre, the mean of 200
// standardised errors (t with 9 degrees of freedom: sd sqrt(9/7) = 1.134), must be within 3.77 sd /
// sqrt(200) = 0.30 of 0, which catches a bias of half a standard error almost surely, long before
// the coverage moves.
#include <fmt/format.h>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/replications.hpp"

using namespace crawlq;

namespace {

constexpr std::uint64_t kFirstSeed = 1;
constexpr int kSeeds = 200;
constexpr int kReplications = 10;
constexpr double kPagesPerReplication = 2e4;  // offered pages in each replication's observed window
constexpr double kFamilyAlpha = 1e-3;
constexpr int kChecks = 6;  // coverage and centre of three measures
constexpr double kCheckAlpha = kFamilyAlpha / kChecks;

// The covers of a correct 95% interval, Binomial(kSeeds, 0.95): the counts outside [low, high] have
// probability at most kCheckAlpha together (each tail at most half of it).
std::pair<int, int> coverage_window() {
  const boost::math::binomial_distribution<double> covers(kSeeds, 0.95);
  int low = 0, high = kSeeds;
  while (boost::math::cdf(covers, low) <= kCheckAlpha / 2) ++low;  // P(X <= low - 1) <= alpha / 2
  while (boost::math::cdf(boost::math::complement(covers, high - 1)) <= kCheckAlpha / 2) --high;
  return {low, high};
}

struct Miss {
  std::uint64_t seed;
  double mean, half_width;
};

// One measure's tally over the seeds.
struct Tally {
  std::string name;
  double exact;
  std::function<sim::Interval(const sim::SimulationSummary&)> of;
  int covered = 0;
  std::vector<Miss> misses;
  std::vector<double> standardised;  // (mean - exact) / standard error, one per seed

  Tally(std::string measure, double value,
        std::function<sim::Interval(const sim::SimulationSummary&)> read)
      : name(std::move(measure)), exact(value), of(std::move(read)) {}
  double fraction() const { return static_cast<double>(covered) / kSeeds; }
};

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::string describe_misses(const Tally& t) {
  std::string text;
  for (const auto& m : t.misses)
    text += fmt::format("\n  seed {}: {:.6g} +- {:.3g} (off by {:.2f} half-widths)", m.seed, m.mean,
                        m.half_width, (m.mean - t.exact) / m.half_width);
  return text;
}

}  // namespace

TEST_CASE("simulator: 95% intervals cover the exact value in about 95% of 200 seeds, centred on it",
          "[sim][crosscheck][coverage]") {
  const auto start = std::chrono::steady_clock::now();
  const std::string file = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/paper-example-1.yaml";
  const auto scenario = scenarios::load_scenario(file);
  const model::Model& m = scenario.model;
  REQUIRE(m.level_map());
  const model::Policy& policy = *m.level_map();
  const analytic::PolicyEvaluator evaluator(m);
  const analytic::PolicyEvaluation exact = evaluator.evaluate(policy);
  const double horizon = kPagesPerReplication / exact.measures.lambda;
  const sim::LevelMapPolicy sim_policy(policy);

  std::vector<Tally> tallies{
      {"p_loss", exact.measures.p_loss, [](const auto& s) { return s.p_loss; }},
      {"cost", exact.measures.cost, [](const auto& s) { return s.cost; }},
      {"mean_sojourn_served", exact.measures.mean_sojourn_served,
       [](const auto& s) { return s.mean_sojourn_served; }}};
  const boost::math::students_t t(kReplications - 1);
  const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));

  for (std::uint64_t seed = kFirstSeed; seed < kFirstSeed + kSeeds; ++seed) {
    const sim::SimulationSummary s = sim::simulate(m, sim_policy,
                                                   {.seed = seed,
                                                    .replications = kReplications,
                                                    .warmup = horizon / 10,
                                                    .horizon = horizon,
                                                    .threads = 0});
    for (auto& tally : tallies) {
      const sim::Interval i = tally.of(s);
      INFO("seed " << seed << ", " << tally.name << " " << i.mean << " +- " << i.half_width);
      REQUIRE(i.half_width > 0);
      if (std::abs(i.mean - tally.exact) <= i.half_width)
        ++tally.covered;
      else
        tally.misses.push_back({seed, i.mean, i.half_width});
      tally.standardised.push_back((i.mean - tally.exact) / (i.half_width / t95));
    }
  }

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "coverage study: {}, policy of the file, seeds {}..{}, {} replications of {:.6g} time "
      "units (~{:.0f} pages) after {:.6g} of warm-up each, {:.1f} s\n",
      file, kFirstSeed, kFirstSeed + kSeeds - 1, kReplications, horizon, kPagesPerReplication,
      horizon / 10, seconds);
  for (const auto& tally : tallies)
    fmt::print(
        "  {:<20} exact {:<10.6g} covered {}/{} = {:.3f}; standardised error mean {:+.3f}, "
        "sd {:.3f} (t_9: 0, 1.134)\n",
        tally.name, tally.exact, tally.covered, kSeeds, tally.fraction(),
        mean_of(tally.standardised), sd_of(tally.standardised));

  const auto [low, high] = coverage_window();
  // The mean of kSeeds independent t_9 errors is about normal with sd sqrt(9/7) / sqrt(kSeeds).
  const double t_sd = std::sqrt((kReplications - 1.0) / (kReplications - 3.0));
  const double z =
      boost::math::quantile(boost::math::complement(boost::math::normal(), kCheckAlpha / 2));
  const double centre_bound = z * t_sd / std::sqrt(static_cast<double>(kSeeds));
  fmt::print(
      "  verdict: covers within {}..{} of {}, standardised error mean within +-{:.3f} (each {:.2g}, "
      "together {:.0e})\n",
      low, high, kSeeds, centre_bound, kCheckAlpha, kFamilyAlpha);
  REQUIRE(low > 0.85 * kSeeds);  // the window still catches a badly short interval
  for (const auto& tally : tallies) {
    INFO(tally.name << ": exact " << tally.exact << ", covered in " << tally.covered << " of "
                    << kSeeds << " seeds (" << kFirstSeed << ".." << kFirstSeed + kSeeds - 1
                    << "), standardised error mean " << mean_of(tally.standardised)
                    << "; the misses:" << describe_misses(tally));
    CHECK(tally.covered >= low);
    CHECK(tally.covered <= high);
    CHECK(std::abs(mean_of(tally.standardised)) <= centre_bound);
  }
}
