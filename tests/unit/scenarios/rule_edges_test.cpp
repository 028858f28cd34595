// Every rule a scenario file is checked against, at its edge: a file just inside the rule is
// accepted (and, where cheap, its value arrives), the same file with one value just outside it is
// refused with a message that names the file, then the key path, then why. Sums are judged against
// their terms (model/rate_checks.hpp: |sum - target| <= 1e-9 max(sum |terms|, |target|)), so their
// edges sit within 2.5% of that slack, inside and outside it; rates and weights sit at
// model::kLargestRate or model::kSmallestRate and at the next double past it. The absorption rule
// has its own file (absorption_edges_test.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "model/costs.hpp"
#include "model/model.hpp"
#include "model/named_laws.hpp"
#include "model/rate_checks.hpp"
#include "model/refresh_model.hpp"
#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"

namespace {

namespace model = crawlq::model;
using Catch::Matchers::Contains;
using crawlq::scenarios::parse_refresh_scenario;
using crawlq::scenarios::parse_scenario;
using crawlq::scenarios::RefreshScenario;
using crawlq::scenarios::Scenario;
using crawlq::scenarios::ScenarioError;

const std::string kLabel = "edge.yaml";

// As a file writes them: the ends of the rate range and the doubles just past them.
const std::string kLargest = fmt::format("{}", model::kLargestRate);
const std::string kPastLargest =
    fmt::format("{}", std::nextafter(model::kLargestRate, std::numeric_limits<double>::infinity()));
const std::string kSmallest = fmt::format("{}", model::kSmallestRate);
const std::string kBelowSmallest = fmt::format("{}", std::nextafter(model::kSmallestRate, 0.0));
const std::string kOutsideRange =
    fmt::format("outside {:g}..{:g}", model::kSmallestRate, model::kLargestRate);
// The smallest negative double: the least a value can fall below 0.
const std::string kJustNegative = "-4.9e-324";

// One key of a file and its value as YAML; an empty value leaves the key out.
struct Key {
  std::string key;
  std::string value;
};

// `base` with each change in place of its key (after the others when the key is new).
std::string with_keys(const std::vector<Key>& base, const std::vector<Key>& changes,
                      const std::string& indent) {
  std::vector<Key> keys = base;
  for (const Key& change : changes) {
    const auto at =
        std::find_if(keys.begin(), keys.end(), [&](const Key& k) { return k.key == change.key; });
    if (at == keys.end())
      keys.push_back(change);
    else
      at->value = change.value;
  }
  std::string text;
  for (const Key& k : keys)
    if (!k.value.empty()) text += indent + k.key + ": " + k.value + "\n";
  return text;
}

// Two modes of two phases with no two rates alike, so that a rule read at the wrong index shows.
const std::string kModeOne = "{D: [[[-3, 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}";
const std::string kModeTwo =
    "{D: [[[-5, 2], [1, -4]], [[1.5, 0.25], [0.5, 1.75]], [[0.25, 1], [0.5, 0.25]]]}";

const std::vector<Key> kScenario = {
    {"name", "edges"},
    {"capacity", "4"},
    {"arrivals", "{kind: per-mode, modes: [" + kModeOne + ", " + kModeTwo + "]}"},
    {"service", "{beta: [0.3, 0.7], S: [[-4, 1], [0.5, -2]]}"},
    {"obsolescence", "{gamma: [0.6, 0.4], Gamma: [[-0.7, 0.2], [0.1, -0.3]]}"},
    {"costs", "{loss: 1.5, obsolescence: 0.25, robot: 0.75}"},
    {"policy", "{thresholds: [1]}"},
};

std::string scenario(const std::vector<Key>& changes = {}) {
  return with_keys(kScenario, changes, "");
}
std::string scenario(const std::string& key, const std::string& value) {
  return scenario({{key, value}});
}

const std::vector<Key> kRefresh = {
    {"change_rates", "[0.5, 2, 1.25]"},
    {"weights", "[1, 3, 0.75]"},
    {"access_time", "{beta: [0.4, 0.6], S: [[-3, 1], [2, -5]]}"},
    {"policy", "{kind: golden-ratio, cycle: 13}"},
};

std::string refresh(const std::vector<Key>& changes = {}) {
  return "name: refresh-edges\nrefresh:\n" + with_keys(kRefresh, changes, "  ");
}
std::string refresh(const std::string& key, const std::string& value) {
  return refresh({{key, value}});
}

// "[entry(0), entry(1), ...]" with n entries.
std::string list_of(int n, const std::function<std::string(int)>& entry) {
  std::string text = "[";
  for (int i = 0; i < n; ++i) text += (i ? ", " : "") + entry(i);
  return text + "]";
}

Scenario accepted(const std::string& text) {
  INFO(text);
  return parse_scenario(text, kLabel);
}

RefreshScenario refresh_accepted(const std::string& text) {
  INFO(text);
  return parse_refresh_scenario(text, kLabel);
}

void require_refused(const std::function<void()>& parse, const std::string& text,
                     const std::string& key, const std::string& why) {
  INFO(text);
  try {
    parse();
    FAIL("accepted a file just outside the rule");
  } catch (const ScenarioError& e) {
    CHECK_THAT(std::string(e.what()), Contains(kLabel + ": " + key) && Contains(why));
  }
}

void refused(const std::string& text, const std::string& key, const std::string& why) {
  require_refused([&] { parse_scenario(text, kLabel); }, text, key, why);
}

void refresh_refused(const std::string& text, const std::string& key, const std::string& why) {
  require_refused([&] { parse_refresh_scenario(text, kLabel); }, text, key, why);
}

// The two phase-type laws of a scenario, read by the same code under their own keys.
struct Law {
  std::string section, initial, matrix;
};
const Law kLaws[] = {{"service", "beta", "S"}, {"obsolescence", "gamma", "Gamma"}};

std::string law_file(const Law& law, const std::string& initial, const std::string& matrix) {
  return scenario(law.section,
                  fmt::format("{{{}: {}, {}: {}}}", law.initial, initial, law.matrix, matrix));
}

const model::PhaseType& law_of(const Scenario& s, const Law& law) {
  return law.section == "service" ? s.model.service : s.model.obsolescence.value();
}

// Mode one of the base file replaced by `first`; the second mode stays.
std::string per_mode(const std::string& first) {
  return scenario("arrivals", "{kind: per-mode, modes: [" + first + ", " + kModeTwo + "]}");
}

}  // namespace

TEST_CASE("capacity: K = 1 and the largest K accepted, K = 0 and one past the largest refused",
          "[scenarios][edges]") {
  CHECK(accepted(scenario("capacity", "1")).model.capacity == 1);
  CHECK(accepted(scenario("capacity", std::to_string(model::kMostCapacity))).model.capacity ==
        model::kMostCapacity);
  refused(scenario("capacity", "0"), "capacity", "K must be at least 1");
  refused(scenario("capacity", std::to_string(model::kMostCapacity + 1)), "capacity",
          "K may be at most");
}

TEST_CASE("whole numbers: 3 and 3.0 read as 3, 3.5 refused, 1e9 the largest magnitude read",
          "[scenarios][edges]") {
  CHECK(accepted(scenario("capacity", "3")).model.capacity == 3);
  CHECK(accepted(scenario("capacity", "3.0")).model.capacity == 3);
  refused(scenario("capacity", "3.5"), "capacity", "not an integer");
  // 1e9 is read as a whole number and then refused by the capacity's own rule; one more is not
  // read at all.
  refused(scenario("capacity", "1e9"), "capacity", "K may be at most");
  refused(scenario("capacity", "1000000001"), "capacity", "not an integer");
  refused(scenario("capacity", "-1e9"), "capacity", "K must be at least 1");
  refused(scenario("capacity", "-1000000001"), "capacity", "not an integer");
}

TEST_CASE("numbers: the largest and smallest doubles read, past them refused naming the key",
          "[scenarios][edges]") {
  const auto loss = [](const std::string& value) {
    return scenario("costs", "{loss: " + value + "}");
  };
  // The largest double is read, then refused by the weight's own bound.
  refused(loss("1.7976931348623157e308"), "costs.loss", "a cost weight may be at most");
  refused(loss("1.8e308"), "costs.loss", "too large for a double");
  CHECK(accepted(loss("4.9e-324")).model.costs.loss == std::numeric_limits<double>::denorm_min());
  refused(loss("1e-400"), "costs.loss", "too small for a double");
  refused(loss(".nan"), "costs.loss", "not a finite number");
  refused(loss(".inf"), "costs.loss", "not a finite number");
}

TEST_CASE("costs: every weight takes 0 and the largest rate, refuses below 0 and past the largest",
          "[scenarios][edges]") {
  for (const auto& w : model::cost_weights()) {
    const std::string key(w.key);
    INFO(key);
    const auto costs = [&](const std::string& value) {
      return scenario("costs", "{" + key + ": " + value + "}");
    };
    CHECK(accepted(costs("0")).model.costs.*w.weight == 0.0);
    CHECK(accepted(costs(kLargest)).model.costs.*w.weight == model::kLargestRate);
    refused(costs(kJustNegative), "costs." + key, "negative cost");
    refused(costs(kPastLargest), "costs." + key, "a cost weight may be at most");
  }
  refused(scenario("costs", "{loss: 1.5, los: 1}"), "costs.los", "unknown key");
}

TEST_CASE("admission: partial and reject-batch accepted, any other word refused",
          "[scenarios][edges]") {
  CHECK(accepted(scenario("admission", "partial")).model.admission == model::Admission::kPartial);
  CHECK(accepted(scenario("admission", "reject-batch")).model.admission ==
        model::Admission::kRejectBatch);
  refused(scenario("admission", "Reject-batch"), "admission", "unknown rule");
  refused(scenario("admission", "reject"), "admission", "unknown rule");
}

TEST_CASE("file keys: unknown, twice given or missing keys refused, booleans read as written",
          "[scenarios][edges]") {
  refused(scenario("capacityy", "4"), "capacityy", "unknown key");
  refused(scenario() + "capacity: 5\n", "capacity", "given twice");
  refused(scenario("capacity", ""), "capacity", "missing");
  CHECK(accepted(scenario("repair-diagonal", "yes")).repairs.empty());
  refused(scenario("repair-diagonal", "on"), "repair-diagonal", "expected true or false");
  refused(scenario({{"arrivals", ""}, {"refresh", "{change_rates: [0.5]}"}}), "refresh",
          "run `crawlq refresh` on it");
}

TEST_CASE("initial vectors: a sum within 1e-9 of 1 accepted on both sides, past it refused",
          "[scenarios][edges]") {
  const std::string matrix = "[[-4, 1], [0.5, -2]]";
  for (const Law& law : kLaws) {
    INFO(law.section);
    const std::string key = law.section + "." + law.initial;
    // The terms sum to about 1, so the slack is 1e-9 on either side of 1.
    const auto over = accepted(law_file(law, "[0.3, 0.700000000999]", matrix));
    CHECK(law_of(over, law).initial()(1) == 0.700000000999);
    accepted(law_file(law, "[0.3, 0.699999999001]", matrix));
    refused(law_file(law, "[0.3, 0.700000001001]", matrix), key, "!= 1");
    refused(law_file(law, "[0.3, 0.699999998999]", matrix), key, "!= 1");
    accepted(law_file(law, "[0, 1]", matrix));
    refused(law_file(law, "[" + kJustNegative + ", 1]", matrix), key + "[0]",
            "negative probability");
  }
}

TEST_CASE("sub-generators: rows sum to at most 0 within 1e-9 of their terms, rates in range",
          "[scenarios][edges]") {
  for (const Law& law : kLaws) {
    INFO(law.section);
    const std::string key = law.section + "." + law.matrix;
    const auto file = [&](const std::string& matrix) {
      return law_file(law, "[0.3, 0.7]", matrix);
    };
    // Phase 1 leaves only to phase 0: its row sums to 0 on paper, with terms of size 4, so its
    // slack is 4e-9; 3.9e-9 over is rounding, 4.1e-9 over is a wrong number.
    const auto inside = accepted(file("[[-4, 1], [2.0000000039, -2]]"));
    CHECK(law_of(inside, law).exit_rates()(1) == 0.0);
    CHECK(std::isfinite(law_of(inside, law).mean()));
    refused(file("[[-4, 1], [2.0000000041, -2]]"), key + " row 1", "> 0");

    accepted(file("[[-4, 1], [0, -2]]"));
    // -1e-100 is the negative rate nearest 0 that the range rule lets through to the sign rule.
    refused(file("[[-4, 1], [-" + kSmallest + ", -2]]"), key + " row 1",
            "negative rate -1e-100 off the diagonal");

    CHECK(law_of(accepted(file("[[-" + kLargest + ", 0], [0.5, -2]]")), law).exit_rates()(0) ==
          model::kLargestRate);
    refused(file("[[-" + kPastLargest + ", 0], [0.5, -2]]"), key + " row 0", kOutsideRange);
    accepted(file("[[-4, " + kSmallest + "], [0.5, -2]]"));
    refused(file("[[-4, " + kBelowSmallest + "], [0.5, -2]]"), key + " row 0", kOutsideRange);

    refused(file("[[-4, 1, 0], [0.5, -2, 0], [0, 0, -1]]"), key, "3x3 but");
    refused(file("[[-4, 1], [0.5]]"), key, "row 1 has 1 entries but row 0 has 2");
  }
}

TEST_CASE("arrivals D: rows of D0 + D1 + ... sum to 0 within 1e-9 of their terms",
          "[scenarios][edges]") {
  // Row 0 of mode one has terms of size 6, so its slack is 6e-9 on either side of 0.
  accepted(per_mode("{D: [[[-2.9999999941, 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}"));
  accepted(per_mode("{D: [[[-3.0000000059, 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}"));
  const std::string past = "{D: [[[-2.9999999939, 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}";
  refused(per_mode(past), "arrivals.modes[0].D row 0", "!= 0");
  refused(per_mode("{D: [[[-3.0000000061, 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}"),
          "arrivals.modes[0].D row 0", "!= 0");
  // The same file is taken when it asks for its diagonal to be recomputed, and says so.
  const auto repaired =
      accepted(scenario({{"arrivals", "{kind: per-mode, modes: [" + past + ", " + kModeTwo + "]}"},
                         {"repair-diagonal", "true"}}));
  REQUIRE(repaired.repairs.size() == 1);
  CHECK_THAT(repaired.repairs[0], Contains("arrivals.modes[0].D[0] row 0"));
}

TEST_CASE("arrivals D: signs, a batch at all, shapes and a mode at least", "[scenarios][edges]") {
  accepted(per_mode("{D: [[[-3, 1], [0, -2]], [[1.5, 0.5], [0.75, 1.25]]]}"));
  refused(per_mode("{D: [[[-3, 1], [-" + kSmallest + ", -2]], [[1.5, 0.5], [0.75, 1.25]]]}"),
          "arrivals.modes[0].D[0] row 1", "negative rate");
  accepted(per_mode("{D: [[[-3, 1], [0.5, -2.5]], [[1.5, 0.5], [0, 2]]]}"));
  refused(per_mode("{D: [[[-3, 1], [0.5, -2.5]], [[1.5, 0.5], [-" + kSmallest + ", 2]]]}"),
          "arrivals.modes[0].D[1] row 1", "negative rate");

  // One batch rate at the smallest rate is a batch; none is not.
  accepted(per_mode("{D: [[[-1.5, 1.5], [0.5, -0.5]], [[0, " + kSmallest + "], [0, 0]]]}"));
  refused(per_mode("{D: [[[-1.5, 1.5], [0.5, -0.5]], [[0, 0], [0, 0]]]}"), "arrivals.modes[0].D",
          "no batch has a positive rate");

  refused(per_mode("{D: [[[-3, 1], [0.5, -2.5]]]}"), "arrivals.modes[0].D",
          "1 matrices: need at least D0 and D1");
  refused(per_mode("{D: [[[-3, 1]], [[1.5, 0.5]]]}"), "arrivals.modes[0].D[0]",
          "D0 must be square");
  refused(per_mode("{D: [[[-3, 1], [0.5, -2.5]], [[1.5, 0.5, 0], [0.75, 1.25, 0]]]}"),
          "arrivals.modes[0].D[1]", "2x3 but D0 is 2x2");
  refused(per_mode("{D: [[[-2]], [[2]]]}"), "arrivals.modes",
          "mode 2 has 2 phases but mode 1 has 1");

  CHECK(accepted(
            scenario({{"arrivals", "{kind: per-mode, modes: [" + kModeOne + "]}"}, {"policy", ""}}))
            .model.modes() == 1);
  refused(scenario("arrivals", "{kind: per-mode, modes: []}"), "arrivals.modes", "no modes");
  refused(scenario("arrivals", "{kind: per_mode, modes: [" + kModeOne + "]}"), "arrivals.kind",
          "unknown kind");
}

TEST_CASE("arrivals poisson: batch rates at the range's ends, batch sizes a probability vector",
          "[scenarios][edges]") {
  const auto poisson = [](const std::string& first) {
    return scenario("arrivals", "{kind: poisson, modes: [" + first + ", {rate: 4}]}");
  };
  CHECK(accepted(poisson("{rate: " + kLargest + "}")).model.arrivals.mode(1).d(1)(0, 0) ==
        model::kLargestRate);
  refused(poisson("{rate: " + kPastLargest + "}"), "arrivals.modes[0].rate", kOutsideRange);
  accepted(poisson("{rate: " + kSmallest + "}"));
  refused(poisson("{rate: " + kBelowSmallest + "}"), "arrivals.modes[0].rate", kOutsideRange);
  refused(poisson("{rate: 0}"), "arrivals.modes[0].rate", "must be finite and > 0");
  accepted(poisson("{rate: 2.5, batch: [0.25, 0.750000000999]}"));
  refused(poisson("{rate: 2.5, batch: [0.25, 0.750000001001]}"), "arrivals.modes[0].batch", "!= 1");
}

TEST_CASE(
    "arrivals thinning: each q above 0 and at most 1, strictly increasing, the last exactly 1",
    "[scenarios][edges]") {
  const auto thinning = [](const std::string& accept) {
    return scenario("arrivals", "{kind: thinning, base: " + kModeOne + ", accept: " + accept + "}");
  };
  CHECK(accepted(thinning("[0.25, 1]")).model.modes() == 2);
  refused(thinning("[0.25, 1.0000000000000002]"), "arrivals.accept[1]", "outside (0, 1]");
  refused(thinning("[0, 1]"), "arrivals.accept[0]", "outside (0, 1]");
  refused(thinning("[0.5, 0.5, 1]"), "arrivals.accept[1]", "not above q_1 = 0.5");
  refused(thinning("[0.25, 0.9999999999999999]"), "arrivals.accept[1]", "q_N must be 1");
  refused(thinning("[]"), "arrivals.accept", "empty");
  // Above 0 the rate range sets the edge: q times the base's least batch rate (0.5) must reach
  // kSmallestRate. The message names q and the least q, not a time unit a probability lacks.
  const double least_q = 2 * model::kSmallestRate;
  accepted(thinning(fmt::format("[{}, 1]", least_q)));
  refused(thinning(fmt::format("[{}, 1]", std::nextafter(least_q, 0.0))),
          fmt::format("arrivals.accept[0]: {}", std::nextafter(least_q, 0.0)),
          "q is a probability, so the least usable here is 2e-100");
  refused(thinning("[1e-320, 1]"), "arrivals.accept[0]: 1e-320", "the least usable here is 2e-100");

  // The base's row 0 has terms of size 6: its rule allows 6e-9. Mode 1 (q = 0.25) has terms of
  // size 3.75 but all of that rounding, and is judged against the base's terms.
  const auto off_base = [](const std::string& diagonal) {
    return scenario("arrivals", "{kind: thinning, base: {D: [[[" + diagonal +
                                    ", 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}, "
                                    "accept: [0.25, 1]}");
  };
  CHECK(accepted(off_base("-2.9999999941")).model.modes() == 2);
  refused(off_base("-2.9999999939"), "arrivals.base.D row 0", "!= 0");
}

TEST_CASE("arrivals scaled: factors > 0, the rates they make within range", "[scenarios][edges]") {
  // A base of rate 1, so that each factor is the rate it makes.
  const auto scaled = [](const std::string& factors) {
    return scenario("arrivals",
                    "{kind: scaled, base: {D: [[[-1]], [[1]]]}, factors: " + factors + "}");
  };
  CHECK(accepted(scaled("[0.5, " + kLargest + "]")).model.arrivals.mode(2).d(1)(0, 0) ==
        model::kLargestRate);
  refused(scaled("[0.5, " + kPastLargest + "]"), "arrivals.factors[1][0] row 0", kOutsideRange);
  refused(scaled("[0.5, 0]"), "arrivals.factors[1]", "a factor must be positive");
  refused(scaled("[" + kJustNegative + ", 0.5]"), "arrivals.factors[0]",
          "a factor must be positive");
}

TEST_CASE("arrivals marked and independent: D0 with every robot's D conservative, a robot at least",
          "[scenarios][edges]") {
  const std::string d0 = "[[-3, 1], [0.5, -2.5]]";
  const std::string robot_one = "[[1, 0.25], [0.5, 1]]";
  const auto marked = [](const std::string& written_d0, const std::string& first_robot) {
    return scenario("arrivals", "{kind: marked, D0: " + written_d0 + ", robots: [{D: [" +
                                    first_robot + "]}, {D: [[[0.5, 0.25], [0.25, 0.25]]]}]}");
  };
  CHECK(accepted(marked(d0, robot_one)).model.modes() == 2);
  // Row 0 has terms of size 6 across D0 and both robots: the rule on D0 allows 6e-9. Mode 1 folds
  // robot 2's batches into D0, where they cancel part of its diagonal (terms of size 5), but it
  // keeps all of the file's rounding and is judged against the file's terms.
  CHECK(accepted(marked("[[-2.9999999941, 1], [0.5, -2.5]]", robot_one))
            .model.arrivals.mode(1)
            .d(0)(0, 0) == -2.9999999941 + 0.5);
  refused(marked("[[-2.9999999939, 1], [0.5, -2.5]]", robot_one),
          "arrivals.D0 (with every robot's D) row 0", "!= 0");
  accepted(marked("[[-3, 1], [0, -2]]", robot_one));
  refused(marked("[[-3, 1], [-" + kSmallest + ", -2]]", robot_one), "arrivals.D0 row 1",
          "negative rate");
  accepted(marked(d0, "[[1, 0.25], [0, 1.5]]"));
  refused(marked(d0, "[[1, 0.25], [-" + kSmallest + ", 1.5]]"), "arrivals.robots[0].D[0] row 1",
          "negative rate");
  refused(marked(d0, "[[1, 0.25, 0], [0.5, 1, 0]]"), "arrivals.robots[0].D[0]",
          "2x3 but D0 is 2x2");
  CHECK(accepted(scenario({{"arrivals", "{kind: marked, D0: [[-2.5]], robots: [{D: [[[2.5]]]}]}"},
                           {"policy", ""}}))
            .model.modes() == 1);
  refused(scenario("arrivals", "{kind: marked, D0: " + d0 + ", robots: []}"), "arrivals.robots",
          "no robots");

  CHECK(accepted(scenario({{"arrivals", "{kind: independent, robots: [" + kModeOne + "]}"},
                           {"policy", ""}}))
            .model.modes() == 1);
  refused(scenario("arrivals", "{kind: independent, robots: []}"), "arrivals.robots", "no robots");
  // Robot 2's row 0 has terms of size 6 and is off by 5.9e-9. In mode 1 robot 2 is off, its
  // generator's row (terms of size 3) beside robot 1's (size 1): the mode is judged against both
  // robots' rows as written (size 7), not against its own terms (size 4).
  const auto two_robots = [](const std::string& diagonal) {
    return scenario("arrivals", "{kind: independent, robots: [{D: [[[-0.5]], [[0.5]]]}, {D: [[[" +
                                    diagonal +
                                    ", 1], [0.5, -2.5]], [[1.5, 0.5], [0.75, 1.25]]]}]}");
  };
  CHECK(accepted(two_robots("-2.9999999941")).model.modes() == 2);
  refused(two_robots("-2.9999999939"), "arrivals.robots[1].D row 0", "!= 0");
}

TEST_CASE("laws by name: rates at the range's ends, means > 0, whole phases up to the most",
          "[scenarios][edges]") {
  const auto service = [](const std::string& law) { return scenario("service", law); };
  CHECK(
      accepted(service("{exponential: {rate: " + kLargest + "}}")).model.service.exit_rates()(0) ==
      model::kLargestRate);
  refused(service("{exponential: {rate: " + kPastLargest + "}}"), "service.exponential.rate",
          kOutsideRange);
  accepted(service("{exponential: {rate: " + kSmallest + "}}"));
  refused(service("{exponential: {rate: " + kBelowSmallest + "}}"), "service.exponential.rate",
          kOutsideRange);

  refused(service("{exponential: {mean: 0}}"), "service.exponential.mean",
          "a mean time must be > 0");
  refused(service("{exponential: {mean: " + kJustNegative + "}}"), "service.exponential.mean",
          "a mean time must be > 0");
  // 1 / 1e100 rounds to kSmallestRate; the next mean makes a rate below it. The file has no rate:
  // the message names the mean as written and the means allowed.
  accepted(service("{exponential: {mean: " + kLargest + "}}"));
  refused(service("{exponential: {mean: " + kPastLargest + "}}"),
          "service.exponential.mean: " + kPastLargest, kOutsideRange);
  accepted(service("{exponential: {mean: 1e-100}}"));
  refused(
      service("{exponential: {mean: 1e-101}}"), "service.exponential.mean: 1e-101",
      "the rate 1 / mean = 1e+101 is outside 1e-100..1e+100: give a mean within 1e-100..1e+100");
  refused(service("{exponential: {mean: 4.9e-324}}"),
          fmt::format("service.exponential.mean: {}", std::numeric_limits<double>::denorm_min()),
          "the rate 1 / mean = inf is outside 1e-100..1e+100: give a mean within");
  refused(service("{exponential: {rate: 2, mean: 0.5}}"), "service.exponential",
          "give exactly one of rate and mean");
  refused(service("{exponential: {}}"), "service.exponential", "give exactly one of rate and mean");

  const int most = model::kMostNamedLawPhases;
  CHECK(accepted(service(fmt::format("{{erlang: {{phases: {}, mean: 2.5}}}}", most)))
            .model.service.phases() == most);
  for (const std::string& phases : {std::to_string(most + 1), std::string("0"), std::string("2.5")})
    refused(service("{erlang: {phases: " + phases + ", mean: 2.5}}"), "service.erlang.phases",
            "give a whole number of phases");
  // 2 / 2e-100 is kLargestRate; two doubles below 2e-100 the quotient first rounds above it.
  accepted(service("{erlang: {phases: 2, mean: 2e-100}}"));
  refused(service("{erlang: {phases: 2, mean: 1.9999999999999995e-100}}"),
          "service.erlang.mean: 1.9999999999999995e-100", "give a mean within 2e-100..2e+100");
  refused(service("{erlang: {phases: 2, mean: 0}}"), "service.erlang.mean",
          "must be finite and > 0");

  const auto branches = [](int n) {
    return fmt::format("{{hyperexponential: {{probabilities: {}, rates: {}}}}}",
                       list_of(n, [n](int) { return fmt::format("{}", 1.0 / n); }),
                       list_of(n, [](int i) { return fmt::format("{}", 0.5 + 0.25 * i); }));
  };
  CHECK(accepted(service(branches(most))).model.service.phases() == most);
  refused(service(branches(most + 1)), "service.hyperexponential.probabilities",
          fmt::format("give at most {}", most));
  accepted(service("{hyperexponential: {probabilities: [0.2, 0.800000000999], rates: [3, 0.5]}}"));
  refused(service("{hyperexponential: {probabilities: [0.2, 0.800000001001], rates: [3, 0.5]}}"),
          "service.hyperexponential.probabilities", "!= 1");
  accepted(
      service("{hyperexponential: {probabilities: [0.2, 0.8], rates: [3, " + kLargest + "]}}"));
  refused(
      service("{hyperexponential: {probabilities: [0.2, 0.8], rates: [3, " + kPastLargest + "]}}"),
      "service.hyperexponential.rates[1]", kOutsideRange);
  refused(service("{hyperexponential: {probabilities: [0.2, 0.8], rates: [3]}}"),
          "service.hyperexponential.rates", "1 rates for 2 probabilities");

  refused(service("{exponential: {rate: 2}, beta: [1]}"), "service", "exponential beside beta");
  refused(service("{exponential: 2}"), "service.exponential", "give its parameters as a mapping");
  refused(service("{}"), "service", "empty");
  refused(service("{beta: [0.3, 0.7], S: [[-4, 1], [0.5, -2]], T: [[-1]]}"), "service.T",
          "unknown key");
}

TEST_CASE("policy: exactly one kind, thresholds counted and within -1..K, not decreasing",
          "[scenarios][edges]") {
  const auto policy = [](const std::string& p) { return scenario("policy", p); };
  refused(policy("{}"), "policy", "give exactly one of");
  refused(policy("{thresholds: [1], levels: [2, 2, 1, 1, 1]}"), "policy", "give exactly one of");

  refused(policy("{thresholds: []}"), "policy.thresholds", "0 values but 2 modes need 1");
  refused(policy("{thresholds: [1, 2]}"), "policy.thresholds", "2 values but 2 modes need 1");
  // K = 4: j = -1 leaves one robot at every level, j = K two.
  CHECK(accepted(policy("{thresholds: [-1]}")).model.level_map()->levels() ==
        std::vector<int>{1, 1, 1, 1, 1});
  CHECK(accepted(policy("{thresholds: [4]}")).model.level_map()->levels() ==
        std::vector<int>{2, 2, 2, 2, 2});
  refused(policy("{thresholds: [5]}"), "policy.thresholds[0]", "5 outside -1..4");
  refused(policy("{thresholds: [-2]}"), "policy.thresholds[0]", "-2 outside -1..4");

  const auto three_modes = [](const std::string& thresholds) {
    return scenario({{"arrivals", "{kind: poisson, modes: [{rate: 1.5}, {rate: 2.5}, {rate: 4}]}"},
                     {"policy", "{thresholds: " + thresholds + "}"}});
  };
  CHECK(accepted(three_modes("[2, 2]")).model.level_map()->levels() ==
        std::vector<int>{3, 3, 3, 1, 1});
  refused(three_modes("[2, 1]"), "policy.thresholds[1]", "below the previous threshold");
}

TEST_CASE("policy: level maps, hysteresis, phase-aware and memory tables in their ranges",
          "[scenarios][edges]") {
  const auto policy = [](const std::string& p) { return scenario("policy", p); };
  CHECK(accepted(policy("{levels: [2, 1, 2, 1, 1]}")).model.level_map()->levels() ==
        std::vector<int>{2, 1, 2, 1, 1});
  refused(policy("{levels: [2, 1, 2, 1]}"), "policy.levels", "4 values but capacity 4 needs 5");
  refused(policy("{levels: [2, 1, 2, 1, 1, 1]}"), "policy.levels",
          "6 values but capacity 4 needs 5");
  refused(policy("{levels: [2, 1, 3, 1, 1]}"), "policy.levels[2]", "3 robots outside 1..2");
  refused(policy("{levels: [2, 1, 0, 1, 1]}"), "policy.levels[2]", "0 robots outside 1..2");
  refused(policy("{levels: [2, 1.5, 2, 1, 1]}"), "policy.levels[1]", "not an integer");

  const auto hysteresis = [&](int high, int low, int off, int on) {
    return policy(
        fmt::format("{{hysteresis: {{high: {}, low: {}, switch_off: {}, switch_on: {}}}}}", high,
                    low, off, on));
  };
  const auto h = accepted(hysteresis(2, 1, 4, 3));
  CHECK(std::get<model::HysteresisPolicy>(h.model.policy.value()) ==
        model::HysteresisPolicy{2, 1, 4, 3});
  accepted(hysteresis(2, 1, 1, 0));
  refused(hysteresis(2, 1, 5, 3), "policy.hysteresis.switch_off", "5 outside 1..4");
  refused(hysteresis(2, 1, 0, 0), "policy.hysteresis.switch_off", "0 outside 1..4");
  refused(hysteresis(2, 1, 4, 4), "policy.hysteresis.switch_on", "must lie in 0..3");
  refused(hysteresis(2, 1, 4, -1), "policy.hysteresis.switch_on", "must lie in 0..3");
  refused(hysteresis(3, 1, 4, 3), "policy.hysteresis.high", "3 robots outside 1..2");
  refused(hysteresis(2, 0, 4, 3), "policy.hysteresis.low", "0 robots outside 1..2");
  refused(policy("{hysteresis: {high: 2, low: 1, switch_off: 4}}"), "policy.hysteresis.switch_on",
          "missing");

  // W = 2 arrival phases: phase-aware rows have 2 entries; N = 2 modes: memory rows have 2.
  for (const std::string kind : {"phase-aware", "memory"}) {
    INFO(kind);
    const auto table = [&](const std::string& rows) {
      return policy("{" + kind + ": " + rows + "}");
    };
    accepted(table("[[2, 1], [1, 2], [2, 2], [1, 1], [1, 2]]"));
    refused(table("[[2, 1], [1, 2], [2, 2], [1, 1]]"), "policy." + kind,
            "4 rows but capacity 4 needs 5");
    refused(table("[[2, 1], [1, 2], [2, 2, 1], [1, 1], [1, 2]]"), "policy." + kind + "[2]",
            "3 values but");
    refused(table("[[2, 1], [3, 2], [2, 2], [1, 1], [1, 2]]"), "policy." + kind + "[1][0]",
            "3 robots outside 1..2");
    refused(table("[[2, 1], [1, 2], [2, 0], [1, 1], [1, 2]]"), "policy." + kind + "[2][1]",
            "0 robots outside 1..2");
  }
}

TEST_CASE("policy table: one entry per state of the chain, up to 2^40 states",
          "[scenarios][edges]") {
  // K = 4, W = M = R = 2: W (1 + M (1 + R + R^2 + R^3)) = 62 states.
  const auto table = [](int states, int odd_state) {
    return scenario("policy", "{table: " + list_of(states, [&](int x) {
                                return std::to_string(x == odd_state ? 3 : 1 + x % 2);
                              }) + "}");
  };
  const auto t = accepted(table(62, -1));
  CHECK(std::get<model::TablePolicy>(t.model.policy.value()).robots.size() == 62);
  // A table written inline is named once: the key, then why.
  refused(table(61, -1), "policy.table: 61 robots values", "but the chain has 62 states");
  refused(table(63, -1), "policy.table: 63 robots values", "but the chain has 62 states");
  refused(table(62, 7), "policy.table: state 7", "3 robots outside 1..2");
  // W (1 + M (2^K - 1)) = 2^(K+2) - 2 states: K = 38 is within 2^40 (the table is only too short),
  // K = 39 is not.
  refused(scenario({{"capacity", "38"}, {"policy", "{table: [1]}"}}), "policy.table",
          "the chain has 1099511627774 states");
  refused(scenario({{"capacity", "39"}, {"policy", "{table: [1]}"}}), "policy.table",
          "more than 2^40 states");
}

TEST_CASE("refresh: change rates and weights finite and > 0, their totals within the doubles",
          "[scenarios][edges]") {
  CHECK(refresh_accepted(refresh()).model.pages() == 3);
  refresh_refused(refresh("change_rates", "[0.5, 0, 1.25]"), "refresh.change_rates[1]",
                  "must be finite and > 0");
  refresh_refused(refresh("change_rates", "[0.5, " + kJustNegative + ", 1.25]"),
                  "refresh.change_rates[1]", "must be finite and > 0");
  refresh_refused(refresh("change_rates", "[]"), "refresh.change_rates", "give at least one page");

  CHECK(refresh_accepted(refresh("weights", "[1, 4.9e-324, 0.75]")).model.weights[1] ==
        std::numeric_limits<double>::denorm_min());
  refresh_refused(refresh("weights", "[1, 0, 0.75]"), "refresh.weights[1]",
                  "a weight must be finite and > 0");
  refresh_refused(refresh("weights", "[1, 3]"), "refresh.weights", "2 weights for 3 pages");
  CHECK(refresh_accepted(refresh("weights", "")).model.weights ==
        std::vector<double>{0.5, 2, 1.25});
  // Quarters and halves of a double are exact, so these sum to kLargestTotalWeight exactly.
  const double quarter = model::kLargestTotalWeight / 4;
  refresh_accepted(refresh("weights", fmt::format("[{}, {}, {}]", quarter, quarter, 2 * quarter)));
  refresh_refused(refresh("weights", fmt::format("[{}, {}, {}]", quarter, quarter,
                                                 std::nextafter(2 * quarter, HUGE_VAL))),
                  "refresh.weights", "is above 1e+307");

  // mu_i E[X] is compared with 1e-300 through logarithms, which round away the last ~1e-13 of mu:
  // the edge sits 1e-6 of mu inside and outside rather than at the next double.
  const auto tiny_rate = [](const std::string& mu) {
    return refresh(
        {{"change_rates", "[" + mu + ", 2, 1.25]"}, {"access_time", "{deterministic: 0.5}"}});
  };
  refresh_accepted(tiny_rate("2.000001e-300"));
  refresh_refused(tiny_rate("1.999999e-300"), "refresh.change_rates[0]", "below the 1e-300");

  // Two pages at the largest double read every 0.5 change DBL_MAX times per read in all, exactly;
  // the next double above 0.5 is past it.
  const std::string largest = fmt::format("{}", std::numeric_limits<double>::max());
  const auto huge_rates = [&](double read) {
    return refresh({{"change_rates", "[" + largest + ", " + largest + "]"},
                    {"weights", "[1, 3]"},
                    {"access_time", fmt::format("{{deterministic: {}}}", read)}});
  };
  refresh_accepted(huge_rates(0.5));
  refresh_refused(huge_rates(std::nextafter(0.5, 1.0)), "refresh.change_rates",
                  "above the largest double");

  refresh_refused(refresh("access_time", "{deterministic: 0}"), "refresh.access_time.deterministic",
                  "must be finite and > 0");
}

TEST_CASE("refresh policy: kinds, frequencies and cyclic sequences", "[scenarios][edges]") {
  const auto policy = [](const std::string& p) { return refresh("policy", p); };
  refresh_refused(policy("{kind: golden}"), "refresh.policy.kind", "unknown policy");

  CHECK_FALSE(refresh_accepted(policy("{kind: randomized, frequencies: optimal}"))
                  .model.policy.frequencies);
  refresh_refused(policy("{kind: randomized, frequencies: best}"), "refresh.policy.frequencies",
                  "give a list of frequencies or `optimal`");
  CHECK(refresh_accepted(policy("{kind: randomized, frequencies: [1, 2, 1]}"))
            .model.policy.frequencies == std::vector<double>{0.25, 0.5, 0.25});
  refresh_refused(policy("{kind: randomized, frequencies: [1, 0, 1]}"),
                  "refresh.policy.frequencies[1]", "every page needs a frequency > 0");
  refresh_refused(policy("{kind: randomized, frequencies: [1, 2]}"), "refresh.policy.frequencies",
                  "2 frequencies for 3 pages");
  // Normalised from the largest: a total past the doubles is no reason to refuse.
  CHECK(refresh_accepted(policy("{kind: randomized, frequencies: [1e308, 1e308, 1e308]}"))
            .model.policy.frequencies == std::vector<double>(3, 1.0 / 3));
  // A share of the total down to the smallest normal double is kept; below it, refused as such.
  // The others sum to 1, so the first frequency is its own share.
  const double least = std::numeric_limits<double>::min();
  const auto first_of = [&](double f) {
    return policy(fmt::format("{{kind: randomized, frequencies: [{}, 0.5, 0.5]}}", f));
  };
  CHECK(refresh_accepted(first_of(least)).model.policy.frequencies->front() == least);
  for (const double f : {std::nextafter(least, 0.0), std::numeric_limits<double>::denorm_min()})
    refresh_refused(first_of(f), fmt::format("refresh.policy.frequencies[0]: {}", f),
                    "its share of the total (the largest frequency is 0.5) is below 2.23e-308, the "
                    "smallest normal double");
  refresh_refused(policy("{kind: randomized, frequencies: [4.9e-324, 1, 1]}"),
                  "refresh.policy.frequencies[0]", "too small to compute with");

  CHECK(refresh_accepted(policy("{kind: cyclic, sequence: [0, 1, 2, 1]}"))
            .model.policy.sequence.size() == 4);
  refresh_refused(policy("{kind: cyclic, sequence: [0, 1, 3, 1]}"), "refresh.policy.sequence[2]",
                  "pages are numbered 0..2");
  refresh_refused(policy("{kind: cyclic, sequence: [0, -1, 2, 1]}"), "refresh.policy.sequence[1]",
                  "pages are numbered 0..2");
  refresh_refused(policy("{kind: cyclic, sequence: [0, 1, 1]}"), "refresh.policy.sequence",
                  "page 2 is never read");
  refresh_refused(policy("{kind: cyclic, sequence: []}"), "refresh.policy.sequence",
                  "a cyclic policy needs the pages of one cycle");
  // Frequencies beside a sequence may miss its shares by 1e-9, absolutely, after they are
  // normalised: with [1, 2, 1 + d] page 2's share is off by about 3d / 16, so d = 5.3e-9 is
  // inside and 5.4e-9 outside.
  refresh_accepted(
      policy("{kind: cyclic, sequence: [0, 1, 2, 1], frequencies: [1, 2, 1.0000000053]}"));
  refresh_refused(
      policy("{kind: cyclic, sequence: [0, 1, 2, 1], frequencies: [1, 2, 1.0000000054]}"),
      "refresh.policy.frequencies[2]", "the sequence reads page 2 1 times in 4");

  refresh_refused(policy("{kind: golden-ratio, sequence: [0, 1, 2]}"), "refresh.policy.sequence",
                  "only a cyclic policy has a sequence");
  refresh_refused(policy("{kind: randomized, cycle: 13}"), "refresh.policy.cycle",
                  "only a golden-ratio policy has a cycle");
}

TEST_CASE("refresh cycle: a Fibonacci number of reads, from the pages' count to the largest long",
          "[scenarios][edges]") {
  const auto cycle = [](const std::string& length) {
    return refresh("policy", "{kind: golden-ratio, cycle: " + length + "}");
  };
  const std::vector<long>& fibonacci = model::fibonacci_numbers();
  const long largest = fibonacci.back();
  const unsigned long next = static_cast<unsigned long>(largest) +
                             static_cast<unsigned long>(fibonacci[fibonacci.size() - 2]);
  CHECK(refresh_accepted(cycle(std::to_string(largest))).model.policy.cycle == largest);
  refresh_refused(cycle(std::to_string(next)), "refresh.policy.cycle",
                  "above the largest Fibonacci number");
  refresh_refused(cycle(std::to_string(std::numeric_limits<long>::max())), "refresh.policy.cycle",
                  "must be a Fibonacci number");
  refresh_refused(cycle("14"), "refresh.policy.cycle", "must be a Fibonacci number");
  // Three pages: F_3 = 3 reads each once, F_2 = 2 cannot.
  CHECK(refresh_accepted(cycle("3")).model.policy.cycle == 3);
  refresh_refused(cycle("2"), "refresh.policy.cycle", "shorter than the 3 pages");
  refresh_refused(cycle("0"), "refresh.policy.cycle", "a Fibonacci number of reads");
  CHECK(refresh_accepted(cycle("1.44e2")).model.policy.cycle == 144);
  refresh_refused(cycle("13.5"), "refresh.policy.cycle", "a Fibonacci number of reads");
}
