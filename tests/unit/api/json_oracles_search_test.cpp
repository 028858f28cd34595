// The keys of optimize (every class), sweep, refresh and the fits, each against something the
// request layer did not compute (docs/testing/json-oracles.md): every table of a tiny model solved
// one by one, counts worked out by hand, closed forms, identities recomputed from the same JSON,
// the inputs read back, and "via solve": the named policy solved again through api::solve.
#include <fmt/format.h>
#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "api/fit_request.hpp"
#include "api/optimize_request.hpp"
#include "api/refresh_request.hpp"
#include "api/solve_request.hpp"
#include "api/sweep_request.hpp"
#include "model/measure_list.hpp"
#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/refresh_simulator.hpp"

namespace crawlq {
namespace {

using nlohmann::json;
using Table = std::vector<std::vector<int>>;

// Exact-engine identities hold to round-off; a relative 1e-9 leaves room for a different order of
// summation, a margin for keys that are 0.
Approx exact(double value) { return Approx(value).epsilon(1e-9).margin(1e-13); }

// Two modes of two arrival phases (mode 2 also brings pairs), a two-phase service and an
// exponential clock. At K = 2 the chain has W (1 + M (1 + R)) = 2 (1 + 2 x 2) = 10 states, and the
// phase-aware ((K+1) W = 6 entries) and memory ((K+1) N = 6 entries) classes 2^6 = 64 tables each,
// few enough to solve every one. The costs make the best phase-aware table no level map, and the
// full-state optimum run different robots in states of one level and arrival phase.
// `service_scale` multiplies S here, by hand, as sweep's service-scale promises to.
std::string fixture_text(double service_scale = 1, int capacity = 2, double sojourn = 1.5,
                         double holding = 0) {
  const double s = service_scale;
  return fmt::format(R"(name: search-oracles
capacity: {}
admission: partial
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1.3, 0.2], [0.5, -0.9]], [[0.9, 0.2], [0.1, 0.3]]]
    - D: [[[-2.6, 0.3], [0.4, -1.7]], [[1.5, 0.3], [0.2, 0.6]], [[0.4, 0.1], [0.1, 0.4]]]
service: {{beta: [0.7, 0.3], S: [[{}, {}], [{}, {}]]}}
obsolescence: {{gamma: [1], Gamma: [[-0.35]]}}
costs: {{loss: 10, obsolescence: 9, sojourn: {}, robot: 2.5, starvation: 60, holding: {}}}
)",
                     capacity, -2.2 * s, 0.6 * s, 0.1 * s, -1.4 * s, sojourn, holding);
}

model::Model fixture(double service_scale = 1, int capacity = 2, double sojourn = 1.5,
                     double holding = 0) {
  return scenarios::parse_scenario(fixture_text(service_scale, capacity, sojourn, holding),
                                   "search-oracles.yaml")
      .model;
}

model::Model paper_example(int capacity) {
  const std::string file = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/paper-example-1.yaml";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const auto at = yaml.find("capacity: 5");
  REQUIRE(at != std::string::npos);
  yaml.replace(at, 11, "capacity: " + std::to_string(capacity));
  return scenarios::parse_scenario(yaml, "paper-example-1.yaml").model;
}

api::SolveResult solve(const model::Model& m, const model::ControlPolicy& policy,
                       json* written = nullptr) {
  api::SolveRequest request{.source = "search-oracles.yaml",
                            .model = m,
                            .policy = policy,
                            .method = analytic::Method::kAuto,
                            .threads = 1,
                            .sojourn = false,
                            .transforms = {},
                            .cdf_points = {}};
  api::SolveResult result = api::solve(request);
  if (written) *written = api::to_json(request, result);
  return result;
}

json solve_json(const model::Model& m, const model::ControlPolicy& policy) {
  json j;
  (void)solve(m, policy, &j);
  return j;
}

api::OptimizeRequest optimize_request(const model::Model& m, api::PolicyClass policy_class) {
  api::OptimizeRequest request{
      .source = "search-oracles.yaml", .model = m, .export_policy = "", .progress = nullptr};
  request.policy_class = policy_class;
  request.threads = 1;
  return request;
}

// The JSON, and `seconds` held to what the run can have taken: no exact oracle exists for a time.
json optimize_json(const api::OptimizeRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const api::OptimizeResult result = api::optimize(request);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json j = api::to_json(request, result);
  CHECK(j.at("seconds").get<double>() >= 0);
  CHECK(j.at("seconds").get<double>() <= wall);
  return j;
}

json optimize_json(const model::Model& m, api::PolicyClass policy_class) {
  return optimize_json(optimize_request(m, policy_class));
}

// Thresholds by their definition (model/policy.hpp): j_r is the last level with at least N - r + 1
// robots (-1 when none); a map has them only when robots never increase with the level.
std::optional<std::vector<int>> thresholds_of_levels(const std::vector<int>& levels, int modes) {
  for (std::size_t i = 1; i < levels.size(); ++i)
    if (levels[i] > levels[i - 1]) return std::nullopt;
  std::vector<int> thresholds;
  for (int r = 1; r < modes; ++r) {
    int last = -1;
    for (std::size_t i = 0; i < levels.size(); ++i)
      if (levels[i] >= modes - r + 1) last = static_cast<int>(i);
    thresholds.push_back(last);
  }
  return thresholds;
}

void check_same_measures(const json& got, const json& solved) {
  for (const auto& measure : model::scalar_measures<double>()) {
    const std::string key(measure.name.key);
    INFO(key);
    CHECK(got.at(key).get<double>() == exact(solved.at(key).get<double>()));
  }
}

// Every table of a class solved one by one: the least cost, and every table within round-off of it
// (tables that differ only where the chain never goes cost the same).
struct Enumerated {
  double least = std::numeric_limits<double>::infinity();
  std::vector<Table> cheapest;
  int solved = 0, refused = 0;
};

Enumerated enumerate_tables(const model::Model& m, bool memory) {
  const int n = m.modes(), rows = m.capacity + 1, width = memory ? n : m.arrivals.phases();
  const int entries = rows * width;
  long count = 1;
  for (int e = 0; e < entries; ++e) count *= n;
  std::vector<std::pair<double, Table>> costs;
  Enumerated out;
  for (long code = 0; code < count; ++code) {
    Table table(static_cast<std::size_t>(rows), std::vector<int>(static_cast<std::size_t>(width)));
    long rest = code;
    for (auto& row : table)
      for (int& entry : row) entry = 1 + static_cast<int>(rest % n), rest /= n;
    try {
      const model::ControlPolicy policy =
          memory ? model::ControlPolicy(model::make_memory(table, n, m.capacity, "memory"))
                 : model::ControlPolicy(
                       model::make_phase_aware(table, n, m.capacity, width, "phase-aware"));
      costs.emplace_back(solve(m, policy).evaluation.measures.cost, table);
      ++out.solved;
    } catch (const model::InputError&) {
      ++out.refused;  // a memory table whose chain has more than one long run
    }
  }
  for (const auto& [cost, table] : costs) out.least = std::min(out.least, cost);
  for (const auto& [cost, table] : costs)
    if (cost <= out.least * (1 + 1e-9)) out.cheapest.push_back(table);
  return out;
}

// The descent of analytic/control/table_search.hpp written out for N = 2: from the start map in
// every column, solve each table one entry away (the entry's other value), move to the cheapest
// (the first on ties) while it costs strictly less.
struct Descent {
  Table best;
  double cost = 0;
  int moves = 0, solved = 0;
};

Descent replay_descent(const model::Model& m, bool memory, const std::vector<int>& start) {
  const int width = memory ? m.modes() : m.arrivals.phases();
  Descent d;
  for (const int robots : start) d.best.emplace_back(static_cast<std::size_t>(width), robots);
  const auto cost_of = [&](const Table& table) {
    ++d.solved;
    try {
      const model::ControlPolicy policy =
          memory ? model::ControlPolicy(model::make_memory(table, 2, m.capacity, "memory"))
                 : model::ControlPolicy(
                       model::make_phase_aware(table, 2, m.capacity, width, "phase-aware"));
      return solve(m, policy).evaluation.measures.cost;
    } catch (const model::InputError&) {
      return std::numeric_limits<double>::infinity();
    }
  };
  d.cost = cost_of(d.best);
  while (true) {
    Table next;
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t level = 0; level < d.best.size(); ++level)
      for (std::size_t column = 0; column < d.best[level].size(); ++column) {
        Table table = d.best;
        table[level][column] = 3 - table[level][column];
        const double cost = cost_of(table);
        if (cost < least) least = cost, next = table;
      }
    if (!(least < d.cost)) return d;
    d.best = next;
    d.cost = least;
    ++d.moves;
  }
}

bool contains(const std::vector<Table>& tables, const Table& table) {
  return std::find(tables.begin(), tables.end(), table) != tables.end();
}

class TempDirectory {
 public:
  TempDirectory()
      : path_(std::filesystem::temp_directory_path() /
              fmt::format("crawlq-search-oracles-{}", ::getpid())) {
    std::filesystem::create_directories(path_);
  }
  ~TempDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("policy objects: solve --json writes each form back with the numbers it was given",
          "[api][oracle]") {
  const model::Model m = fixture();
  const auto policy = [&](const model::Model& on, const std::string& yaml) {
    return solve_json(on, scenarios::parse_policy(yaml, "policy.yaml", on)).at("policy");
  };
  const json phase_aware = policy(m, "policy: {phase-aware: [[2, 1], [1, 2], [1, 1]]}");
  CHECK(phase_aware.at("kind") == "phase-aware");
  CHECK(phase_aware.at("robots").get<Table>() == Table{{2, 1}, {1, 2}, {1, 1}});
  const json memory = policy(m, "policy: {memory: [[2, 2], [1, 2], [1, 1]]}");
  CHECK(memory.at("kind") == "memory");
  CHECK(memory.at("next").get<Table>() == Table{{2, 2}, {1, 2}, {1, 1}});
  // At K = 3 the four numbers can all differ from the robots' counts.
  const json hysteresis =
      policy(fixture(1, 3), "policy: {hysteresis: {high: 2, low: 1, switch_off: 3, switch_on: 2}}");
  CHECK(hysteresis.at("kind") == "hysteresis");
  CHECK(hysteresis.at("high") == 2);
  CHECK(hysteresis.at("low") == 1);
  CHECK(hysteresis.at("switch_off") == 3);
  CHECK(hysteresis.at("switch_on") == 2);
}

TEST_CASE(
    "optimize --class phase-aware and memory: the best of every table solved one by one, and the "
    "counts",
    "[api][oracle][optimize]") {
  const model::Model m = fixture();
  for (const bool memory : {false, true}) {
    INFO((memory ? "memory" : "phase-aware"));
    const Enumerated every = enumerate_tables(m, memory);
    REQUIRE(every.solved > 0);
    const json j =
        optimize_json(m, memory ? api::PolicyClass::kMemory : api::PolicyClass::kPhaseAware);
    const json& best = j.at("best");
    CHECK(contains(every.cheapest, best.at(memory ? "memory" : "phase_aware").get<Table>()));
    CHECK(best.at("cost").get<double>() == exact(every.least));
    // 2^6 = 64 tables, at most 4096: every one solved (refused ones included), no descent.
    CHECK(j.at("tables") == 64);
    CHECK(j.at("policies_solved") == 64);
    CHECK(every.solved + every.refused == 64);
    CHECK(j.at("search") == "exhaustive");
    CHECK(j.at("optimality") == "global");
    CHECK(j.at("moves") == 0);
  }
}

TEST_CASE(
    "optimize --class phase-aware and memory beyond 4096 tables: the descent replayed by solving "
    "each table",
    "[api][oracle][optimize]") {
  // K = 6: (K+1) W = (K+1) N = 14 entries, 2^14 = 16384 tables, too many to enumerate. The sojourn
  // weight 4 makes the phase-aware descent move once.
  const model::Model m = fixture(1, 6, 4.0);
  const auto start = optimize_json(m, api::PolicyClass::kThresholds)
                         .at("best")
                         .at("levels")
                         .get<std::vector<int>>();
  for (const bool memory : {false, true}) {
    INFO((memory ? "memory" : "phase-aware"));
    const json j =
        optimize_json(m, memory ? api::PolicyClass::kMemory : api::PolicyClass::kPhaseAware);
    const Descent descent = replay_descent(m, memory, start);
    CHECK(j.at("tables") == 16384);
    CHECK(j.at("search") == "local");
    CHECK(j.at("optimality") == "local");
    CHECK(j.at("best").at(memory ? "memory" : "phase_aware").get<Table>() == descent.best);
    CHECK(j.at("best").at("cost").get<double>() == exact(descent.cost));
    CHECK(j.at("moves") == descent.moves);
    CHECK(j.at("moves") == (memory ? 0 : 1));
    // The start, then a round of 14 per move and a last round that finds none cheaper.
    CHECK(j.at("policies_solved") == descent.solved);
    CHECK(j.at("policies_solved") == 1 + 14 * (descent.moves + 1));
  }
}

TEST_CASE("optimize --class levels: every map solved, the threshold best as optimize finds it",
          "[api][oracle][optimize]") {
  const model::Model m = fixture();
  const json j = optimize_json(m, api::PolicyClass::kLevels);
  // N^(K+1) = 2^3 = 8 maps.
  CHECK(j.at("policies_solved") == 8);
  CHECK(j.at("search") == "exhaustive");
  double least = std::numeric_limits<double>::infinity();
  std::vector<int> cheapest;
  for (int code = 0; code < 8; ++code) {
    const std::vector<int> levels{1 + (code & 1), 1 + ((code >> 1) & 1), 1 + ((code >> 2) & 1)};
    const double cost = solve(m, model::Policy::from_levels(levels, 2, 2)).evaluation.measures.cost;
    if (cost < least) least = cost, cheapest = levels;
  }
  const std::vector<int> best = j.at("best").at("levels").get<std::vector<int>>();
  CHECK(best == cheapest);
  CHECK(j.at("best").at("cost").get<double>() == exact(least));
  const auto thresholds = thresholds_of_levels(best, 2);
  CHECK(j.at("best").contains("thresholds") == thresholds.has_value());
  if (thresholds) CHECK(j.at("best").at("thresholds").get<std::vector<int>>() == *thresholds);

  const json by_thresholds = optimize_json(m, api::PolicyClass::kThresholds);
  const json& threshold = j.at("best_threshold");
  CHECK(threshold.at("levels") == by_thresholds.at("best").at("levels"));
  CHECK(threshold.at("thresholds") == by_thresholds.at("best").at("thresholds"));
  CHECK(threshold.at("cost").get<double>() ==
        exact(by_thresholds.at("best").at("cost").get<double>()));
  CHECK(j.at("threshold_is_best").get<bool>() ==
        (threshold.at("cost").get<double>() <= j.at("best").at("cost").get<double>()));
}

TEST_CASE(
    "optimize --search local: the start is the cheapest grid vector, solved one by one, and its moves",
    "[api][oracle][optimize]") {
  for (const int capacity : {5, 6}) {
    INFO("K = " << capacity);
    const model::Model m = paper_example(capacity);
    // The grid: the non-decreasing vectors of {-1, K/2, K}^3, ten of them.
    const std::vector<int> grid{-1, capacity / 2, capacity};
    double least = std::numeric_limits<double>::infinity();
    std::vector<int> start;
    json start_solved;
    int vectors = 0;
    for (int a = 0; a < 3; ++a)
      for (int b = a; b < 3; ++b)
        for (int c = b; c < 3; ++c) {
          const std::vector<int> thresholds{grid[a], grid[b], grid[c]};
          const json j = solve_json(m, model::Policy::from_thresholds(thresholds, 4, capacity));
          ++vectors;
          if (j.at("cost").get<double>() < least)
            least = j.at("cost").get<double>(), start = thresholds, start_solved = j;
        }
    REQUIRE(vectors == 10);
    api::OptimizeRequest request = optimize_request(m, api::PolicyClass::kThresholds);
    request.search = analytic::Search::kLocal;
    const json local = optimize_json(request);
    CHECK(local.at("start").at("thresholds").get<std::vector<int>>() == start);
    CHECK(local.at("start").at("levels") == start_solved.at("policy").at("levels"));
    CHECK(local.at("start").at("cost").get<double>() == exact(least));
    request.search = analytic::Search::kExhaustive;
    const json exhaustive = optimize_json(request);
    CHECK(local.at("best").at("levels") == exhaustive.at("best").at("levels"));
    if (capacity == 5) {
      // (-1,2,2), Table 1's optimum, is on the grid {-1,2,5}: nothing to move.
      CHECK(start == std::vector<int>{-1, 2, 2});
      CHECK(local.at("moves") == 0);
    } else {
      // The grid {-1,3,6} starts at (-1,3,3); the optimum (-1,2,2) is one move away (j_3 down
      // pushes j_2), and steepest descent takes the cheapest neighbour, so it gets there in one
      // move.
      CHECK(start == std::vector<int>{-1, 3, 3});
      CHECK(exhaustive.at("best").at("thresholds").get<std::vector<int>>() ==
            std::vector<int>{-1, 2, 2});
      CHECK(local.at("moves") == 1);
    }
  }
}

TEST_CASE(
    "optimize --class markov: the exported table solved again, its summary, and the candidates",
    "[api][oracle][optimize][markov]") {
  TempDirectory dir;
  const model::Model m = fixture();
  api::OptimizeRequest request = optimize_request(m, api::PolicyClass::kMarkov);
  request.export_policy = dir.file("markov.csv");
  const json j = optimize_json(request);
  CHECK(j.at("states") == 10);                      // W (1 + M (1 + R)) = 2 (1 + 2 x 2) at K = 2
  CHECK(j.at("threshold_search") == "exhaustive");  // auto's rule: C(K+N, N-1) = 4 policies
  const json by_thresholds = optimize_json(m, api::PolicyClass::kThresholds);
  CHECK(j.at("threshold_best").at("levels") == by_thresholds.at("best").at("levels"));
  CHECK(j.at("threshold_best").at("thresholds") == by_thresholds.at("best").at("thresholds"));

  // Via solve: the exported table read back and solved gives every measure the JSON printed.
  const model::ControlPolicy table = scenarios::load_policy(request.export_policy, m);
  json solved;
  const api::SolveResult result = solve(m, table, &solved);
  CHECK(solved.at("policy").at("kind") == "table");
  CHECK(solved.at("policy").at("table") == request.export_policy);
  const json& measures = j.at("best").at("measures");
  check_same_measures(measures, solved);
  for (const char* list : {"level_probabilities", "mode_probabilities"}) {
    INFO(list);
    REQUIRE(measures.at(list).size() == solved.at(list).size());
    for (std::size_t i = 0; i < solved.at(list).size(); ++i)
      CHECK(measures.at(list).at(i).get<double>() == exact(solved.at(list).at(i).get<double>()));
  }

  // by_level_and_phase: for each level and arrival phase, the robots run in most of its probability
  // (the states differ in the service phase; the clock has one phase) and that share.
  const auto& robots = std::get<model::TablePolicy>(table);
  const Eigen::VectorXd& p = result.evaluation.stationary.probabilities;
  const json& summary = j.at("best").at("by_level_and_phase");
  for (int level = 0; level <= 2; ++level)
    for (int phase = 0; phase < 2; ++phase) {
      INFO("level " << level << " phase " << phase);
      double weight[2] = {0, 0};
      for (int service = 0; service < (level == 0 ? 1 : 2); ++service) {
        const std::size_t x =
            robots.index(level, phase, service, std::vector<int>(level > 0 ? level - 1 : 0, 0));
        weight[robots.robots[x] - 1] += p(static_cast<Eigen::Index>(x));
      }
      const int most = weight[1] > weight[0] ? 2 : 1;
      CHECK(summary.at("robots").at(level).at(phase) == most);
      CHECK(summary.at("share").at(level).at(phase).get<double>() ==
            exact(weight[most - 1] / (weight[0] + weight[1])));
    }

  // Sojourn weight 1.5: 8 holding weights on a grid, then 2 + 8 by golden section. The grid's are
  // multiples {0, 1/4, 1/2, 1, 3/2, 2, 3, 5} of a / (lambda (1 - p_loss)) of the threshold best.
  const json& candidates = j.at("candidates");
  REQUIRE(candidates.size() == 18);
  const json threshold =
      solve_json(m, model::Policy::from_levels(
                        j.at("threshold_best").at("levels").get<std::vector<int>>(), 2, 2));
  const double unit =
      1.5 / (threshold.at("lambda").get<double>() * (1 - threshold.at("p_loss").get<double>()));
  const double grid[] = {0, 0.25, 0.5, 1, 1.5, 2, 3, 5};
  for (std::size_t i = 0; i < 8; ++i)
    CHECK(candidates.at(i).at("holding").get<double>() == exact(grid[i] * unit));
  double least = std::numeric_limits<double>::infinity(), least_holding = 0;
  for (const json& c : candidates)
    if (c.at("cost").get<double>() < least)
      least = c.at("cost").get<double>(), least_holding = c.at("holding").get<double>();
  const double best = j.at("best").at("cost").get<double>();
  if (j.at("stand_in_holding").is_null()) {
    // Every candidate lost to the threshold best, which is then reported.
    CHECK(best == exact(j.at("threshold_best").at("cost").get<double>()));
    CHECK(least > best);
  } else {
    CHECK(best == exact(least));
    CHECK(j.at("stand_in_holding").get<double>() == least_holding);
  }
  // Via solve: the first candidate (holding 0) is the certified optimum without the sojourn term,
  // costed under (2) with it.
  api::OptimizeRequest rates = optimize_request(fixture(1, 2, 0), api::PolicyClass::kMarkov);
  rates.export_policy = dir.file("rates.csv");
  CHECK(optimize_json(rates).at("optimality") == "global");
  CHECK(candidates.at(0).at("cost").get<double>() ==
        exact(solve(m, scenarios::load_policy(rates.export_policy, m)).evaluation.measures.cost));
  // And the winning candidate: the holding weight it names as a cost, the sojourn weight set to 0.
  if (!j.at("stand_in_holding").is_null()) {
    api::OptimizeRequest stand_in =
        optimize_request(fixture(1, 2, 0, least_holding), api::PolicyClass::kMarkov);
    stand_in.export_policy = dir.file("stand-in.csv");
    (void)optimize_json(stand_in);
    CHECK(best == exact(solve(m, scenarios::load_policy(stand_in.export_policy, m))
                            .evaluation.measures.cost));
  }
}

TEST_CASE("optimize --class all: each row is that class's optimize, the optimum the least row",
          "[api][oracle][optimize]") {
  for (const double sojourn : {1.5, 0.0}) {
    INFO("sojourn weight " << sojourn);
    const model::Model m = fixture(1, 2, sojourn);
    const json all = optimize_json(m, api::PolicyClass::kAll);
    CHECK(all.at("class") == "all");
    const json thresholds = optimize_json(m, api::PolicyClass::kThresholds);
    const json levels = optimize_json(m, api::PolicyClass::kLevels);
    const json memory = optimize_json(m, api::PolicyClass::kMemory);
    const json phase_aware = optimize_json(m, api::PolicyClass::kPhaseAware);
    const json markov = optimize_json(m, api::PolicyClass::kMarkov);
    const auto constant = thresholds.at("constant").get<std::vector<double>>();
    const auto cheapest = std::min_element(constant.begin(), constant.end());
    const int robots = static_cast<int>(cheapest - constant.begin()) + 1;
    const json& rows = all.at("rows");
    REQUIRE(rows.size() == 6);
    // constant, thresholds, levels, memory, phase-aware, markov
    const std::vector<std::pair<const json*, const char*>> classes{
        {nullptr, "levels"}, {&thresholds, "levels"},       {&levels, "levels"},
        {&memory, "memory"}, {&phase_aware, "phase_aware"}, {&markov, nullptr}};
    for (std::size_t i = 0; i < 6; ++i) {
      const json& row = rows.at(i);
      INFO(row.at("class"));
      const json& policy = row.at("policy");
      if (i == 0) {
        CHECK(row.at("cost").get<double>() == exact(*cheapest));
        CHECK(policy.at("levels").get<std::vector<int>>() == std::vector<int>(3, robots));
      } else {
        const json& best = classes[i].first->at("best");
        CHECK(row.at("cost").get<double>() == exact(best.at("cost").get<double>()));
        if (classes[i].second)
          CHECK(policy.at(classes[i].second) == best.at(classes[i].second));
        else
          CHECK(policy.at("table").is_null());  // nothing exported
      }
      CHECK(policy.at("cost").get<double>() == row.at("cost").get<double>());
      // Every class below markov is searched whole on this model; markov is certified only without
      // the sojourn term.
      CHECK(row.at("optimality") == (i < 5 || sojourn == 0 ? "global" : "heuristic"));
    }
    double least = std::numeric_limits<double>::infinity();
    for (const json& row : rows) least = std::min(least, row.at("cost").get<double>());
    const double optimum = all.at("optimum").get<double>();
    CHECK(optimum == least);
    for (const json& row : rows)
      CHECK(row.at("relative_excess").get<double>() ==
            exact(row.at("excess").get<double>() / optimum));
    CHECK(all.at("optimality") == (sojourn == 0 ? "global" : "heuristic"));
    CHECK(all.at("lower_bound").get<double>() == exact(markov.at("lower_bound").get<double>()));
  }
}

TEST_CASE("sweep: each row's measures are its best policy solved again, its class best optimize's",
          "[api][oracle][sweep]") {
  // Service-scale 1 is the fixture itself; 1.6 is the fixture with S x 1.6 written out by hand.
  const std::vector<double> scales{1.0, 1.6};
  for (const std::string policy_class : {"phase-aware", "levels"}) {
    INFO("--class " << policy_class);
    const api::SweepRequest request{.source = "search-oracles.yaml",
                                    .model = fixture(),
                                    .parameter = validation::SweepParameter::kServiceScale,
                                    .values = scales,
                                    .threads = 1,
                                    .policy_class = policy_class};
    const json j = api::to_json(request, api::sweep(request));
    REQUIRE(j.at("rows").size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      INFO("service-scale " << scales[i]);
      const json& row = j.at("rows").at(i);
      const model::Model scaled = fixture(scales[i]);
      const json solved = solve_json(
          scaled,
          model::Policy::from_levels(row.at("best").at("levels").get<std::vector<int>>(), 2, 2));
      check_same_measures(row, solved);
      const bool phase_aware = policy_class == "phase-aware";
      const json best = optimize_json(scaled, phase_aware ? api::PolicyClass::kPhaseAware
                                                          : api::PolicyClass::kLevels)
                            .at("best");
      const char* key = phase_aware ? "phase_aware" : "levels";
      CHECK(row.at("class_best").at(key) == best.at(key));
      CHECK(row.at("class_best").at("cost").get<double>() == exact(best.at("cost").get<double>()));
    }
  }
}

namespace {

// Three pages, rates summing to 0.85, read in exponential times of mean 0.8 (q = 0.68), weights
// equal to the rates by default.
const char* const kRefreshPages = R"(name: refresh-three-uneven
refresh:
  change_rates: [0.15, 0.4, 0.3]
  access_time: {beta: [1.0], S: [[-1.25]]}
  policy: {kind: golden-ratio, frequencies: optimal}
)";

api::RefreshRequest refresh_request(const std::string& text) {
  return {.source = "refresh.yaml",
          .model = scenarios::parse_refresh_scenario(text, "refresh.yaml").model,
          .simulate = false,
          .seed = 1,
          .replications = 10,
          .horizon = std::nullopt,
          .threads = 1};
}

// CLW Corollary 5.1: H(q) = (q - 1 + a e^{-bq} + c e^{-dq}) / (q - 1 + e^{-q}), a = 1 - 1/phi,
// b = phi / sqrt 5, c = 1/phi, d = phi^2 / sqrt 5.
double corollary_5_1(double q) {
  const double phi = (1 + std::sqrt(5.0)) / 2, root5 = std::sqrt(5.0);
  const double a = 1 - 1 / phi, b = phi / root5, c = 1 / phi, d = phi * phi / root5;
  return (q - 1 + a * std::exp(-b * q) + c * std::exp(-d * q)) / (q - 1 + std::exp(-q));
}

}  // namespace

TEST_CASE("refresh --json: h, the randomized optimum by (16) and Lemma 4.1, H(q), and the echoes",
          "[api][oracle][refresh]") {
  const api::RefreshRequest request = refresh_request(kRefreshPages);
  const json j = api::to_json(request, api::refresh(request));
  CHECK(j.at("name") == "refresh-three-uneven");
  CHECK(j.at("policy").at("kind") == "golden-ratio");
  CHECK(j.at("mean_access_time").get<double>() == Approx(0.8).epsilon(1e-15));
  const std::vector<double> mu{0.15, 0.4, 0.3};
  const double ex = 0.8;
  std::vector<double> h;
  for (const double m : mu) h.push_back(1 / (1 + ex * m));  // E exp(-mu X), X exponential
  const auto got_h = j.at("h").get<std::vector<double>>();
  REQUIRE(got_h.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(got_h[i] == Approx(h[i]).epsilon(1e-13));
  CHECK(j.at("cost_over_lower_bound").get<double>() ==
        Approx(j.at("cost").get<double>() / j.at("lower_bound").get<double>()).epsilon(1e-12));
  // (16) with c_i = mu_i: f_i proportional to 1/h_i - 1 = E[X] mu_i, so f_i = mu_i / 0.85;
  // Lemma 4.1: r_i = 1 - f/(mu E[X]) + f/(mu E[X]) f h / (1 - h + f h).
  double cost = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double f = mu[i] / 0.85, g = f / (mu[i] * ex);
    cost += mu[i] * (1 - g + g * f * h[i] / (1 - h[i] + f * h[i]));
  }
  CHECK(j.at("randomized_optimum").at("cost").get<double>() == Approx(cost).epsilon(1e-12));
  CHECK(j.at("randomized_optimum").at("closed_form") == true);  // weights proportional to the rates
  CHECK(j.at("golden_ratio_limit").at("ratio").get<double>() ==
        Approx(corollary_5_1(0.68)).epsilon(1e-10));

  // Weights not proportional to the rates: no closed form for (12).
  std::string cyclic = kRefreshPages;
  cyclic.replace(cyclic.find("  policy"), std::string::npos,
                 "  weights: [1, 0.5, 2]\n  policy: {kind: cyclic, sequence: [2, 0, 1, 2, 1]}\n");
  const api::RefreshRequest other = refresh_request(cyclic);
  const json k = api::to_json(other, api::refresh(other));
  CHECK(k.at("policy").at("kind") == "cyclic");
  CHECK(k.at("randomized_optimum").at("closed_form") == false);
}

TEST_CASE(
    "refresh --simulate --json: the plan read back, the reads made, the intervals simulate_refresh "
    "gives",
    "[api][oracle][refresh]") {
  api::RefreshRequest request = refresh_request(kRefreshPages);
  request.simulate = true;
  request.seed = 11;
  request.replications = 3;
  const auto start = std::chrono::steady_clock::now();
  const api::RefreshResult result = api::refresh(request);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const json j = api::to_json(request, result);
  const json& s = j.at("simulated");
  CHECK(s.at("seed") == 11);
  // The default horizon 2000 N E[X] = 2000 x 3 x 0.8, and a warm-up of a twentieth of it.
  CHECK(s.at("horizon").get<double>() == Approx(4800).epsilon(1e-15));
  CHECK(s.at("warmup").get<double>() == Approx(240).epsilon(1e-15));
  // Reads are a Poisson process of rate 1/E[X] over warm-up and horizon: 3 x 5040 / 0.8 = 18900
  // expected, within 5 standard deviations.
  CHECK(s.at("accesses").get<double>() == Approx(18900).margin(5 * std::sqrt(18900.0)));
  CHECK(s.at("seconds").get<double>() >= 0);
  CHECK(s.at("seconds").get<double>() <= wall);
  // The intervals are the simulator's (whose own oracles are in refresh_simulator_test.cpp) for the
  // cycle the JSON prints and the plan it reads back.
  sim::RefreshSimulationPlan plan;
  plan.seed = 11;
  plan.replications = 3;
  plan.horizon = 4800;
  plan.warmup = 240;
  plan.threads = 1;
  const sim::RefreshSimulationResult direct = sim::simulate_refresh(
      request.model, sim::CyclicOrder{j.at("policy").at("cycle").get<std::vector<int>>()}, plan);
  REQUIRE(s.at("obsolescence_rates").size() == 3);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(s.at("obsolescence_rates").at(i).at("half_width").get<double>() ==
          direct.obsolescence_rates[i].half_width);
  CHECK(s.at("cost").at("half_width").get<double>() == direct.cost.half_width);
}

namespace {

// Deterministic on every platform (std::exponential_distribution is not): a uniform in (0, 1) from
// the top 53 bits.
double uniform(std::mt19937_64& random) {
  return (static_cast<double>(random() >> 11) + 0.5) * 0x1p-53;
}

// A delivery log written by the test: batches of 1 or 2 deliveries 0.002 apart, batch starts 0.05 +
// an exponential apart whose mean switches between 2.5 and 0.4 (kept with probability 0.9), and one
// stop of 500 after batch 300.
struct Log {
  std::vector<double> times, starts;
  std::vector<std::vector<double>> runs;  // times between batch starts, cut at the stop
};

Log correlated_log() {
  std::mt19937_64 random(20240611);
  Log log;
  double t = 0;
  int regime = 0;
  log.runs.emplace_back();
  for (int batch = 0; batch < 600; ++batch) {
    if (batch > 0) {
      if (uniform(random) > 0.9) regime = 1 - regime;
      const double gap = 0.05 - (regime == 0 ? 2.5 : 0.4) * std::log(uniform(random));
      const double stop = batch == 300 ? 500 : 0;
      t += gap + stop;
    }
    log.starts.push_back(t);
    log.times.push_back(t);
    if (uniform(random) < 0.3) log.times.push_back(t + 0.002);
  }
  for (std::size_t i = 1; i < log.starts.size(); ++i) {
    if (i == 300) {
      log.runs.emplace_back();
      continue;
    }
    log.runs.back().push_back(log.starts[i] - log.starts[i - 1]);
  }
  return log;
}

api::FitArrivalsRequest arrivals_request(const Log& log) {
  api::FitArrivalsRequest request;
  request.source = "deliveries.log";
  request.times = log.times;
  request.batch_gap = 0.01;
  request.censor_gap = 100;
  return request;
}

Eigen::MatrixXd matrix(const json& rows) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()),
                    static_cast<Eigen::Index>(rows.at(0).size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index k = 0; k < m.cols(); ++k)
      m(i, k) = rows.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(k)).get<double>();
  return m;
}

// A MAP's times between arrivals from (D0, D1) alone: theta (D0 + D1) = 0; phi = theta D1 / lambda,
// the phase just after an arrival; M = (-D0)^-1 and P = M D1; E[X] = phi M 1, E[X^2] = 2 phi M^2 1,
// E[X_0 X_k] = phi M P^k M 1.
struct MapMoments {
  double rate = 0, mean = 0, scv = 0;
  std::vector<double> lags;
};

MapMoments map_moments(const Eigen::MatrixXd& d0, const Eigen::MatrixXd& d1, int lags) {
  const Eigen::Index n = d0.rows();
  Eigen::MatrixXd a = (d0 + d1).transpose();
  a.row(n - 1).setOnes();
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(n);
  unit(n - 1) = 1;
  const Eigen::RowVectorXd theta = a.fullPivLu().solve(unit).transpose();
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(n);
  MapMoments out;
  out.rate = theta * d1 * ones;
  const Eigen::RowVectorXd phi = theta * d1 / out.rate;
  const Eigen::MatrixXd m = (-d0).inverse(), p = m * d1;
  out.mean = phi * m * ones;
  const double m2 = 2 * (phi * m * m * ones)(0);
  out.scv = m2 / (out.mean * out.mean) - 1;
  Eigen::MatrixXd power = p;
  for (int k = 1; k <= lags; ++k, power = power * p)
    out.lags.push_back(((phi * m * power * m * ones)(0) - out.mean * out.mean) /
                       (m2 - out.mean * out.mean));
  return out;
}

void check_generator_rows(const json& fitted) {
  const Eigen::MatrixXd sum = matrix(fitted.at("D0")) + matrix(fitted.at("D1"));
  const double scale = matrix(fitted.at("D0")).cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < sum.rows(); ++i)
    CHECK(sum.row(i).sum() == Approx(0).margin(1e-12 * scale));
}

}  // namespace

TEST_CASE(
    "fit arrivals --json: the log's statistics recomputed from the log written, the MAP's from D0 "
    "and D1",
    "[api][oracle][fit]") {
  const Log log = correlated_log();
  const api::FitArrivalsRequest request = arrivals_request(log);
  const json j = api::fit_arrivals(request);
  CHECK(j.at("units") == log.times.size());
  CHECK(j.at("batch_gap") == 0.01);
  CHECK(j.at("censor_gap") == 100);
  CHECK(j.at("arrivals").at("kind") == "per-mode");

  // The sample: 600 batches, 599 gaps, one cut at the stop.
  std::vector<double> gaps;
  for (const auto& run : log.runs) gaps.insert(gaps.end(), run.begin(), run.end());
  const double n = static_cast<double>(gaps.size());
  CHECK(j.at("sample").at("size") == 598);
  REQUIRE(gaps.size() == 598);
  double sum = 0, squares = 0;
  for (const double x : gaps) sum += x;
  const double mean = sum / n;
  for (const double x : gaps) squares += (x - mean) * (x - mean);
  const json& sample = j.at("sample");
  CHECK(sample.at("variance").get<double>() == Approx(squares / (n - 1)).epsilon(1e-12));
  CHECK(sample.at("scv").get<double>() == Approx(squares / (n - 1) / (mean * mean)).epsilon(1e-12));
  // Lag k: pairs within a run, over the variance with divisor n; the band 1.96 / sqrt(pairs).
  for (int k = 1; k <= 6; ++k) {
    INFO("lag " << k);
    double products = 0;
    int pairs = 0;
    for (const auto& run : log.runs)
      for (std::size_t i = static_cast<std::size_t>(k); i < run.size(); ++i, ++pairs)
        products += (run[i] - mean) * (run[i - static_cast<std::size_t>(k)] - mean);
    CHECK(sample.at("lag_correlations").at(k - 1).get<double>() ==
          Approx(products / pairs / (squares / n)).epsilon(1e-10));
    CHECK(sample.at("lag_bands").at(k - 1).get<double>() ==
          Approx(1.96 / std::sqrt(pairs)).epsilon(1e-14));
  }

  const json& fitted = j.at("fitted");
  CHECK(fitted.at("method") == "moments");
  check_generator_rows(fitted);
  const MapMoments map = map_moments(matrix(fitted.at("D0")), matrix(fitted.at("D1")), 6);
  CHECK(fitted.at("mean").get<double>() == Approx(1 / map.rate).epsilon(1e-9));
  CHECK(fitted.at("mean").get<double>() == Approx(map.mean).epsilon(1e-9));
  CHECK(fitted.at("scv").get<double>() == Approx(map.scv).epsilon(1e-9));
  CHECK(fitted.at("scv").get<double>() ==
        Approx(fitted.at("variance").get<double>() / std::pow(fitted.at("mean").get<double>(), 2))
            .epsilon(1e-12));
  // The regimes' MAP: corr(X_0, X_k) = A rho^k exactly.
  const double height = fitted.at("correlation_height").get<double>(),
               decay = fitted.at("correlation_decay").get<double>();
  REQUIRE(height > 0);
  for (int k = 1; k <= 6; ++k) {
    INFO("lag " << k);
    CHECK(fitted.at("lag_correlations").at(k - 1).get<double>() ==
          Approx(height * std::pow(decay, k)).epsilon(1e-9));
    CHECK(map.lags[static_cast<std::size_t>(k - 1)] ==
          Approx(height * std::pow(decay, k)).epsilon(1e-9));
  }

  // Q-Q points: p = 0.01 .. 0.99, and the log's order statistic at p (n - 1), rounded down.
  const json& quantiles = j.at("quantiles");
  REQUIRE(quantiles.at("probabilities").size() == 99);
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  for (int q = 1; q < 100; ++q) {
    const double p = q / 100.0;
    CHECK(quantiles.at("probabilities").at(q - 1).get<double>() == Approx(p).epsilon(1e-15));
    CHECK(quantiles.at("sample").at(q - 1).get<double>() ==
          sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))]);
  }

  // Without --censor-gap: 50 times the mean time between batch starts, the stop included.
  api::FitArrivalsRequest defaults = request;
  defaults.censor_gap.reset();
  CHECK(api::fit_arrivals(defaults).at("censor_gap").get<double>() ==
        Approx(50 * (log.starts.back() - log.starts.front()) / 599).epsilon(1e-12));
}

TEST_CASE("fit arrivals --method em --json: the regimes asked for, P's rows, and D1 built from P",
          "[api][oracle][fit]") {
  api::FitArrivalsRequest request = arrivals_request(correlated_log());
  request.method = "em";
  request.regimes = 2;
  const json fitted = api::fit_arrivals(request).at("fitted");
  CHECK(fitted.at("method") == "em");
  CHECK(fitted.at("regimes") == 2);
  CHECK(fitted.at("converged") == true);  // two regimes drawn, two fitted
  check_generator_rows(fitted);
  // Maximum likelihood matches no moment on purpose: the MAP's own, from D0 and D1.
  const MapMoments map = map_moments(matrix(fitted.at("D0")), matrix(fitted.at("D1")), 6);
  CHECK(fitted.at("mean").get<double>() == Approx(map.mean).epsilon(1e-9));
  CHECK(fitted.at("scv").get<double>() == Approx(map.scv).epsilon(1e-9));
  for (int k = 1; k <= 6; ++k)
    CHECK(fitted.at("lag_correlations").at(k - 1).get<double>() ==
          Approx(map.lags[static_cast<std::size_t>(k - 1)]).epsilon(1e-9));
  const Eigen::MatrixXd transitions = matrix(fitted.at("transitions")),
                        d1 = matrix(fitted.at("D1"));
  REQUIRE(transitions.rows() == 2);
  for (Eigen::Index i = 0; i < 2; ++i) CHECK(transitions.row(i).sum() == Approx(1).epsilon(1e-12));
  // Regime i is an Erlang chain of `shape` phases at rate shape / mean_i; its last phase ends in
  // the first phase of regime j at that rate times P_ij.
  const int shape = fitted.at("shape").get<int>();
  const auto means = fitted.at("regime_means").get<std::vector<double>>();
  REQUIRE(d1.rows() == 2 * shape);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k)
      CHECK(d1((i + 1) * shape - 1, k * shape) ==
            Approx(shape / means[static_cast<std::size_t>(i)] * transitions(i, k)).epsilon(1e-12));
}

TEST_CASE(
    "fit arrivals --phases 1 --json: the Poisson fit's likelihood and quantiles in closed form",
    "[api][oracle][fit]") {
  // Independent times (0.05 + an exponential of mean 0.9): no lag is outside its band, so one
  // phase.
  std::mt19937_64 random(7);
  std::vector<double> times{0}, gaps;
  for (int i = 0; i < 400; ++i) {
    gaps.push_back(0.05 - 0.9 * std::log(uniform(random)));
    times.push_back(times.back() + gaps.back());
  }
  // The gaps as the log holds them: differences of the rounded times.
  for (std::size_t i = 1; i < times.size(); ++i) gaps[i - 1] = times[i] - times[i - 1];
  api::FitArrivalsRequest request;
  request.source = "poisson.log";
  request.times = times;
  request.batch_gap = 0.01;
  request.censor_gap = 1000;
  request.phases = 1;
  const json j = api::fit_arrivals(request);
  const json& fitted = j.at("fitted");
  REQUIRE(fitted.at("phases") == 1);
  const double lambda = fitted.at("D1").at(0).at(0).get<double>();
  double sum = 0;
  for (const double x : gaps) sum += x;
  // n ln(lambda) - lambda sum(gaps); and the moments fit's lambda is 1 / the sample mean.
  CHECK(lambda == Approx(400 / sum).epsilon(1e-12));
  CHECK(fitted.at("log_likelihood").get<double>() ==
        Approx(400 * std::log(lambda) - lambda * sum).epsilon(1e-9));
  for (int q = 1; q < 100; ++q)
    CHECK(j.at("quantiles").at("fitted").at(q - 1).get<double>() ==
          Approx(-std::log(1 - q / 100.0) / lambda).epsilon(1e-9));
}

namespace {

// exp(S x) of a sub-generator by uniformization: sum over n of Poisson(n; q x) (I + S / q)^n.
Eigen::MatrixXd exp_subgenerator(const Eigen::MatrixXd& s, double x) {
  const Eigen::Index n = s.rows();
  const double q = s.diagonal().cwiseAbs().maxCoeff(), qx = q * x;
  const Eigen::MatrixXd step = Eigen::MatrixXd::Identity(n, n) + s / q;
  Eigen::MatrixXd power = Eigen::MatrixXd::Identity(n, n);
  double weight = std::exp(-qx);
  Eigen::MatrixXd sum = weight * power;
  for (int k = 1; k < qx + 20 * std::sqrt(qx) + 60; ++k) {
    weight *= qx / k;
    power = power * step;
    sum += weight * power;
  }
  return sum;
}

double log_likelihood(const json& law, const std::vector<double>& sample) {
  const Eigen::MatrixXd s = matrix(law.at("S"));
  const auto beta = law.at("beta").get<std::vector<double>>();
  const Eigen::RowVectorXd b =
      Eigen::Map<const Eigen::RowVectorXd>(beta.data(), static_cast<Eigen::Index>(beta.size()));
  const Eigen::VectorXd exits = -s * Eigen::VectorXd::Ones(s.rows());
  double total = 0;
  for (const double x : sample) total += std::log((b * exp_subgenerator(s, x) * exits)(0));
  return total;
}

}  // namespace

TEST_CASE(
    "fit service --json: the sample's size, the fitted law's mean and scv, the likelihood "
    "recomputed",
    "[api][oracle][fit]") {
  api::FitLawRequest request;
  request.source = "three.txt";
  request.sample = {1, 2, 4};
  const json j = api::fit_law(request);
  const json& fitted = j.at("fitted");
  CHECK(j.at("sample").at("size") == 3);
  CHECK(fitted.at("method") == "moments");
  const auto moments = fitted.at("moments").get<std::vector<double>>();
  CHECK(fitted.at("mean").get<double>() == Approx(moments[0]).epsilon(1e-15));
  CHECK(fitted.at("mean").get<double>() == Approx(7.0 / 3).epsilon(1e-9));
  CHECK(fitted.at("scv").get<double>() ==
        Approx(moments[1] / (moments[0] * moments[0]) - 1).epsilon(1e-12));
  CHECK(fitted.at("scv").get<double>() == Approx(2.0 / 7).epsilon(1e-9));
  CHECK(fitted.at("log_likelihood").get<double>() ==
        Approx(log_likelihood(j, request.sample)).epsilon(1e-9));

  // m1 m3 >= m2^2 is some law's: 1, 3, 15 is matched; 1, 3, 8 (8 < 9) is no law's.
  api::FitLawRequest given;
  given.source = "--moments";
  given.moments = {1, 3, 15};
  CHECK(api::fit_law(given).at("fitted").at("third_moment_matched") == true);
  given.moments = {1, 3, 8};
  CHECK(api::fit_law(given).at("fitted").at("third_moment_matched") == false);

  // The paper's content-size moments with the mean service time 8.2: S = diag(-0.0014, -0.2409)
  // as printed, within 2%.
  given.moments = {49207.0356, 2.0527e11, 2.5773e18};
  given.mean = 8.2;
  const json rescaled = api::fit_law(given);
  CHECK(rescaled.at("fitted").at("mean").get<double>() == Approx(8.2).epsilon(1e-12));
  CHECK(rescaled.at("fitted").at("mean").get<double>() ==
        Approx(rescaled.at("fitted").at("moments").at(0).get<double>()).epsilon(1e-15));
  const Eigen::MatrixXd paper = matrix(rescaled.at("S"));
  REQUIRE(paper.rows() == 2);
  CHECK(paper(0, 0) == Approx(-0.0014).epsilon(0.02));
  CHECK(paper(1, 1) == Approx(-0.2409).epsilon(0.02));
  CHECK(paper(0, 1) == 0);
  CHECK(paper(1, 0) == 0);
}

TEST_CASE(
    "fit service --method em --json: converges on a two-rate sample with its likelihood in closed form",
    "[api][oracle][fit]") {
  // 400 times: rate 3.1 with probability 0.35, else rate 0.45.
  std::mt19937_64 random(99);
  api::FitLawRequest request;
  request.source = "two-rates.txt";
  request.method = "em";
  request.phases = 2;
  for (int i = 0; i < 400; ++i) {
    const double rate = uniform(random) < 0.35 ? 3.1 : 0.45;
    request.sample.push_back(-std::log(uniform(random)) / rate);
  }
  const json j = api::fit_law(request);
  const json& fitted = j.at("fitted");
  CHECK(fitted.at("method") == "em");
  CHECK(fitted.at("converged") == true);
  // A hyperexponential: sum over i of beta_i mu_i exp(-mu_i x).
  const Eigen::MatrixXd s = matrix(j.at("S"));
  const auto beta = j.at("beta").get<std::vector<double>>();
  REQUIRE(beta.size() == 2);
  CHECK(s(0, 1) == 0);
  CHECK(s(1, 0) == 0);
  double total = 0;
  for (const double x : request.sample) {
    double density = 0;
    for (Eigen::Index i = 0; i < 2; ++i)
      density += beta[static_cast<std::size_t>(i)] * -s(i, i) * std::exp(s(i, i) * x);
    total += std::log(density);
  }
  CHECK(fitted.at("log_likelihood").get<double>() == Approx(total).epsilon(1e-9));
  CHECK(fitted.at("scv").get<double>() == Approx(fitted.at("moments").at(1).get<double>() /
                                                     std::pow(fitted.at("mean").get<double>(), 2) -
                                                 1)
                                              .epsilon(1e-12));
}

}  // namespace crawlq
