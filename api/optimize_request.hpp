#pragma once
// `optimize` as a request: the policy of least cost (ADKNS (2)) over a class, by the exact engine,
// with the JSON of `crawlq optimize --json`.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analytic/control/class_comparison.hpp"
#include "analytic/control/markov_search.hpp"
#include "analytic/control/periodic_search.hpp"
#include "analytic/control/policy_search.hpp"
#include "analytic/control/table_search.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "api/solve_request.hpp"
#include "model/model.hpp"
#include "model/name_table.hpp"

namespace crawlq::api {

// The classes optimize searches, from the paper's to every policy that sees the whole state.
enum class PolicyClass { kThresholds, kLevels, kPhaseAware, kMemory, kMarkov, kAll };
inline constexpr model::NameTable<PolicyClass, 6> kPolicyClassNames{
    "class",
    {{{PolicyClass::kThresholds, "thresholds"},
      {PolicyClass::kLevels, "levels"},
      {PolicyClass::kPhaseAware, "phase-aware"},
      {PolicyClass::kMemory, "memory"},
      {PolicyClass::kMarkov, "markov"},
      {PolicyClass::kAll, "all"}}}};
// Every class, in the order --help and `--class all` list them.
const std::vector<PolicyClass>& policy_classes();

struct OptimizeRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  PolicyClass policy_class = PolicyClass::kThresholds;
  analytic::Search search =
      analytic::Search::kAuto;  // the thresholds class: exhaustive, local, or by size
  analytic::Method method = analytic::Method::kAuto;
  std::int64_t max_maps = 1'000'000;  // the levels class refuses to enumerate more
  int threads = 0;                    // policies solved side by side; 0: every core
  int starts = 1;                     // local search: descents from this many grid vectors (0: all)
  // Where the best policy is written in a form solve reads back (markov: the table as CSV, named in
  // a scenario's `policy: {table: FILE}`); empty: not written.
  std::string export_policy = {};
  // Every phase of the obsolescence clock in the chains searched, even where each exits at one rate
  // (analytic/stationary/clock_lumping.hpp); the markov classes keep them whatever this says.
  bool full_chain = false;
  std::function<void(const std::string&)> progress = {};  // a line per stage of a long search
  Caller caller = Caller::kCommandLine;                   // whose words the messages use
  // A set of models (api/ensemble.hpp) each searched as this one: how the best policy and its cost
  // move, and what keeping this model's best costs on each.
  std::string ensemble = {};

  // False with `why` naming the field (in the caller's words) and its value.
  bool is_valid(std::string* why) const;
};

// The model whose chains the search solves: the request's, with its clock lumped where no policy of
// the class names a clock phase (analytic/stationary/clock_lumping.hpp).
model::Model answering_model(const OptimizeRequest& request);

// Its --class name; parse_policy_class throws model::InputError naming the field as `caller` writes
// it and the known names.
const char* policy_class_name(PolicyClass policy_class);
PolicyClass parse_policy_class(const std::string& name, Caller caller = Caller::kCommandLine);

struct OptimizeResult {
  std::variant<analytic::ThresholdSearch, analytic::LocalThresholdSearch, analytic::LevelSearch,
               analytic::TableClassSearch, analytic::MarkovSearch, analytic::ClassComparison,
               analytic::PeriodicThresholdSearch>
      search;
  double seconds = 0;
  // When an ensemble was asked for: {"members", "files", "best_cost", "point_policy_cost",
  // "decisions", "stability", "regret", "by_member"} (interface.md).
  std::optional<nlohmann::json> ensemble = std::nullopt;
  double seconds_ensemble = 0;
};

// The search's best policy and its cost (2), whatever the class: a class comparison's least; under
// a rhythm, the first piece's vector with the per-piece cost.
struct BestPolicy {
  model::ControlPolicy policy;
  double cost = 0;
};
BestPolicy best_of(const OptimizeResult& result);

// Checks first what every front end needs (require_exact_engine_fits, require_markov_control_fits,
// and the search's least work against analytic::kMostSearchWork, search_work.hpp), then searches.
// Throws model::InputError naming the source when the request is not valid, does not fit, its
// search would pass the budget (counted before it starts and as it goes) or a policy's solve stops
// unconverged (naming the --method that answers); std::runtime_error when policy iteration fails;
// analytic::Cancelled soon after `cancel` is set.
OptimizeResult optimize(const OptimizeRequest& request, const Cancellation* cancel = nullptr);
// The checks optimize makes before it searches (the fields, memory for the chain and for full-state
// control, the search's least work), model::InputError as there; gives the memory the search will
// hold, for a caller that admits work by memory.
analytic::MemoryEstimate check(const OptimizeRequest& request);
// The keys of `optimize --json` (interface.md).
nlohmann::json to_json(const OptimizeRequest& request, const OptimizeResult& result);

}  // namespace crawlq::api
