// Messages name a field as its caller writes it: the command line's flag, Python's keyword, the
// lab's JSON key. The table must know every field in every dialect, Python's keywords must be those
// of the package's methods, and a request's refusals must use the words of the caller that made it.
#include "api/caller_words.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "api/optimize_request.hpp"
#include "api/request_schema.hpp"
#include "api/simulation_choices.hpp"
#include "api/solve_request.hpp"
#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

constexpr api::Field kFields[] = {
    api::Field::kClass,       api::Field::kSearch,       api::Field::kMethod,
    api::Field::kThreads,     api::Field::kStarts,       api::Field::kExportPolicy,
    api::Field::kTransforms,  api::Field::kCdf,          api::Field::kMaxMaps,
    api::Field::kParameter,   api::Field::kValues,       api::Field::kHorizon,
    api::Field::kSeed,        api::Field::kReplications, api::Field::kWarmup,
    api::Field::kPrecision,   api::Field::kTimeLimit,    api::Field::kPolicy,
    api::Field::kSojourn,     api::Field::kThresholds,   api::Field::kAxes,
    api::Field::kPathHorizon, api::Field::kPolicyA,      api::Field::kPolicyB,
    api::Field::kRegimes,     api::Field::kPhases,       api::Field::kLags,
    api::Field::kRobots,      api::Field::kBatchGap,     api::Field::kCensorGap,
    api::Field::kMean,        api::Field::kSections};

// Whether some request's schema row of `field` is taken by `caller`.
bool schema_gives(api::Field field, api::Caller caller) {
  for (const api::RequestKind kind : api::request_kinds())
    for (const api::RequestField& f : api::request_fields(kind))
      if (f.field == field && api::takes(caller, f)) return true;
  return false;
}

std::string package_source() {
  std::ifstream in(std::string(CRAWLQ_SOURCE_DIR) + "/python/crawlq/__init__.py");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string refusal(const std::function<void()>& request) {
  try {
    request();
  } catch (const model::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("caller words: every field has a flag, a keyword of the package and a JSON key",
          "[api]") {
  const std::string package = package_source();
  REQUIRE_FALSE(package.empty());
  for (const api::Field field : kFields) {
    const std::string flag(api::field_name(api::Caller::kCommandLine, field));
    const std::string keyword(api::field_name(api::Caller::kPython, field));
    const std::string key(api::field_name(api::Caller::kLab, field));
    INFO(flag << " / " << keyword << " / " << key);
    CHECK(flag.rfind("--", 0) == 0);
    CHECK(flag.size() > 2);
    CHECK_FALSE(keyword.empty());
    CHECK(keyword.find('-') == std::string::npos);  // a Python identifier
    // A keyword of one of the package's methods: its own parameter, or one the methods take from
    // the request schema (their signatures are made from it); a field of the lab alone has none.
    const bool lab_only = schema_gives(field, api::Caller::kLab) &&
                          !schema_gives(field, api::Caller::kPython) &&
                          !schema_gives(field, api::Caller::kCommandLine);
    CHECK((lab_only || schema_gives(field, api::Caller::kPython) ||
           package.find(keyword + ": ") != std::string::npos));
    CHECK_FALSE(key.empty());
  }
  CHECK(api::field_given(api::Caller::kCommandLine, api::Field::kClass, "markov") ==
        "--class markov");
  CHECK(api::field_given(api::Caller::kPython, api::Field::kClass, "markov") ==
        "policy_class='markov'");
  CHECK(api::field_given(api::Caller::kLab, api::Field::kClass, "markov") ==
        "\"class\": \"markov\"");
  CHECK(api::field_given(api::Caller::kPython, api::Field::kCdf, "2.5", false) == "cdf=2.5");
}

TEST_CASE("caller words: a request's refusals name its fields in its caller's words", "[api]") {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  api::SolveRequest solve{
      .source = "paper-example-1.yaml", .model = scenario.model, .policy = *scenario.model.policy};
  solve.threads = -2;
  CHECK_THAT(refusal([&] { api::check(solve); }), Catch::StartsWith("--threads: -2"));
  solve.caller = api::Caller::kPython;
  CHECK_THAT(refusal([&] { api::check(solve); }), Catch::StartsWith("threads: -2"));
  solve.threads = 0;
  solve.transforms = {-0.5};
  CHECK_THAT(refusal([&] { api::check(solve); }), Catch::StartsWith("transforms: -0.5"));

  api::OptimizeRequest search{.source = "paper-example-1.yaml", .model = scenario.model};
  search.policy_class = api::PolicyClass::kLevels;
  search.search = analytic::Search::kLocal;
  CHECK_THAT(
      refusal([&] { api::check(search); }),
      Catch::StartsWith("--search local: searches the threshold class only; --class levels"));
  search.caller = api::Caller::kPython;
  CHECK_THAT(refusal([&] { api::check(search); }),
             Catch::StartsWith(
                 "search='local': searches the threshold class only; policy_class='levels'"));
  search.caller = api::Caller::kLab;
  CHECK_THAT(
      refusal([&] { api::check(search); }),
      Catch::StartsWith(
          "\"search\": \"local\": searches the threshold class only; \"class\": \"levels\""));
  CHECK_THAT(refusal([] { api::parse_policy_class("best", api::Caller::kPython); }),
             Catch::Contains("policy_class") && Catch::Contains("unknown class 'best'"));
}

TEST_CASE("check: the memory a request will hold, for a caller that admits work by it", "[api]") {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  api::SolveRequest solve{
      .source = "paper-example-1.yaml", .model = scenario.model, .policy = *scenario.model.policy};
  // Lumped (every phase of the paper's clock exits at rate 0.2): W (1 + M K) = 2 (1 + 2 x 5).
  CHECK(api::check(solve).states == 22);
  solve.full_chain = true;
  const analytic::MemoryEstimate need = api::check(solve);
  // W (1 + M (1 + R + ... + R^{K-1})) with W = M = R = 2, K = 5: 2 (1 + 2 x 31) = 126 states.
  CHECK(need.states == 126);
  CHECK(need.bytes > 126 * sizeof(double));
  api::OptimizeRequest markov{.source = "paper-example-1.yaml", .model = scenario.model};
  markov.policy_class = api::PolicyClass::kMarkov;
  CHECK(api::check(markov).bytes >= need.bytes);
}

TEST_CASE(
    "caller words: a simulation's settings are refused naming the field in the caller's words",
    "[api]") {
  api::SimulationChoices choices;
  CHECK_NOTHROW(api::simulation_settings(choices, api::Caller::kPython));
  choices.replications = 1;
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kPython); }) ==
        "replications: 1: need at least 2 for an interval");
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kCommandLine); }) ==
        "--replications: 1: need at least 2 for an interval");
  choices.replications = 4;
  choices.horizon = -3.0;
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kLab); }) ==
        "horizon: -3: must be a finite positive time");
  choices.horizon = 10.0;
  choices.warmup = std::numeric_limits<double>::quiet_NaN();
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kPython); }) ==
        "warmup: nan: must be a finite time >= 0");
  choices.warmup = std::nullopt;
  choices.precision = 1.0;
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kCommandLine); }) ==
        "--precision: 1: give a relative half-width in (0, 1), e.g. 0.01");
  choices.precision = std::nullopt;
  choices.time_limit = std::numeric_limits<double>::infinity();
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kPython); }) ==
        "time_limit: inf: must be a finite positive number of seconds");
  choices.time_limit = 50;
  choices.threads = -1;
  CHECK(refusal([&] { api::simulation_settings(choices, api::Caller::kPython); }) ==
        "threads: -1: must be 0 (all cores) or more");
}
