// The hardening campaign's findings (issue 13), each as the input that broke a promise: exit 0 with
// correct, finite numbers, or exit 2 with one message naming the file, the key and the value,
// within seconds; and no output file left half written.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;
using std::chrono::seconds;

const char* const kPoisson =
    "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1}]}\nservice: {exponential: {rate: 1}}\n";

json simulated(const ProcessResult& run) {
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

// |simulated - exact| in standard errors of the 95% interval of `replications` replications.
double z_score(const json& interval, double exact) {
  const double se = interval.at("half_width").get<double>() / 2.262;  // t(0.975, 9)
  return (interval.at("mean").get<double>() - exact) / se;
}

TEST_CASE("repair-diagonal checks the shapes before it reads D_k beside D_0", "[cli][hardening]") {
  TempDirectory dir;
  for (const int rows : {1, 200, 400}) {
    std::string d1 = "[";
    for (int r = 0; r < rows; ++r) d1 += r == 0 ? "[1]" : ", [1]";
    d1 += "]";
    const std::string file = dir.write(
        "shapes.yaml",
        "capacity: 2\nrepair-diagonal: true\narrivals: {kind: per-mode, modes: [{D: [[[-1, 1], [1, -1]], " +
            d1 + "]}]}\nservice: {beta: [1], S: [[-1]]}\n");
    check_refused(crawlq({"describe", file}), {"arrivals.modes[0].D[1]", "D0 is 2x2"});
  }
}

TEST_CASE("simulate's default horizon follows the modes the policy uses",
          "[cli][hardening][simulate]") {
  TempDirectory dir;
  // Robot 2 brings pages 10^7 times faster but runs only on an empty system: a horizon from the
  // busiest mode saw a dozen events.
  const std::string file = dir.write("rare-fast-mode.yaml", R"(capacity: 2
arrivals: {kind: independent, robots: [{D: [[[-1]], [[1]]]}, {D: [[[-1e7]], [[1e7]]]}]}
service: {beta: [1], S: [[-1]]}
policy: {thresholds: [0]}
)");
  const json exact = json_of(crawlq({"solve", file, "--json"}));
  const json s = simulated(
      crawlq({"simulate", file, "--replications", "10", "--seed", "3", "--json"}, seconds(60)));
  CHECK(s.at("fewest_pages").get<double>() >= 1e5);
  const ProcessResult v = crawlq({"validate", file, "--seed", "3"}, seconds(120));
  INFO(report(v));
  CHECK(v.exit_status == 0);
  for (const char* key : {"p_served", "p_loss", "lambda", "mean_sojourn_served"}) {
    INFO(key << ": " << s.at(key).dump() << " exact " << exact.at(key));
    CHECK(std::abs(z_score(s.at(key), exact.at(key).get<double>())) < 4.5);
  }
}

TEST_CASE("short durations stay exact however far simulated time runs",
          "[cli][hardening][simulate]") {
  TempDirectory dir;
  // A page a million time units apart, served in a millionth: the default horizon reaches 1e12.
  const std::string file = dir.write("scales.yaml", R"(capacity: 1
arrivals: {kind: per-mode, modes: [{D: [[[-1e-6]], [[1e-6]]]}]}
service: {beta: [1], S: [[-1e6]]}
)");
  const json s = simulated(
      crawlq({"simulate", file, "--replications", "10", "--seed", "2", "--json"}, seconds(60)));
  INFO(s.at("mean_sojourn_served").dump());
  CHECK(std::abs(z_score(s.at("mean_sojourn_served"), 1e-6)) < 4.5);
  CHECK(s.at("mean_sojourn_served").at("half_width").get<double>() < 1e-8);
  // Level 1 holds 10^-12 of the time: the time averages keep it beside the 10^6-long idle spells,
  // and a measure that is 1 in every replication up to round-off is compared as one without spread.
  const ProcessResult v = crawlq({"validate", file, "--seed", "2"}, seconds(120));
  INFO(report(v));
  CHECK(v.exit_status == 0);
}

TEST_CASE("a run that cannot finish is refused at once, one that runs out of time stops in time",
          "[cli][hardening]") {
  const std::string paper = shipped("paper-example-1.yaml");
  const auto quick = seconds(10);
  check_refused(crawlq({"simulate", paper, "--replications", "1000000000"}, quick),
                {"--replications", "1000000000"});
  check_refused(crawlq({"simulate", paper, "--horizon", "1e308"}, quick), {"--horizon", "1e+308"});
  check_refused(crawlq({"simulate", paper, "--warmup", "1e308"}, quick), {"--warmup", "1e+308"});
  check_refused(crawlq({"simulate", paper, "--horizon", "1e9", "--time-limit", "2"}, quick),
                {"--horizon", "--time-limit 2"});
  // A phase entered rarely but kept long at 10^9 events a unit of time: a pilot from the start
  // misses it, the long-run rate does not, and a fixed run of 2 replications is refused as well.
  TempDirectory dir;
  const std::string fast = dir.write(
      "fast-phase.yaml",
      replace_once(read_text(shipped("paper-real-data.yaml")),
                   "[[8.154985e-06, 1.4502649e-07], [2.8652649999999997e-07, 1.410592e-05]]",
                   "[[8.154985e-06, 1.4502649e-07], [2.8652649999999997e-07, 1e9]]"));
  check_refused(crawlq({"simulate", fast, "--replications", "2", "--horizon", "100"}, quick),
                {"--horizon 100", "--time-limit"});
  // validate checks every file's run before it runs the first, so a long list is refused at once.
  check_refused(crawlq({"validate", paper, fast, "--replications", "2", "--horizon", "100"}, quick),
                {fast, "--horizon 100", "--time-limit"});
  check_refused(crawlq({"validate", paper, "--horizon", "1e9", "--time-limit", "2"}, quick),
                {"--horizon", "--time-limit 2"});
  // Passes the up-front bound, but one replication takes many seconds (20 here without the limit):
  // the limit stops it inside, at 3 s and whatever a busy machine adds to start and stop.
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult cut = crawlq(
      {"simulate", paper, "--horizon", "4e7", "--warmup", "0", "--time-limit", "3"}, seconds(60));
  CHECK(std::chrono::steady_clock::now() - start < seconds(12));
  check_refused(cut, {"--time-limit 3 s: 0 replications", "--horizon"});
  // Far out the distribution function is 1, without a sum of 10^9 terms.
  const json cdf = json_of(crawlq({"solve", paper, "--cdf", "1e9", "--json"}, quick));
  CHECK(cdf.at("cdf").at(0).at("served").get<double>() == Approx(1.0).margin(1e-12));
}

TEST_CASE("exit 2, not 1, for inputs the engines cannot take", "[cli][hardening]") {
  const std::string paper = shipped("paper-example-1.yaml");
  check_refused(crawlq({"optimize", paper, "--method", "qbd"}),
                {"--method qbd", "single arrivals"});
  check_refused(crawlq({"sweep", paper, "--param", "arrival-scale", "--values", "1e300"}),
                {"--values", "1e+300"});
  check_refused(crawlq({"describe", "/dev/zero"}), {"/dev/zero", "MiB"});
  TempDirectory dir;
  check_refused(crawlq({"describe", dir.path().string()}), {dir.path().string(), "directory"});
  const std::string rates =
      dir.write("rate.yaml",
                "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1e150}]}\n"
                "service: {exponential: {rate: 1}}\n");
  check_refused(crawlq({"solve", rates}),
                {"rate.yaml", "arrivals.modes[0]", "1e+150", "time unit"});
}

TEST_CASE("sojourn quantiles of a stiff chain come from Krylov steps and agree with the simulator",
          "[cli][hardening]") {
  // A service phase at rate 10^7 beside one at 0.5: uniformisation would need about 2.3 x 10^7
  // products for the median alone; it took 5 s to refuse (and before that, exit 1, "internal
  // error"). Krylov steps answer at once.
  TempDirectory dir;
  const std::string stiff = dir.write("stiff.yaml",
                                      "capacity: 3\narrivals: {kind: poisson, modes: [{rate: 1}]}\n"
                                      "service: {beta: [0.5, 0.5], S: [[-1e7, 0], [0, -0.5]]}\n");
  const json exact = json_of(crawlq({"solve", stiff, "--sojourn", "--json"}, seconds(60)));
  const json s = simulated(
      crawlq({"simulate", stiff, "--replications", "20", "--seed", "4", "--json"}, seconds(120)));
  CHECK(exact.at("sojourn_method") == "krylov");
  const ProcessResult text = crawlq({"solve", stiff, "--sojourn"}, seconds(60));
  CHECK_THAT(text.out, Catch::Contains("by Krylov steps"));
  const json& served = exact.at("sojourn").at("served");
  for (const char* level : {"median", "p90", "p99"}) {
    INFO(level << ": exact " << served.at(level) << ", simulated "
               << s.at("sojourn_served_quantiles").at(level).dump());
    CHECK(std::abs(z_score(s.at("sojourn_served_quantiles").at(level),
                           served.at(level).get<double>())) < 4.5);
  }
  const json means = json_of(crawlq({"solve", stiff, "--lst", "1", "--json"}));
  CHECK(means.at("mean_sojourn").get<double>() == Approx(2.25).epsilon(1e-6));
  CHECK(means.at("transforms").size() == 1);
}

TEST_CASE("messages name the value briefly and plainly", "[cli][hardening]") {
  TempDirectory dir;
  check_refused(crawlq({"describe", dir.write("deep.yaml", "capacity: " + std::string(5000, '[') +
                                                               std::string(5000, ']'))}),
                {"deep.yaml", "line 1", "nested more than"});
  const ProcessResult long_value =
      crawlq({"describe", dir.write("long.yaml", "capacity: " + std::string(1000000, 'x'))});
  check_refused(long_value, {"long.yaml: capacity", "1000000 characters"});
  CHECK(long_value.err.size() < 300);
  check_refused(
      crawlq(
          {"describe", dir.write("tiny.yaml",
                                 "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1e-400}]}\n"
                                 "service: {exponential: {rate: 1}}\n")}),
      {"arrivals.modes[0].rate", "1e-400", "too small"});
  // A subnormal number is a number (it is refused for being a tiny rate, not for not being one).
  check_refused(
      crawlq(
          {"describe", dir.write("subnormal.yaml",
                                 "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1e-310}]}\n"
                                 "service: {exponential: {rate: 1}}\n")}),
      {"arrivals.modes[0].rate", "1e-310", "outside"});
  const std::string paper = shipped("paper-example-1.yaml");
  const json top = json_of(crawlq({"simulate", paper, "--seed", "18446744073709551615",
                                   "--replications", "2", "--horizon", "1000", "--json"}));
  CHECK(top.at("seed").get<std::uint64_t>() == 18446744073709551615ull);
  for (const char* flag : {"--thresholds", "--export", "--lst", "--cdf"})
    check_refused(crawlq({"solve", paper, flag, ""}), {flag, "empty"});
  check_refused(crawlq({"simulate", paper, "--trace", "", "--horizon", "10"}),
                {"--trace", "empty"});
  const std::string huge =
      dir.write("huge.yaml", replace_once(read_text(paper), "capacity: 5", "capacity: 5000"));
  const json described = json_of(crawlq({"describe", huge, "--json"}));
  CHECK(described.at("states").get<std::string>().find("e150") != std::string::npos);
  const std::string too_big = dir.write(
      "too-big.yaml", replace_once(read_text(paper), "capacity: 5", "capacity: 1000000000"));
  check_refused(crawlq({"describe", too_big}), {"capacity", "1000000000", "at most"});
}

TEST_CASE("a failed write exits 2 and an existing file is replaced only by a whole one",
          "[cli][hardening][output]") {
  const std::string paper = shipped("paper-example-1.yaml");
  check_refused(crawlq({"solve", paper, "--export", "/dev/full"}), {"--export /dev/full"});
  check_refused(crawlq({"simulate", paper, "--trace", "/dev/full", "--horizon", "100"}),
                {"--trace /dev/full"});
  check_refused(
      crawlq({"sweep", paper, "--param", "capacity", "--values", "2,3", "--csv", "/dev/full"}),
      {"--csv /dev/full"});
  const auto start = std::chrono::steady_clock::now();
  check_refused(crawlq({"reproduce", "--out", "/dev/full"}), {"--out /dev/full"});
  CHECK(std::chrono::steady_clock::now() - start < seconds(3));

  TempDirectory dir;
  const std::string csv = dir.write("old.csv", "the previous results\n");
  // A sweep refused after the file was named leaves it as it was.
  check_refused(crawlq({"sweep", paper, "--param", "capacity", "--values", "2,x", "--csv", csv}),
                {"--values"});
  CHECK(read_text(csv) == "the previous results\n");
  REQUIRE(crawlq({"sweep", paper, "--param", "capacity", "--values", "2,3", "--csv", csv})
              .exit_status == 0);
  CHECK(read_text(csv).rfind("value,", 0) == 0);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    CHECK(entry.path().filename().string().find("partial") ==
          std::string::npos);  // no temporary left behind
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE("Ctrl-C while gnuplot draws stops reproduce, with no report that links missing figures",
          "[cli][hardening][output]") {
  TempDirectory dir;
  // A gnuplot that is interrupted as the user's Ctrl-C would interrupt it (the terminal signals the
  // whole foreground group; system() shields crawlq itself).
  const std::string fake = dir.write("gnuplot", "#!/bin/sh\nkill -INT $$\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (dir.path().string() + ":" + path).c_str(), 1);
  const ProcessResult run = crawlq(
      {"reproduce", "--quick", "--sections", "figures", "--out", (dir.path() / "report").string()},
      seconds(120));
  setenv("PATH", path.c_str(), 1);
  INFO(report(run));
  CHECK(run.exit_status == 128 + SIGINT);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "report" / "report.md"));
  CHECK(run.err.find("not installed") == std::string::npos);
}

}  // namespace
}  // namespace crawlq::cli_test
