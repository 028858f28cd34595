// Coverage of the simulator's 95% intervals (the acceptance rule): over 200 independent
// seeds, the interval of a measure on paper-example-1.yaml must cover the exact engine's value in
// 92-98% of them. With a correct interval the count of covers is Binomial(200, 0.95), which lands
// in [184, 196] with probability 0.967, so each measure checked here is a 3.3% false alarm for a
// correct simulator; the seeds are fixed, so a pass repeats until the random streams change.
// Besides the fraction, the study prints the mean and spread of the standardised errors
// (mean - exact) / (half_width / t): about 0 and sqrt(9/7) = 1.13 for t with 9 degrees of freedom;
// a shifted mean points at bias (short horizons, ratio estimators), a wrong spread at the width.
#include <fmt/format.h>

#include <boost/math/distributions/students_t.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/policy_evaluation.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/replications.hpp"

using namespace crawlq;

namespace {

constexpr std::uint64_t kFirstSeed = 1;
constexpr int kSeeds = 200;
constexpr int kReplications = 10;
constexpr double kPagesPerReplication = 2e4;  // offered pages in each replication's observed window
constexpr double kLowest = 0.92, kHighest = 0.98;

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

TEST_CASE("simulator: 95% intervals cover the exact value in 92-98% of 200 seeds",
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

  for (const auto& tally : tallies) {
    INFO(tally.name << ": exact " << tally.exact << ", covered in " << tally.covered << " of "
                    << kSeeds << " seeds (" << kFirstSeed << ".." << kFirstSeed + kSeeds - 1
                    << "); the misses:" << describe_misses(tally));
    CHECK(tally.fraction() >= kLowest);
    CHECK(tally.fraction() <= kHighest);
  }
}
