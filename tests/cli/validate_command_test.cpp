// `crawlq validate`: 0 when both engines agree on every shipped scenario, 1 when the simulator is
// fed a different service law than the exact engine, 2 on bad input with nothing on stdout; the
// simulation alone where the exact engine cannot run. Runs are fixed and short (10 replications of
// 20,000 time units); the verdict's bound is the Bonferroni-t of engine_comparison.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

const std::vector<std::string> kShortRun{"--seed", "5",         "--replications",
                                         "10",     "--horizon", "20000"};

ProcessResult validate(std::vector<std::string> files,
                       const std::vector<std::string>& extra = kShortRun) {
  files.insert(files.begin(), "validate");
  files.insert(files.end(), extra.begin(), extra.end());
  return crawlq(files, std::chrono::seconds(120));
}

const json& measure(const json& scenario, const std::string& name) {
  for (const auto& m : scenario.at("measures"))
    if (m.at("name") == name) return m;
  FAIL("no measure " << name);
  throw;
}

TEST_CASE("validate: every shipped scenario agrees, exit 0", "[cli][validate]") {
  std::vector<std::string> files;
  for (const auto& name : kShippedScenarios) files.push_back(shipped(name));
  std::vector<std::string> args = kShortRun;
  args.push_back("--json");
  const ProcessResult run = validate(files, args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  CHECK(j.at("agrees").get<bool>());
  REQUIRE(j.at("scenarios").size() == files.size());
  // Counted by hand: the three shipped queue scenarios, each judged by the exact engine, none
  // differing.
  REQUIRE(files.size() == 3);
  CHECK(j.at("summary").at("agree") == 3);
  CHECK(j.at("summary").at("differ") == 0);
  CHECK(j.at("summary").at("simulated_only") == 0);
  for (const auto& s : j.at("scenarios")) {
    INFO(s.at("file"));
    CHECK(s.at("exact_engine").get<bool>());
    CHECK(s.at("agrees").get<bool>());
    CHECK(s.at("z_bound").get<double>() > 3);
    for (const auto& key : kScalarMeasures) {
      const json& m = measure(s, key);
      INFO(m.dump());
      CHECK(m.at("verdict") == "agrees");
      // The verdict follows from the numbers printed beside it.
      const double z = m.at("z").get<double>();
      CHECK(std::abs(z) <= s.at("z_bound").get<double>());
      if (m.at("half_width").get<double>() > 0)
        CHECK(std::signbit(z) ==
              std::signbit(m.at("mean").get<double>() - m.at("exact").get<double>()));
    }
  }
}

TEST_CASE("validate: a simulator fed a different service law disagrees, exit 1",
          "[cli][validate]") {
  TempDirectory dir;
  const std::string original = read_text(shipped("paper-example-1.yaml"));
  // The same model with a service 20% faster (S scaled by 1.2): only the simulator sees it.
  const std::string faster =
      dir.write("faster.yaml",
                replace_once(original, "S: [[-3, 1], [2, -3]]", "S: [[-3.6, 1.2], [2.4, -3.6]]"));
  std::vector<std::string> args = kShortRun;
  args.insert(args.end(), {"--simulator-file", faster, "--json"});
  const ProcessResult run = validate({shipped("paper-example-1.yaml")}, args);
  INFO(report(run));
  REQUIRE(run.exit_status == 1);
  const json j = json_of(run);
  CHECK_FALSE(j.at("agrees").get<bool>());
  CHECK(j.at("summary").at("agree") == 0);  // one file, and it differs
  CHECK(j.at("summary").at("differ") == 1);
  CHECK(j.at("summary").at("simulated_only") == 0);
  const json& s = j.at("scenarios").at(0);
  CHECK_FALSE(s.at("agrees").get<bool>());
  for (const char* key : {"p_loss", "p_served", "mean_sojourn_served", "cost"}) {
    INFO(key);
    CHECK(measure(s, key).at("verdict") == "differs");
  }
  // The same file against itself is fine: the difference is the service law, not the flag.
  std::vector<std::string> same = kShortRun;
  same.insert(same.end(), {"--simulator-file", shipped("paper-example-1.yaml"), "--json"});
  const ProcessResult itself = validate({shipped("paper-example-1.yaml")}, same);
  INFO(report(itself));
  CHECK(itself.exit_status == 0);
  CHECK(json_of(itself).at("summary").at("agree") == 1);
  CHECK(json_of(itself).at("summary").at("differ") == 0);
}

// The paper's first example at K = 40, written in `dir`.
std::string paper_at_40(TempDirectory& dir) {
  return dir.write("big.yaml", replace_once(read_text(shipped("paper-example-1.yaml")),
                                            "capacity: 5", "capacity: 40"));
}

TEST_CASE("validate: a chain too large for the exact engine is shown simulated, not judged",
          "[cli][validate]") {
  TempDirectory dir;
  // K = 40 with every phase of the two-phase clocks: 2^39 waiting-clock combinations at the top
  // level alone.
  const std::string big = paper_at_40(dir);
  const std::vector<std::string> args{"--seed",    "5",    "--replications", "4",
                                      "--horizon", "2000", "--json",         "--full-chain"};
  const ProcessResult run = validate({big}, args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json s = json_of(run).at("scenarios").at(0);
  CHECK_FALSE(s.at("exact_engine").get<bool>());
  CHECK_THAT(s.at("exact_engine_absent").get<std::string>(), Catch::Contains("more than"));
  for (const auto& m : s.at("measures")) {
    CHECK(m.at("exact").is_null());
    CHECK(m.at("verdict") == "simulated only");
  }
  CHECK(json_of(run).at("summary").at("simulated_only") == 1);
  CHECK(json_of(run).at("summary").at("agree") == 0);  // not judged: counted in neither
  CHECK(json_of(run).at("summary").at("differ") == 0);
}

TEST_CASE("validate: a clock whose phases exit at one rate is judged on the lumped chain",
          "[cli][validate][readable]") {
  TempDirectory dir;
  const std::string big = paper_at_40(dir);
  const ProcessResult run =
      validate({big}, {"--seed", "5", "--replications", "4", "--horizon", "2000"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  // 2 (1 + 2 x 40) states, where every clock phase makes 2 (1 + 2 (2^40 - 1)).
  for (const char* text :
       {"the exact engine solved 162 states in place of 4.39805e+12: every phase of the "
        "obsolescence clock exits at rate 0.2 per unit time, so the phases change no measure "
        "(--full-chain keeps them)",
        "1 scenario: 1 agree, 0 disagree, 0 simulated only"}) {
    INFO(text);
    CHECK_THAT(run.out, Catch::Contains(text));
  }
  const ProcessResult full =
      validate({big}, {"--seed", "5", "--replications", "4", "--horizon", "2000", "--full-chain"});
  INFO(report(full));
  REQUIRE(full.exit_status == 0);
  CHECK_THAT(full.out, Catch::Contains("no exact value: capacity: 40 makes 4.4e+12 states"));
  CHECK_THAT(full.out, !Catch::Contains("the exact engine solved"));
}

TEST_CASE("validate without --json: a table per scenario and a summary line",
          "[cli][validate][readable]") {
  const ProcessResult run = validate({shipped("teaching-two-robots.yaml")});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_FALSE(json::accept(run.out));
  for (const char* text :
       {"teaching-two-robots", "exact", "simulated (95%)", "lost at a full buffer (P_loss)",
        "P(level 4)", "P(2 robots active)", "policy: robots per level 2 2 1 1 1", "agrees",
        "1 scenario: 1 agree, 0 disagree, 0 simulated only"}) {
    INFO(text);
    CHECK_THAT(run.out, Catch::Contains(text));
  }
  // One vocabulary: the tables speak solve's words; the JSON keys stay in --json.
  for (const char* key : {"p_loss", "level_probabilities", "mode_probabilities", "{\""}) {
    INFO(key);
    CHECK_THAT(run.out, !Catch::Contains(key));
  }
}

TEST_CASE("validate: bad input exits 2 naming the culprit, with nothing on stdout",
          "[cli][validate][bad-input]") {
  TempDirectory dir;
  const std::string good = shipped("paper-example-1.yaml");
  const std::string broken = dir.write(
      "broken.yaml", replace_once(read_text(good), "beta: [0.4, 0.6]", "beta: [0.5, 0.6]"));
  const std::string other_k =
      dir.write("other-k.yaml", replace_once(read_text(good), "capacity: 5", "capacity: 4"));
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases{
      {{"validate", good, broken}, {"broken.yaml", "beta"}},
      {{"validate", dir.path().string() + "/absent.yaml"}, {"absent.yaml"}},
      {{"validate", good, "--simulator-file", other_k},
       {"--simulator-file", "other-k.yaml", "K = 4"}},
      {{"validate", good, "--precision", "2"}, {"--precision", "2"}},
      {{"validate", good, "--seed", "x"}, {"--seed", "x"}},
      {{"validate"}, {"FILE"}}};
  for (const auto& c : cases) {
    const ProcessResult run = crawlq(c.args);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK(run.out.empty());
    for (const auto& f : c.fragments) CHECK_THAT(run.err, Catch::Contains(f));
  }
}

}  // namespace
}  // namespace crawlq::cli_test
