// `crawlq refresh`: the JSON of interface.md, every number recomputed here from the paper's
// formulas (not from crawlq's code): Lemma 4.1, (3) with Lemma 3.1, (6), (10), (16); the
// golden-ratio example of section 5; the simulation's intervals around the exact rates; refused
// input.
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json refresh_json(const std::string& file, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"refresh", file, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult run = crawlq(args, std::chrono::seconds(120));
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

std::vector<double> numbers(const json& j) { return j.get<std::vector<double>>(); }

const std::string kThreePages = R"(
name: three-pages
refresh:
  change_rates: [0.1, 0.2, 0.3]
  access_time: {beta: [1.0], S: [[-1.0]]}
  policy: {kind: randomized, frequencies: optimal}
)";

TEST_CASE("refresh --json: randomized optimum (16) and Lemma 4.1, bound (6) and (10)",
          "[cli][refresh]") {
  TempDirectory dir;
  const json j = refresh_json(dir.write("three.yaml", kThreePages));
  const std::vector<double> mu{0.1, 0.2, 0.3};
  std::vector<double> h;
  for (double m : mu) h.push_back(1.0 / (1.0 + m));  // E exp(-mu X), X exponential of mean 1
  // (16): f_i proportional to 1/h_i - 1 = mu_i here.
  const auto f = numbers(j.at("frequencies"));
  for (int i = 0; i < 3; ++i) CHECK(f[i] == Approx(mu[i] / 0.6).epsilon(1e-12));
  // Lemma 4.1 and (4) with c_i = mu_i.
  const auto r = numbers(j.at("obsolescence_rates"));
  double cost = 0;
  for (int i = 0; i < 3; ++i) {
    const double expected =
        1 - f[i] / mu[i] + f[i] / mu[i] * f[i] * h[i] / (1 - h[i] + f[i] * h[i]);
    CHECK(r[i] == Approx(expected).epsilon(1e-12));
    cost += mu[i] * r[i];
  }
  CHECK(j.at("cost").get<double>() == Approx(cost).epsilon(1e-12));
  // (6): mu - 1/E[X] + prod h_i / E[X], and (10): f_i proportional to -ln h_i.
  CHECK(j.at("lower_bound").get<double>() == Approx(0.6 - 1 + h[0] * h[1] * h[2]).epsilon(1e-12));
  const auto x = numbers(j.at("lower_bound_frequencies"));
  const double log_sum = std::log(h[0]) + std::log(h[1]) + std::log(h[2]);
  for (int i = 0; i < 3; ++i) CHECK(x[i] == Approx(std::log(h[i]) / log_sum).epsilon(1e-12));
  CHECK(j.at("cost").get<double>() >= j.at("lower_bound").get<double>());
  CHECK(j.at("randomized_optimum").at("validity_condition_holds").get<bool>());
}

TEST_CASE("refresh --json: a cyclic policy by (3) and Lemma 3.1", "[cli][refresh]") {
  TempDirectory dir;
  const std::string file = dir.write("cyclic.yaml", R"(
refresh:
  change_rates: [0.5, 0.1]
  weights: [2, 1]
  access_time: {deterministic: 0.5}
  policy: {kind: cyclic, sequence: [0, 0, 1]}
)");
  const json j = refresh_json(file);
  const double ex = 0.5;
  const auto stale = [&](double mu, int d) { return d * ex - (1 - std::exp(-mu * ex * d)) / mu; };
  // Page 0 is read at positions 0 and 1 (distances 1 and 2), page 1 at position 2 (distance 3).
  const double r0 = (stale(0.5, 1) + stale(0.5, 2)) / (3 * ex), r1 = stale(0.1, 3) / (3 * ex);
  const auto r = numbers(j.at("obsolescence_rates"));
  CHECK(r[0] == Approx(r0).epsilon(1e-13));
  CHECK(r[1] == Approx(r1).epsilon(1e-13));
  CHECK(j.at("cost").get<double>() == Approx(2 * r0 + r1).epsilon(1e-13));
  CHECK(numbers(j.at("frequencies")) == std::vector<double>{2.0 / 3, 1.0 / 3});
  // Frequencies given beside the sequence are accepted when they are the sequence's.
  const json same = refresh_json(
      dir.write("same.yaml", replace_once(read_text(file), "sequence: [0, 0, 1]",
                                          "sequence: [0, 0, 1], frequencies: [2, 1]")));
  CHECK(same.at("cost").get<double>() == j.at("cost").get<double>());
  CHECK_FALSE(
      j.at("lower_bound_closed_form").get<bool>());  // weights not proportional to the rates
  CHECK(j.at("cost").get<double>() >= j.at("lower_bound").get<double>());
}

TEST_CASE(
    "refresh: the paper's golden-ratio example reads {4,2,4,1,3,4,2,4,1,3,4,2,3} up to rotation",
    "[cli][refresh][golden]") {
  const json j = refresh_json(shipped("refresh-paper-example.yaml"));
  const auto f = numbers(j.at("frequencies"));
  const std::vector<double> paper{2.0 / 13, 3.0 / 13, 3.0 / 13, 5.0 / 13};
  for (int i = 0; i < 4; ++i) CHECK(f[i] == Approx(paper[i]).epsilon(1e-12));
  const auto cycle = j.at("policy").at("cycle").get<std::vector<int>>();
  const std::vector<int> printed{4, 2, 4, 1, 3, 4, 2, 4, 1, 3, 4, 2, 3};
  REQUIRE(cycle.size() == printed.size());
  bool rotation = false;
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    bool same = true;
    for (std::size_t s = 0; s < cycle.size(); ++s)
      same = same && cycle[(s + k) % cycle.size()] + 1 == printed[s];
    rotation = rotation || same;
  }
  CHECK(rotation);
  CHECK(j.at("policy").at("cycle_counts") == json::array({2, 3, 3, 5}));
}

TEST_CASE(
    "refresh: many small pages, the golden ratio within Corollary 5.1's 2 phi^2 / 5 of the bound",
    "[cli][refresh][golden]") {
  const json j = refresh_json(shipped("refresh-many-pages.yaml"));
  const double ratio = j.at("cost_over_lower_bound").get<double>();
  const double limit = (std::sqrt(5.0) + 3) / 5;
  CHECK(ratio >= 1.0);
  CHECK(ratio <= limit);
  CHECK(j.at("golden_ratio_limit").at("two_phi_squared_over_five").get<double>() == Approx(limit));
  CHECK(j.at("golden_ratio_limit").at("q").get<double>() == Approx(1.0));
  CHECK(j.at("obsolescence_rates").size() == 500);
}

TEST_CASE("refresh --simulate: the exact rates and cost inside the simulated intervals",
          "[cli][refresh][simulate]") {
  TempDirectory dir;
  const json j = refresh_json(dir.write("three.yaml", kThreePages),
                              {"--simulate", "--seed", "5", "--replications", "10"});
  const json& s = j.at("simulated");
  const auto exact = numbers(j.at("obsolescence_rates"));
  REQUIRE(s.at("obsolescence_rates").size() == exact.size());
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double mean = s.at("obsolescence_rates")[i].at("mean"),
                 half = s.at("obsolescence_rates")[i].at("half_width");
    INFO("page " << i << ": exact " << exact[i] << ", simulated " << mean << " +- " << half
                 << " (seed 5)");
    CHECK(half > 0);
    CHECK(std::abs(mean - exact[i]) <= 4 * half);
  }
  CHECK(std::abs(s.at("cost").at("mean").get<double>() - j.at("cost").get<double>()) <=
        4 * s.at("cost").at("half_width").get<double>());
  CHECK(s.at("replications") == 10);
}

TEST_CASE("refresh: broken files are refused naming the file, the key and the value",
          "[cli][refresh][bad-input]") {
  TempDirectory dir;
  struct Case {
    std::string from, to;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases{
      {"kind: randomized", "kind: round-robin", {"refresh.policy.kind", "round-robin"}},
      {"frequencies: optimal", "frequencies: [1, 0, 2]", {"refresh.policy.frequencies[1]"}},
      {"frequencies: optimal", "frequencies: often", {"refresh.policy.frequencies", "often"}},
      {"change_rates: [0.1, 0.2, 0.3]",
       "change_rates: [0.1, -0.2, 0.3]",
       {"refresh.change_rates[1]", "-0.2"}},
      {"kind: randomized, frequencies: optimal",
       "kind: cyclic, sequence: [0, 1, 1]",
       {"refresh.policy.sequence", "page 2"}},
      {"kind: randomized, frequencies: optimal",
       "kind: cyclic, sequence: [0, 1, 3]",
       {"refresh.policy.sequence[2]", "3"}},
      {"kind: randomized, frequencies: optimal",
       "kind: golden-ratio, cycle: 12",
       {"refresh.policy.cycle", "12"}},
      {"kind: randomized, frequencies: optimal",
       "kind: golden-ratio, cycle: 2",
       {"refresh.policy.cycle", "2"}},
      {"access_time: {beta: [1.0], S: [[-1.0]]}",
       "access_time: {deterministic: 0}",
       {"refresh.access_time.deterministic"}},
      {"access_time: {beta: [1.0], S: [[-1.0]]}",
       "access_time: {beta: [0.5], S: [[-1.0]]}",
       {"refresh.access_time", "beta"}},
      {"kind: randomized, frequencies: optimal",
       "kind: cyclic, sequence: [0, 1, 2], frequencies: [1, 1, 2]",
       {"refresh.policy.frequencies[0]", "a frequency of"}},
      {"name: three-pages", "name: three-pages\nextra: 1", {"extra"}}};
  for (const auto& c : cases) {
    const std::string file = dir.write("broken.yaml", replace_once(kThreePages, c.from, c.to));
    const ProcessResult run = crawlq({"refresh", file, "--json"});
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("broken.yaml"));
    for (const auto& f : c.fragments) CHECK_THAT(run.err, Catch::Contains(f));
  }
  // The two kinds of scenario file are told apart.
  const ProcessResult queue_file = crawlq({"refresh", shipped("paper-example-1.yaml")});
  CHECK(queue_file.exit_status == 2);
  CHECK_THAT(queue_file.err, Catch::Contains("refresh"));
  const ProcessResult refresh_file = crawlq({"solve", dir.write("three.yaml", kThreePages)});
  CHECK(refresh_file.exit_status == 2);
  CHECK_THAT(refresh_file.err, Catch::Contains("crawlq refresh"));
}

}  // namespace
}  // namespace crawlq::cli_test
