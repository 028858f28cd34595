// `solve --sojourn --json`'s keys (probability, mean, sd, median, p90, p99 of each fate) against
// the tagged page's chain written out state by state (brute_force_sojourn.hpp), on random models
// with obsolescence: the sd from its second moment, the quantiles found here by bisection on its
// distribution function (a dense matrix exponential), none of analytic/ used for them. The same
// chain gives `--lst` and `--cdf` at finite points: its transform by a dense LU, its distribution
// function by the matrix exponential.
#include <catch2/catch.hpp>
#include <string>

#include "api/solve_request.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

double brute_quantile(const BruteForceSojourn& brute, Fate fate, double level) {
  double low = 0, high = brute.mean(fate);
  while (brute.cdf(fate, high) < level) high *= 2;
  while (high - low > 1e-11 * high) {
    const double mid = 0.5 * (low + high);
    (brute.cdf(fate, mid) < level ? low : high) = mid;
  }
  return high;
}

struct FateKey {
  Fate brute;
  const char* name;
};
constexpr FateKey kFateKeys[] = {
    {Fate::kAccepted, "accepted"}, {Fate::kServed, "served"}, {Fate::kObsolete, "obsolete"}};

TEST_CASE(
    "solve --sojourn JSON: sd and quantiles of every fate equal the brute-force tagged chain's",
    "[crosscheck][sojourn]") {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 300});
    if (!model.obsolescence) continue;  // the obsolete fate's law is the point here
    INFO("seed " << seed << "\n" << describe(model));
    const BruteForceChain chain(model, *model.level_map());
    const BruteForceSojourn brute(model, chain);
    api::SolveRequest request{.source = model.name,
                              .model = model,
                              .policy = *model.level_map(),
                              .method = analytic::Method::kAuto,
                              .threads = 1,
                              .sojourn = true,
                              .transforms = {},
                              .cdf_points = {}};
    const nlohmann::json j = api::to_json(request, api::solve(request));
    for (const FateKey& fate : kFateKeys) {
      const auto& law = j.at("sojourn").at(fate.name);
      INFO(fate.name << ": " << law.dump());
      CHECK(law.at("probability").get<double>() ==
            Approx(brute.probability(fate.brute)).epsilon(1e-9).margin(1e-12));
      if (brute.probability(fate.brute) < 1e-9) continue;
      CHECK(law.at("mean").get<double>() == Approx(brute.mean(fate.brute)).epsilon(1e-8));
      CHECK(law.at("sd").get<double>() ==
            Approx(brute.standard_deviation(fate.brute)).epsilon(1e-7));
      CHECK(law.at("median").get<double>() ==
            Approx(brute_quantile(brute, fate.brute, 0.5)).epsilon(1e-6));
      CHECK(law.at("p90").get<double>() ==
            Approx(brute_quantile(brute, fate.brute, 0.9)).epsilon(1e-6));
      CHECK(law.at("p99").get<double>() ==
            Approx(brute_quantile(brute, fate.brute, 0.99)).epsilon(1e-6));
      ++compared;
    }
  }
  // No silent skip: the seeds above give 27 fates with pages (a change of random_models shows
  // here).
  CHECK(compared == 27);
}

TEST_CASE(
    "solve --lst --cdf JSON: every fate's transform and distribution function at finite points "
    "equal the brute-force tagged chain's",
    "[crosscheck][sojourn]") {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 300});
    if (!model.obsolescence) continue;  // the obsolete fate's law is the point here
    INFO("seed " << seed << "\n" << describe(model));
    const BruteForceChain chain(model, *model.level_map());
    const BruteForceSojourn brute(model, chain);
    // Points on the model's own time scale: below, at and well above the mean sojourn.
    const double mean = brute.mean(Fate::kAccepted);
    api::SolveRequest request{.source = model.name,
                              .model = model,
                              .policy = *model.level_map(),
                              .method = analytic::Method::kAuto,
                              .threads = 1,
                              .sojourn = false,
                              .transforms = {0.5 / mean, 2 / mean},
                              .cdf_points = {0.25 * mean, mean, 3 * mean}};
    const nlohmann::json j = api::to_json(request, api::solve(request));
    REQUIRE(j.at("transforms").size() == 2);
    REQUIRE(j.at("cdf").size() == 3);
    for (const FateKey& fate : kFateKeys) {
      if (brute.probability(fate.brute) < 1e-9) continue;
      for (std::size_t i = 0; i < request.transforms.size(); ++i) {
        const auto& t = j.at("transforms").at(i);
        INFO(fate.name << ": " << t.dump());
        CHECK(t.at(fate.name).get<double>() ==
              Approx(brute.transform(fate.brute, request.transforms[i])).epsilon(1e-9));
      }
      for (std::size_t i = 0; i < request.cdf_points.size(); ++i) {
        const auto& c = j.at("cdf").at(i);
        INFO(fate.name << ": " << c.dump());
        CHECK(c.at(fate.name).get<double>() ==
              Approx(brute.cdf(fate.brute, request.cdf_points[i])).margin(1e-9));
      }
      ++compared;
    }
  }
  // The same 27 fates with pages as above.
  CHECK(compared == 27);
}

}  // namespace
}  // namespace crawlq::crosscheck
