// Files as people write them: short decimals, numbers as YAML strings, and the common laws by name,
// each loading to exactly the model of its written-out form.
#include <catch2/catch.hpp>
#include <string>

#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"

using crawlq::model::Model;
using crawlq::scenarios::parse_refresh_scenario;
using crawlq::scenarios::parse_scenario;
using crawlq::scenarios::ScenarioError;

namespace {

void require_same_model(const Model& a, const Model& b) {
  REQUIRE(a.modes() == b.modes());
  for (int r = 1; r <= a.modes(); ++r) {
    const auto& x = a.arrivals.mode(r).matrices();
    const auto& y = b.arrivals.mode(r).matrices();
    REQUIRE(x.size() == y.size());
    for (std::size_t k = 0; k < x.size(); ++k) CHECK(x[k] == y[k]);  // every bit, not approximately
  }
  CHECK(a.service.initial() == b.service.initial());
  CHECK(a.service.subgenerator() == b.service.subgenerator());
  REQUIRE(a.obsolescence.has_value() == b.obsolescence.has_value());
  if (a.obsolescence) {
    CHECK(a.obsolescence->initial() == b.obsolescence->initial());
    CHECK(a.obsolescence->subgenerator() == b.obsolescence->subgenerator());
  }
}

void require_refused(const std::string& text, const std::string& fragment) {
  INFO(text);
  try {
    parse_scenario(text, "broken.yaml");
    FAIL("accepted a broken file");
  } catch (const ScenarioError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("broken.yaml: " + fragment) == 0);
  }
}

const std::string kService = "service: {beta: [1], S: [[-2]]}\n";

}  // namespace

TEST_CASE("the issue's file with one-decimal rates loads", "[scenarios][decimals]") {
  const auto s = parse_scenario(R"(
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-0.6]], [[0.3]], [[0.3]]]
    - D: [[[-0.9]], [[0.6]], [[0.3]]]
service: {beta: [0.1, 0.2, 0.7], S: [[-0.9, 0.6, 0.3], [0.1, -0.3, 0.1], [0, 0, -1.1]]}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.7, 0.4], [0.1, -0.3]]}
)",
                                "decimals.yaml");
  CHECK(s.model.modes() == 2);
  CHECK(s.model.service.exit_rates()(0) == 0.0);  // -0.9 + 0.6 + 0.3: no exit, as written on paper
}

TEST_CASE("numbers written as YAML strings, with exponents or a PDF's minus sign, load",
          "[scenarios][decimals]") {
  const auto plain = parse_scenario(
      "capacity: 2\narrivals: {kind: per-mode, modes: [{D: [[[-0.3]], [[0.1]], [[0.2]]]}]}\n"
      "service: {beta: [1], S: [[-0.5]]}\n",
      "plain.yaml");
  const auto written = parse_scenario(
      "capacity: '2'\narrivals: {kind: per-mode, modes: [{D: [[['-3e-1']], [[1e-1]], [[\"0.20\"]]]}]}\n"
      "service: {beta: ['1.0'], S: [[\u22120.5]]}\n",
      "written.yaml");
  require_same_model(plain.model, written.model);
  CHECK(written.model.capacity == 2);
}

TEST_CASE("each law by name loads to exactly its written-out form", "[scenarios][named_laws]") {
  const std::string arrivals =
      "capacity: 3\narrivals: {kind: per-mode, modes: [{D: [[[-1]], [[1]]]}]}\n";
  struct Pair {
    std::string named, written;
  };
  const Pair pairs[] = {
      {"service: {exponential: {rate: 2}}", "service: {beta: [1], S: [[-2]]}"},
      {"service: {exponential: {mean: 0.5}}", "service: {beta: [1], S: [[-2]]}"},
      {"service: {erlang: {phases: 3, mean: 1.5}}",
       "service: {beta: [1, 0, 0], S: [[-2, 2, 0], [0, -2, 2], [0, 0, -2]]}"},
      {"service: {hyperexponential: {probabilities: [0.3, 0.7], rates: [0.5, 4]}}",
       "service: {beta: [0.3, 0.7], S: [[-0.5, 0], [0, -4]]}"},
      {"service: {exponential: {rate: 1}}\nobsolescence: {erlang: {phases: 2, mean: 5}}",
       "service: {beta: [1], S: [[-1]]}\nobsolescence: {gamma: [1, 0], Gamma: [[-0.4, 0.4], [0, -0.4]]}"},
      {"service: {exponential: {rate: 1}}\nobsolescence: {exponential: {mean: 5}}",
       "service: {beta: [1], S: [[-1]]}\nobsolescence: {gamma: [1], Gamma: [[-0.2]]}"},
  };
  for (const Pair& p : pairs) {
    INFO(p.named);
    require_same_model(parse_scenario(arrivals + p.named, "named.yaml").model,
                       parse_scenario(arrivals + p.written, "written.yaml").model);
  }
}

TEST_CASE("Poisson batches load to exactly their written-out BMAP, as modes or as robots",
          "[scenarios][named_laws]") {
  const auto named = parse_scenario(
      "capacity: 3\narrivals: {kind: poisson, modes: [{rate: 0.8, batch: [0.5, 0.3, 0.2]}, {rate: 2}]}\n" +
          kService,
      "poisson.yaml");
  const auto written = parse_scenario(
      "capacity: 3\narrivals: {kind: per-mode, modes: [{D: [[[-0.8]], [[0.4]], [[0.24]], [[0.16000000000000003]]]}, "
      "{D: [[[-2]], [[2]]]}]}\n" +
          kService,
      "written.yaml");
  require_same_model(named.model, written.model);

  // A Poisson source also stands wherever a BMAP does: a robot of kind independent.
  const auto robots = parse_scenario(
      "capacity: 3\narrivals: {kind: independent, robots: [{rate: 1}, {rate: 1, batch: [0.5, 0.5]}]}\n" +
          kService,
      "robots.yaml");
  const auto robots_written = parse_scenario(
      "capacity: 3\narrivals: {kind: independent, robots: [{D: [[[-1]], [[1]]]}, {D: [[[-1]], [[0.5]], [[0.5]]]}]}\n" +
          kService,
      "robots-written.yaml");
  require_same_model(robots.model, robots_written.model);
}

TEST_CASE("wrong numbers in a law by name are refused naming the file, the key and the value",
          "[scenarios][named_laws]") {
  const std::string head = "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1}]}\n";
  require_refused(head + "service: {erlang: {phases: 0, mean: 1}}", "service.erlang.phases: '0'");
  require_refused(head + "service: {erlang: {phases: 2.5, mean: 1}}",
                  "service.erlang.phases: '2.5'");
  require_refused(head + "service: {erlang: {phases: 2}}", "service.erlang.mean: missing");
  require_refused(head + "service: {exponential: {rate: -1}}", "service.exponential.rate: -1");
  require_refused(head + "service: {exponential: {rate: 1, mean: 1}}",
                  "service.exponential: give exactly one");
  require_refused(head + "service: {exponential: 3}",
                  "service.exponential: give its parameters as a mapping");
  require_refused(head + "service: {exponental: {rate: 1}}", "service.exponental: unknown key");
  require_refused(head + "service: {exponential: {rate: 1}, beta: [1]}",
                  "service: exponential beside beta");
  require_refused(head + "service: {hyperexponential: {probabilities: [0.3, 0.6], rates: [1, 2]}}",
                  "service.hyperexponential.probabilities: sum 0.9 != 1");
  require_refused(
      head +
          "service: {beta: [1], S: [[-1]]}\nobsolescence: {hyperexponential: {probabilities: [1], rates: [0]}}",
      "obsolescence.hyperexponential.rates[0]: 0");
  require_refused(
      "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1, batch: [0.5, 0.4]}]}\n" + kService,
      "arrivals.modes[0].batch: sum 0.9 != 1");
  require_refused("capacity: 2\narrivals: {kind: poisson, modes: [{rate: 0}]}\n" + kService,
                  "arrivals.modes[0].rate: 0");
  require_refused(
      "capacity: 2\narrivals: {kind: poisson, modes: [{D: [[[-1]], [[1]]]}]}\n" + kService,
      "arrivals.modes[0].D: kind poisson takes {rate, batch}");
  require_refused(
      "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1, sizes: [1]}]}\n" + kService,
      "arrivals.modes[0].sizes: unknown key");
  require_refused("capacity: 2\narrivals: {kind: per-mode, modes: [{rates: 1}]}\n" + kService,
                  "arrivals.modes[0]: give D");
}

TEST_CASE("a refresh model's access time takes a law by name", "[scenarios][named_laws]") {
  const auto named = parse_refresh_scenario(
      "refresh: {change_rates: [0.1, 0.2], access_time: {erlang: {phases: 2, mean: 1}}}",
      "named.yaml");
  const auto written = parse_refresh_scenario(
      "refresh: {change_rates: [0.1, 0.2], access_time: {beta: [1, 0], S: [[-2, 2], [0, -2]]}}",
      "written.yaml");
  CHECK(named.model.access_time.laplace_transform(0.3) ==
        written.model.access_time.laplace_transform(0.3));
  CHECK(named.model.access_time.mean() == 1.0);
}

TEST_CASE("one number stands for a list of one, but not for a matrix", "[scenarios]") {
  const std::string head =
      "capacity: 3\narrivals: {kind: poisson, modes: [{rate: 1}, {rate: 2, batch: 1}]}\n";
  const auto s = parse_scenario(head + kService + "policy: {thresholds: 1}\n", "scalar.yaml");
  REQUIRE(s.model.policy.has_value());
  CHECK(s.model.level_map()->levels() == std::vector<int>{2, 2, 1, 1});
  require_refused(head + "service: {beta: [1], S: [-2]}\n", "service.S[0]: expected a list");
}
