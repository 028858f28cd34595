// `crawlq refresh` at the ends of the scale and of its flags: exit 0 with finite numbers, or exit 2
// with one line naming the file (or flag), the key and the value; never 1, never a hang, never
// null. Each case below once failed: h = E exp(-mu X) underflowing to 0 (mu X >~ 745) or 1 - h
// rounding to 0 (mu X <~ 1e-16), a cycle or a simulation larger than the machine, a Fibonacci cycle
// read through a double.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

std::string scenario(const std::string& rates, const std::string& access, const std::string& policy,
                     const std::string& weights = "") {
  return "refresh:\n  change_rates: " + rates + "\n" +
         (weights.empty() ? "" : "  weights: " + weights + "\n") + "  access_time: " + access +
         "\n  policy: " + policy + "\n";
}

// Every number in `j` finite, and no null anywhere (nlohmann prints NaN and infinity as null).
void check_finite(const json& j, const std::string& path = "") {
  INFO("at " << path);
  CHECK_FALSE(j.is_null());
  if (j.is_number_float()) CHECK(std::isfinite(j.get<double>()));
  if (j.is_object())
    for (const auto& [key, value] : j.items()) check_finite(value, path + "." + key);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      check_finite(j[i], path + "[" + std::to_string(i) + "]");
}

json answered(const std::vector<std::string>& args) {
  const ProcessResult run = crawlq(args, std::chrono::seconds(60));
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  check_finite(j);
  return j;
}

std::vector<double> numbers(const json& j) { return j.get<std::vector<double>>(); }

TEST_CASE("refresh: a golden-ratio policy whose every page has h = 0 in doubles",
          "[cli][refresh][limits]") {
  // Before: exit 1, "internal error: vector::_M_fill_insert".
  TempDirectory dir;
  const std::string file = dir.write("all.yaml", scenario("[800, 1000, 900]", "{deterministic: 1}",
                                                          "{kind: golden-ratio, cycle: 13}"));
  const json j = answered({"refresh", file, "--json"});
  const auto r = numbers(j.at("obsolescence_rates"));
  const auto counts = j.at("policy").at("cycle_counts").get<std::vector<long>>();
  const std::vector<double> mu{800, 1000, 900};
  // h^d = 0: (3) with Lemma 3.1 is r_i = 1 - M_i / (K mu_i E[X]).
  for (int i = 0; i < 3; ++i) CHECK(r[i] == Approx(1 - counts[i] / (13 * mu[i])).epsilon(1e-14));
  const auto f = numbers(j.at("frequencies"));
  for (int i = 0; i < 3; ++i)
    CHECK(f[i] == Approx(mu[i] / 2700).epsilon(1e-14));  // (10), l_i = mu_i x
}

TEST_CASE("refresh: one page with h = 0 and a cycle too short for the others",
          "[cli][refresh][limits]") {
  // Before: a hang (the frequencies were NaN). (10) gives the pages 0.0002, 0.9993, 0.0005: 13
  // reads under the paper's rounding floor(f_i F_k) <= M_i <= ceil(f_i F_k) cannot read pages 0
  // and 2.
  TempDirectory dir;
  const std::string rates = "[0.2, 1000, 0.5]";
  const std::string file = dir.write(
      "one.yaml", scenario(rates, "{deterministic: 1}", "{kind: golden-ratio, cycle: 13}"));
  check_refused(crawlq({"refresh", file, "--json"}, std::chrono::seconds(20)),
                {"one.yaml", "refresh.policy.cycle", "13", "1597"});
  // Without a cycle: the shortest Fibonacci cycle from the default on that reads every page.
  const json j = answered(
      {"refresh",
       dir.write("default.yaml", scenario(rates, "{deterministic: 1}", "{kind: golden-ratio}")),
       "--json"});
  CHECK(j.at("policy").at("cycle_length") == 1597);
}

TEST_CASE("refresh: a randomized policy with a page of h = 0: Lemma 4.1's limit 1 - f / (mu E[X])",
          "[cli][refresh][limits]") {
  // Before: "cost": null and null frequencies.
  TempDirectory dir;
  const std::string file =
      dir.write("rnd.yaml", scenario("[0.2, 1000, 0.5]", "{deterministic: 1}",
                                     "{kind: randomized, frequencies: [1, 2, 1]}"));
  const json j = answered({"refresh", file, "--json"});
  const auto r = numbers(j.at("obsolescence_rates"));
  CHECK(r[1] == Approx(1 - 0.5 / 1000).epsilon(1e-15));
  const double h0 = std::exp(-0.2), f0 = 0.25;
  CHECK(r[0] == Approx(1 - f0 / 0.2 + f0 / 0.2 * f0 * h0 / (1 - h0 + f0 * h0)).epsilon(1e-13));
  // The optimum (16) reads the page of h ~ 0 alone: 1/h - 1 = e^1000 - 1.
  CHECK(numbers(j.at("randomized_optimum").at("frequencies")) == std::vector<double>{0, 1, 0});
  CHECK(j.at("lower_bound").get<double>() ==
        Approx(1000.7 - 1).epsilon(1e-14));  // (6), prod h_i = 0
}

TEST_CASE("refresh: change rates of 1e-200 and 1e-300 per read: first-order rates, no nulls",
          "[cli][refresh][limits]") {
  TempDirectory dir;
  for (const std::string q : {"1e-200", "1e-300"}) {
    INFO("mu E[X] = " << q);
    const std::string file =
        dir.write("tiny.yaml", scenario("[" + q + ", 0.5]", "{deterministic: 1}",
                                        "{kind: randomized, frequencies: [1, 1]}"));
    const json j = answered({"refresh", file, "--json"});
    // Randomized, constant X: r = q (2 - f) / (2 f) + O(q^2), f = 1/2.
    CHECK(numbers(j.at("obsolescence_rates"))[0] == Approx(std::stod(q) * 1.5).epsilon(1e-12));
  }
  // Below 1e-300 changes per read the rates would leave the normal doubles: refused, by name.
  const std::string file = dir.write(
      "tinier.yaml", scenario("[1e-301, 0.5]", "{deterministic: 1}", "{kind: randomized}"));
  check_refused(crawlq({"refresh", file, "--json"}),
                {"tinier.yaml", "refresh.change_rates[0]", "1e-301"});
}

TEST_CASE("refresh: extreme scales answer with finite numbers or refuse by name",
          "[cli][refresh][limits]") {
  TempDirectory dir;
  const std::vector<std::string> rates{"[1e-300]",        "[1e300]",
                                       "[1e-300, 1e300]", "[1e-150, 1e-100, 1]",
                                       "[1.7e308]",       "[1e308, 1e308]"};
  const std::vector<std::string> access{
      "{deterministic: 1}",
      "{deterministic: 1e-300}",
      "{deterministic: 1e300}",
      "{beta: [1.0], S: [[-1e-300]]}",
      "{beta: [1.0], S: [[-1e300]]}",
      "{beta: [1, 0, 0], S: [[-3, 3, 0], [0, -3, 3], [0, 0, -3]]}",
      "{beta: [0.9, 0.1], S: [[-1e6, 0], [0, -1e-6]]}"};
  const std::vector<std::string> policies{"{kind: randomized}", "{kind: golden-ratio}"};
  for (const auto& mu : rates)
    for (const auto& x : access)
      for (const auto& policy : policies)
        for (const bool weighted : {false, true}) {
          // 1e300, 1e-300, 1e300, ... : one weight per page.
          std::string weights;
          for (std::size_t page = 0, n = std::count(mu.begin(), mu.end(), ',') + 1; page < n;
               ++page)
            weights += std::string(page ? ", " : "[") + (page % 2 ? "1e-300" : "1e300");
          const std::string text = scenario(mu, x, policy, weighted ? weights + "]" : "");
          INFO(text);
          const std::string file = dir.write("scale.yaml", text);
          const ProcessResult run =
              crawlq({"refresh", file, "--json", "--simulate", "--replications", "3"},
                     std::chrono::seconds(60));
          INFO(report(run));
          REQUIRE((run.exit_status == 0 || run.exit_status == 2));
          if (run.exit_status == 0) check_finite(json_of(run));
          if (run.exit_status == 2) check_refused(run, {"scale.yaml", "refresh."});
        }
}

TEST_CASE(
    "refresh: a Fibonacci cycle is read exactly, and one beyond memory refused before any work",
    "[cli][refresh][limits][golden]") {
  TempDirectory dir;
  // F_90 read through a double became 2880067194370816000, no Fibonacci number.
  for (const std::string cycle : {"2880067194370816120", "12586269025"}) {
    const std::string file =
        dir.write("cycle.yaml", scenario("[0.1, 0.2, 0.3]", "{deterministic: 1}",
                                         "{kind: golden-ratio, cycle: " + cycle + "}"));
    check_refused(crawlq({"refresh", file, "--json"}, std::chrono::seconds(20)),
                  {"cycle.yaml", "refresh.policy.cycle", cycle + ":", "GiB",
                   "the largest cycle that fits is"});
  }
  const std::string beyond =
      dir.write("beyond.yaml", scenario("[0.1, 0.2]", "{deterministic: 1}",
                                        "{kind: golden-ratio, cycle: 99999999999999999999}"));
  check_refused(crawlq({"refresh", beyond}),
                {"beyond.yaml", "refresh.policy.cycle", "99999999999999999999"});
}

TEST_CASE(
    "refresh --simulate: flags beyond time or memory are refused naming the flag and the limit",
    "[cli][refresh][limits][simulate]") {
  TempDirectory dir;
  const std::string file =
      dir.write("three.yaml",
                scenario("[0.1, 0.2, 0.3]", "{beta: [1.0], S: [[-1.0]]}", "{kind: randomized}"));
  // Before: exit 1 (bad_alloc) for the first, a hang for the second.
  check_refused(crawlq({"refresh", file, "--simulate", "--replications", "1000000000"},
                       std::chrono::seconds(20)),
                {"--replications", "1000000000", "the largest allowed is"});
  check_refused(
      crawlq({"refresh", file, "--simulate", "--horizon", "1e308"}, std::chrono::seconds(20)),
      {"--horizon", "1e+308", "the largest horizon allowed is"});
  check_refused(crawlq({"refresh", file, "--simulate", "--threads", "-1"}), {"--threads", "-1"});
  check_refused(crawlq({"refresh", file, "--simulate", "--threads", "100000"}),
                {"--threads", "100000", "1024"});
  // More threads than cores (the most --threads takes): the same numbers as one.
  const json many =
      answered({"refresh", file, "--json", "--simulate", "--threads", "1024", "--seed", "4"});
  const json one =
      answered({"refresh", file, "--json", "--simulate", "--threads", "1", "--seed", "4"});
  CHECK(many.at("simulated").at("cost") == one.at("simulated").at("cost"));
  const json tiny =
      answered({"refresh", file, "--json", "--simulate", "--horizon", "5e-324", "--seed", "0"});
  CHECK(tiny.at("simulated").at("horizon").get<double>() > 0);
}

TEST_CASE("refresh --simulate: the best randomized policy never reads a page",
          "[cli][refresh][limits][simulate]") {
  // The condition after (16) fails: page 0 gets frequency 0. Before: exit 1, the simulator refused
  // it.
  TempDirectory dir;
  const std::string file =
      dir.write("zero.yaml", scenario("[0.2, 0.4, 0.6]", "{beta: [1.0], S: [[-1.0]]}",
                                      "{kind: randomized}", "[1e-6, 1, 2]"));
  const json j = answered({"refresh", file, "--json", "--simulate", "--seed", "3"});
  CHECK(numbers(j.at("frequencies"))[0] == 0.0);
  CHECK(numbers(j.at("obsolescence_rates"))[0] == 1.0);
  CHECK(j.at("simulated").at("obsolescence_rates")[0].at("mean").get<double>() ==
        Approx(1.0).epsilon(1e-12));
}

TEST_CASE("refresh --simulate: the exact limits inside the simulated intervals",
          "[cli][refresh][limits][simulate]") {
  // The forms used where h underflows, checked against the event-driven simulation.
  TempDirectory dir;
  for (const std::string policy :
       {"{kind: golden-ratio}", "{kind: randomized, frequencies: [1, 2, 1]}"}) {
    INFO(policy);
    const std::string file =
        dir.write("limit.yaml", scenario("[0.2, 1000, 0.5]", "{deterministic: 1}", policy));
    const json j = answered({"refresh", file, "--json", "--simulate", "--seed", "11"});
    const auto exact = numbers(j.at("obsolescence_rates"));
    for (std::size_t i = 0; i < exact.size(); ++i) {
      const json& s = j.at("simulated").at("obsolescence_rates")[i];
      INFO("page " << i << ": exact " << exact[i] << ", simulated " << s.at("mean") << " +- "
                   << s.at("half_width"));
      CHECK(std::abs(s.at("mean").get<double>() - exact[i]) <=
            4 * s.at("half_width").get<double>() + 1e-12);
    }
  }
}

}  // namespace
}  // namespace crawlq::cli_test
