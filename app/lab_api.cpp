#include "app/lab_api.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analytic/memory_estimate.hpp"
#include "analytic/policy_evaluation.hpp"
#include "api/describe_request.hpp"
#include "api/json_output.hpp"
#include "api/landscape_request.hpp"
#include "api/optimize_request.hpp"
#include "api/request_checks.hpp"
#include "api/request_documents.hpp"
#include "api/sample_path_request.hpp"
#include "api/scenario_source.hpp"
#include "app/lab_body.hpp"
#include "model/input_error.hpp"
#include "scenarios/yaml_json.hpp"
#include "scenarios/yaml_reader.hpp"
#include "sim/horizon.hpp"
#include "sim/observer.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"
#include "sim/simulator.hpp"

namespace crawlq::app {

namespace {

// A body's value at `key` as T, or `fallback` when absent; InputError naming the key when it is not
// a T (a whole number outside T's range included: a double would be cast without a check).
template <class T>
T field(const nlohmann::json& body, const char* key, T fallback) {
  const auto found = body.find(key);
  if (found == body.end() || found->is_null()) return fallback;
  const auto refuse = [&] {
    return model::InputError(key, fmt::format("'{}' is not the kind of value this key takes",
                                              scenarios::shortened(safe_dump(*found))));
  };
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!found->is_number()) throw refuse();
    const double value = found->get<double>();
    if (found->is_number_float() && value != std::floor(value)) throw refuse();
    if (!(value >= static_cast<double>(std::numeric_limits<T>::min()) &&
          value <= static_cast<double>(std::numeric_limits<T>::max())))
      throw model::InputError(key, fmt::format("{}: out of range", safe_dump(*found)));
    if (found->is_number_integer()) {
      if (found->is_number_unsigned()) return static_cast<T>(found->get<std::uint64_t>());
      const auto whole = found->get<std::int64_t>();
      if (std::is_unsigned_v<T> && whole < 0)
        throw model::InputError(key, fmt::format("{}: out of range", whole));
      return static_cast<T>(whole);
    }
    return static_cast<T>(value);
  } else {
    try {
      return found->get<T>();
    } catch (const nlohmann::json::exception&) {
      throw refuse();
    }
  }
}

// The lab never reads a file that a request names: a policy table comes as its rows.
void refuse_table_file(const nlohmann::json& policy, const std::string& where) {
  if (!policy.is_object()) return;
  const auto table = policy.find("table");
  if (table != policy.end() && !table->is_array())
    throw model::InputError(where + ".table",
                            "the lab reads no file a request names: give the table's robots values "
                            "as a list, one per state in the order of solve --export");
}

constexpr const char* kHowToGivePolicy = "give \"policy\": {\"thresholds\": [...]} or another form";

struct LabScenario {
  std::string label;
  scenarios::Scenario scenario;
};

LabScenario read(const nlohmann::json& body) {
  if (!body.is_object())
    throw model::InputError("the request's body must be a JSON object with a \"scenario\"");
  const auto scenario = body.find("scenario");
  if (scenario == body.end() || !(scenario->is_object() || scenario->is_string()))
    throw model::InputError(
        "scenario",
        "give the scenario as an object (its YAML's JSON form) or as the text of a file");
  // Text as a file holds it (YAML, line and column in errors), or the object form.
  api::ScenarioSource source{
      .text = scenario->is_string() ? scenario->get<std::string>() : scenario->dump(),
      .label = field<std::string>(body, "name", "scenario"),
      .directory = ".",
      .changes = {}};
  const nlohmann::json form =
      scenario->is_string() ? scenarios::yaml_to_json(scenario->get<std::string>(), source.label)
                            : *scenario;
  if (form.is_object() && form.contains("policy")) refuse_table_file(form.at("policy"), "policy");
  const nlohmann::json changes = field<nlohmann::json>(body, "changes", nlohmann::json::array());
  if (!changes.is_array())
    throw model::InputError("changes", "give a list of [\"parameter\", value]");
  for (const auto& change : changes) {
    if (!change.is_array() || change.size() != 2 || !change[0].is_string() ||
        !change[1].is_number())
      throw model::InputError("changes", fmt::format("{}: give [\"parameter\", value]",
                                                     scenarios::shortened(safe_dump(change))));
    source.changes.emplace_back(change[0].get<std::string>(), change[1].get<double>());
  }
  return {source.label, api::read_scenario(source)};
}

model::ControlPolicy policy_of(const nlohmann::json& body, const LabScenario& s) {
  const auto policy = body.find("policy");
  if (policy != body.end() && !policy->is_null()) {
    refuse_table_file(*policy, "policy");
    return scenarios::parse_policy(policy->dump(), "policy", s.scenario.model);
  }
  return api::policy_or_default(s.scenario.model, s.label, kHowToGivePolicy);
}

// The request's own fields: the body less the scenario it runs on.
nlohmann::json fields_of(const nlohmann::json& body) {
  nlohmann::json fields = body;
  for (const char* envelope : {"scenario", "name", "changes"}) fields.erase(envelope);
  return fields;
}

// The lab reads no file a request names.
api::DocumentScenario document_scenario(const LabScenario& s) {
  return {.source = s.label,
          .model = s.scenario.model,
          .policy_directory = std::nullopt,
          .how_to_give_policy = kHowToGivePolicy};
}

// One sample path as the page draws it: every batch, service, expiry and decision, up to a cap.
class PathRecorder final : public sim::Observer {
 public:
  explicit PathRecorder(std::size_t most) : most_(most) {}
  void on_interval(double, double, int, int) override {}
  void on_batch(double time, int batch, int accepted) override {
    add({time, "batch", batch, accepted});
  }
  void on_served(double time, double sojourn) override { add({time, "served", sojourn}); }
  void on_expired(double time, double sojourn) override { add({time, "expired", sojourn}); }
  void on_state(double time, int level, int robots) override {
    add({time, "state", level, robots});
  }
  bool wants_state() const override { return true; }
  nlohmann::json take() { return std::move(events_); }
  const std::atomic<bool>& full() const { return full_; }

 private:
  void add(nlohmann::json event) {
    if (events_.size() >= most_) {
      full_ = true;
      return;
    }
    events_.push_back(std::move(event));
  }
  std::size_t most_;
  nlohmann::json events_ = nlohmann::json::array();
  std::atomic<bool> full_{false};
};

// The wait for the request's share of the lab, held while the work runs (nothing without a gate).
std::shared_ptr<void> admitted(const LabRun& run, double bytes, bool long_work) {
  return run.admit ? run.admit(bytes, long_work) : nullptr;
}

// A solve this small answers in a blink: it does not queue behind optimisations.
constexpr double kLargestQuickStates = 2e5;
// A simulation holds a few pages' clocks and the path's events: far below this.
constexpr double kSimulationBytes = 64.0 * (1 << 20);

// The page's path: enough to watch for a minute, little enough to send at once.
constexpr std::size_t kMostPathEvents = 20000;
constexpr double kPathEvents = 2000, kReplicationEvents = 2e5;

}  // namespace

std::function<void(const LabEmit&)> lab_simulation(const nlohmann::json& body, const LabRun& run) {
  const auto s = std::make_shared<const LabScenario>(read(body));
  const model::Model& model = s->scenario.model;
  const model::ControlPolicy policy = policy_of(body, *s);
  const std::shared_ptr<const sim::Policy> simulated = sim::make_policy(policy);
  const auto seed = field<std::uint64_t>(body, "seed", 1);
  const int replications = field<int>(body, "replications", 20);
  if (replications < 2 || replications > 1000)
    throw model::InputError("replications", fmt::format("{}: give 2 to 1000", replications));
  const sim::Pace pace = sim::measure_pace(model, *simulated, seed);
  const double per_time = std::max(pace.events_per_time, 1e-300);
  const double path_horizon = field<double>(body, "path_horizon", kPathEvents / per_time);
  const double horizon = field<double>(body, "horizon", kReplicationEvents / per_time);
  if (!(path_horizon > 0) || !(horizon > 0) || !std::isfinite(path_horizon) ||
      !std::isfinite(horizon))
    throw model::InputError("horizon", "give positive times");
  if ((path_horizon + 1.1 * horizon * replications) * per_time > 1e9)
    throw model::InputError(
        "horizon", "more than 10^9 events in all: give a shorter horizon or fewer replications");
  std::shared_ptr<void> ticket = admitted(run, kSimulationBytes, true);
  const api::Cancellation* cancel = run.cancel;
  return [s, simulated, policy, seed, replications, path_horizon, horizon, ticket,
          cancel](const LabEmit& emit) {
    const model::Model& model = s->scenario.model;
    PathRecorder path(kMostPathEvents);
    api::sample_path({.source = s->label,
                      .model = model,
                      .policy = policy,
                      .seed = seed,
                      .horizon = path_horizon,
                      .caller = api::Caller::kLab},
                     path, &path.full());
    if (cancel && *cancel) return;
    if (!emit("path", {{"events", path.take()}, {"horizon", path_horizon}})) return;

    sim::ReplicationPlan plan{.seed = seed,
                              .replications = replications,
                              .warmup = 0.1 * horizon,
                              .horizon = horizon,
                              .threads = 1};
    plan.stop = cancel;
    std::vector<sim::ReplicationEstimate> estimates;
    std::uint64_t events = 0;
    double seconds = 0;
    // Two replications a round: an interval needs two, and the page sees it narrow round by round.
    for (int first = 0; first < replications; first += 2) {
      if (cancel && *cancel) return;
      const auto started = std::chrono::steady_clock::now();
      sim::ReplicationBatch batch =
          sim::run_replications(model, *simulated, plan, first, std::min(2, replications - first));
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      events += batch.events;
      for (auto& e : batch.estimates) estimates.push_back(std::move(e));
      if (batch.cut_short) return;
      const sim::SimulationSummary summary = sim::summarize(model, estimates, events, seconds);
      nlohmann::json j{{"replications", estimates.size()}, {"events", events}};
      api::put_measures(j, summary, false);
      if (!emit("estimates", j)) return;
    }
  };
}

nlohmann::json lab_solve(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  api::SolveRequest request =
      api::solve_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  request.threads = 1;  // requests run side by side; one thread each
  // Refused before it waits for memory: a request that cannot run never holds a place in the queue.
  const analytic::MemoryEstimate need = api::check(request);
  const auto ticket =
      admitted(run, need.bytes, request.sojourn || need.states > kLargestQuickStates);
  return api::to_json(request, api::solve(request, run.cancel));
}

nlohmann::json lab_optimize(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  api::OptimizeRequest request =
      api::optimize_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  request.threads = 1;
  const auto ticket = admitted(run, api::check(request).bytes, true);
  return api::to_json(request, api::optimize(request, run.cancel));
}

nlohmann::json lab_describe(const nlohmann::json& body) {
  const LabScenario s = read(body);
  return api::describe({.model = s.scenario.model, .repairs = s.scenario.repairs});
}

nlohmann::json lab_scenario_form(const nlohmann::json& body) {
  const LabScenario s = read(body);
  const nlohmann::json& scenario = body.at("scenario");
  return {{"scenario", scenario.is_string()
                           ? scenarios::yaml_to_json(scenario.get<std::string>(), s.label)
                           : scenario}};
}

nlohmann::json lab_landscape(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  const api::LandscapeRequest request =
      api::landscape_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  const auto ticket = admitted(run, api::check(request).bytes, true);
  return api::to_json(request, api::landscape(request, run.cancel));
}

}  // namespace crawlq::app
