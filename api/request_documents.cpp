#include "api/request_documents.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "analytic/control/policy_search.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "analytic/transient/transient_analysis.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"
#include "model/simulation_policy.hpp"
#include "model/thread_count.hpp"
#include "scenarios/policy_section.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/yaml_reader.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::api {

namespace {

// A value as a message quotes it: short, and whatever bytes it holds.
std::string shown(const nlohmann::json& value) {
  return scenarios::shortened(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string what_to_give(RequestKind kind, const RequestField& field) {
  if (const std::vector<std::string> names = choices_of(kind, field.field); !names.empty())
    return fmt::format("one of {}", fmt::join(names, ", "));
  if (field.field == Field::kThreads)
    return fmt::format("a whole number from 0 (every core) to {}", model::kMostThreads);
  const std::string_view type = field.type;
  if (type == "boolean") return "true or false";
  if (type == "integer") return "a whole number";
  if (type == "number") return "a number";
  if (type == "string") return "text";
  if (type == "numbers") return "a list of numbers";
  if (type == "integers") return "a list of whole numbers";
  return "any form of a scenario's policy section, as an object";
}

std::string known_fields(RequestKind kind, Caller caller) {
  std::string known;
  for (const RequestField& f : request_fields(kind))
    if (takes(caller, f))
      known += fmt::format("{}{}", known.empty() ? "" : ", ", field_name(caller, f.field));
  return known;
}

// A document's fields read by the schema, each refusal naming the field in the caller's words.
class Reader {
 public:
  Reader(const nlohmann::json& document, RequestKind kind, Caller caller)
      : document_(document), kind_(kind), caller_(caller) {
    check_document(document, kind, caller);
  }

  std::string name(Field field) const { return std::string(field_name(caller_, field)); }

  // The value given, else the schema's default; nullptr when that is null.
  const nlohmann::json* value(Field field) {
    const RequestField& spec = spec_of(field);
    if (document_.is_object()) {
      const auto found = document_.find(name(field));
      if (found != document_.end()) {
        if (found->is_null() && spec.fallback != "null") throw refuse(spec, *found);
        return found->is_null() ? nullptr : &*found;
      }
    }
    if (spec.fallback.empty())  // check_document refused its absence
      throw model::InputError(name(field), "required");
    fallback_ = nlohmann::json::parse(spec.fallback);
    return fallback_.is_null() ? nullptr : &fallback_;
  }

  template <class T>
  std::optional<T> whole(Field field) {
    const nlohmann::json* v = value(field);
    if (!v) return std::nullopt;
    const RequestField& spec = spec_of(field);
    if (!v->is_number() || v->is_boolean()) throw refuse(spec, *v);
    const double number = v->get<double>();
    // Below 2^digits strictly: T's largest value rounds up to it as a double, and casting that
    // back is undefined.
    const double beyond = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (number != std::floor(number) ||
        !(number >= static_cast<double>(std::numeric_limits<T>::min()) && number < beyond))
      throw refuse(spec, *v);
    const T whole = v->is_number_unsigned()  ? static_cast<T>(v->get<std::uint64_t>())
                    : v->is_number_integer() ? static_cast<T>(v->get<std::int64_t>())
                                             : static_cast<T>(number);
    if (field == Field::kThreads && (whole < 0 || whole > model::kMostThreads))
      throw refuse(spec, *v);
    return whole;
  }

  std::optional<double> number(Field field) {
    const nlohmann::json* v = value(field);
    if (!v) return std::nullopt;
    if (!v->is_number()) throw refuse(spec_of(field), *v);
    return v->get<double>();
  }

  bool boolean(Field field) {
    const nlohmann::json* v = value(field);
    if (!v->is_boolean()) throw refuse(spec_of(field), *v);
    return v->get<bool>();
  }

  std::optional<std::string> text(Field field) {
    const nlohmann::json* v = value(field);
    if (!v) return std::nullopt;
    if (!v->is_string()) throw refuse(spec_of(field), *v);
    return v->get<std::string>();
  }

  std::vector<double> numbers(Field field) {
    const nlohmann::json* v = value(field);
    std::vector<double> list;
    if (!v->is_array()) throw refuse(spec_of(field), *v);
    for (const auto& item : *v) {
      if (!item.is_number()) throw refuse(spec_of(field), *v);
      list.push_back(item.get<double>());
    }
    return list;
  }

  std::vector<int> integers(Field field) {
    const nlohmann::json* v = value(field);
    std::vector<int> list;
    if (!v->is_array()) throw refuse(spec_of(field), *v);
    for (const auto& item : *v) {
      const bool whole = item.is_number() && item.get<double>() == std::floor(item.get<double>()) &&
                         std::abs(item.get<double>()) <= 1e9;
      if (!whole) throw refuse(spec_of(field), *v);
      list.push_back(static_cast<int>(item.get<double>()));
    }
    return list;
  }

  // A named choice's refusal (std::invalid_argument listing the known names) naming the field.
  template <class Parse>
  auto choice(Field field, Parse parse) -> decltype(parse(std::string())) {
    const std::string given = *text(field);
    try {
      return parse(given);
    } catch (const std::invalid_argument& e) {
      throw model::InputError(name(field), e.what());
    }
  }

  model::ControlPolicy policy(const DocumentScenario& scenario, Field field = Field::kPolicy) {
    const nlohmann::json* v = value(field);
    const std::string key = name(field);
    if (!v) return policy_or_default(scenario.model, scenario.source, scenario.how_to_give_policy);
    if (!scenario.policy_directory) {
      if (v->is_string())
        throw model::InputError(key,
                                "the lab reads no file a request names: give the policy's section "
                                "itself (a table's robots as a list, one per state in the order "
                                "of solve --export)");
      refuse_table_file(*v, key);
    }
    if (v->is_string()) return scenarios::load_policy(v->get<std::string>(), scenario.model);
    if (!v->is_object()) throw refuse(spec_of(field), *v);
    return scenarios::parse_policy(
        v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), key, scenario.model,
        // No directory (the lab's): a section naming a file was refused above.
        scenario.policy_directory.value_or(std::filesystem::path()));
  }

 private:
  const RequestField& spec_of(Field field) const {
    for (const RequestField& f : request_fields(kind_))
      if (f.field == field) return f;
    throw std::logic_error("a request read a field its kind does not list");
  }
  model::InputError refuse(const RequestField& spec, const nlohmann::json& v) const {
    return model::InputError(name(spec.field),
                             fmt::format("{}: give {}", shown(v), what_to_give(kind_, spec)));
  }

  const nlohmann::json& document_;
  RequestKind kind_;
  Caller caller_;
  nlohmann::json fallback_;
};

// A simulation's settings, as simulate, validate and compare take them (a comparison runs exactly
// its replications: it has no precision).
SimulationChoices choices_of(Reader& r, bool has_precision) {
  SimulationChoices choices{.seed = *r.whole<std::uint64_t>(Field::kSeed),
                            .replications = r.whole<int>(Field::kReplications),
                            .horizon = r.number(Field::kHorizon),
                            .warmup = r.number(Field::kWarmup),
                            .threads = *r.whole<int>(Field::kThreads),
                            .precision = has_precision ? r.number(Field::kPrecision) : std::nullopt,
                            .time_limit = *r.number(Field::kTimeLimit)};
  choices.times = r.numbers(Field::kTimes);
  choices.from = *r.text(Field::kFrom);
  choices.outage = *r.number(Field::kOutage);
  choices.arrivals_log = r.text(Field::kArrivalsLog).value_or("");
  choices.batch_gap = r.number(Field::kBatchGap);
  choices.censor_gap = r.number(Field::kCensorGap);
  return choices;
}

}  // namespace

void refuse_table_file(const nlohmann::json& policy, const std::string& key) {
  if (!policy.is_object()) return;
  const auto table = policy.find("table");
  if (table != policy.end() && !table->is_array())
    throw model::InputError(key + ".table",
                            "the lab reads no file a request names: give the table's robots values "
                            "as a list, one per state in the order of solve --export");
}

void check_document(const nlohmann::json& document, RequestKind kind, Caller caller) {
  const std::string_view kind_name = request_kind_name(kind);
  const auto& fields = request_fields(kind);
  if (std::none_of(fields.begin(), fields.end(),
                   [caller](const RequestField& f) { return takes(caller, f); }))
    throw model::InputError(fmt::format("no {} request is taken here", kind_name));
  if (!document.is_object())
    throw model::InputError(fmt::format("a {} request is a JSON object of its fields ({}), not {}",
                                        kind_name, known_fields(kind, caller), shown(document)));
  for (const auto& [key, value] : document.items()) {
    const RequestField* known = nullptr;
    for (const RequestField& f : request_fields(kind))
      if (field_name(caller, f.field) == key) known = &f;
    if (!known)
      throw model::InputError(key, caller == Caller::kPython
                                       ? fmt::format("not a keyword of {}() (known: {})", kind_name,
                                                     known_fields(kind, caller))
                                       : fmt::format("not a field of a {} request (known: {})",
                                                     kind_name, known_fields(kind, caller)));
    if (!takes(caller, *known))
      throw model::InputError(
          key, caller == Caller::kLab
                   ? "the lab does not take this field: it runs each request on one thread "
                     "beside the others, and reads or writes no file a request names"
                   : fmt::format("a field of the lab's {} requests alone", kind_name));
  }
  for (const RequestField& f : request_fields(kind))
    if (f.fallback.empty() && takes(caller, f) && !document.contains(field_name(caller, f.field)))
      throw model::InputError(std::string(field_name(caller, f.field)),
                              fmt::format("required: give {}", what_to_give(kind, f)));
}

SolveRequest solve_request(const nlohmann::json& document, const DocumentScenario& scenario,
                           Caller caller) {
  Reader r(document, RequestKind::kSolve, caller);
  SolveRequest request{.source = scenario.source,
                       .model = scenario.model,
                       .policy = r.policy(scenario),
                       .method = r.choice(Field::kMethod, analytic::parse_method),
                       .threads = *r.whole<int>(Field::kThreads),
                       .sojourn = r.boolean(Field::kSojourn),
                       .transforms = r.numbers(Field::kTransforms),
                       .cdf_points = r.numbers(Field::kCdf),
                       .times = r.numbers(Field::kTimes),
                       .outage = *r.number(Field::kOutage),
                       .drain_to = r.whole<int>(Field::kDrainTo),
                       .sensitivity = r.boolean(Field::kSensitivity),
                       .sensitivity_rates = r.boolean(Field::kSensitivityRates),
                       .full_chain = r.boolean(Field::kFullChain),
                       .caller = caller,
                       .ensemble = r.text(Field::kEnsemble).value_or("")};
  // A policy given runs in every piece of a rhythm, in place of the scenario's by-piece ones (the
  // schema's default for the field is null: none given).
  if (r.value(Field::kPolicy)) request.model.piece_policies.clear();
  // A start by name, or (where files may be read) a file's.
  const std::string from = *r.text(Field::kFrom);
  if (analytic::kTransientStartNames.contains(from)) {
    request.from = analytic::kTransientStartNames.parse(from);
  } else if (scenario.policy_directory) {
    request.from_file = from;
  } else {
    throw model::InputError(field_given(caller, Field::kFrom, from),
                            fmt::format("give one of {} (the lab reads no file a request names)",
                                        analytic::kTransientStartNames.known()));
  }
  return request;
}

OptimizeRequest optimize_request(const nlohmann::json& document, const DocumentScenario& scenario,
                                 Caller caller) {
  Reader r(document, RequestKind::kOptimize, caller);
  return {.source = scenario.source,
          .model = scenario.model,
          .policy_class = parse_policy_class(*r.text(Field::kClass), caller),
          .search = r.choice(Field::kSearch, analytic::parse_search),
          .method = r.choice(Field::kMethod, analytic::parse_method),
          .max_maps = *r.whole<std::int64_t>(Field::kMaxMaps),
          .threads = *r.whole<int>(Field::kThreads),
          .starts = *r.whole<int>(Field::kStarts),
          .export_policy = r.text(Field::kExportPolicy).value_or(""),
          .full_chain = r.boolean(Field::kFullChain),
          .progress = nullptr,
          .caller = caller,
          .ensemble = r.text(Field::kEnsemble).value_or("")};
}

SweepRequest sweep_request(const nlohmann::json& document, const DocumentScenario& scenario,
                           Caller caller) {
  Reader r(document, RequestKind::kSweep, caller);
  return {.source = scenario.source,
          .model = scenario.model,
          .parameter = r.choice(Field::kParameter, validation::parse_sweep_parameter),
          .values = r.numbers(Field::kValues),
          .threads = *r.whole<int>(Field::kThreads),
          .policy_class = *r.text(Field::kClass),
          .full_chain = r.boolean(Field::kFullChain),
          .caller = caller};
}

LandscapeRequest landscape_request(const nlohmann::json& document, const DocumentScenario& scenario,
                                   Caller caller) {
  Reader r(document, RequestKind::kLandscape, caller);
  return {.source = scenario.source,
          .model = scenario.model,
          .thresholds = r.integers(Field::kThresholds),
          .axes = r.integers(Field::kAxes),
          .caller = caller};
}

CompareRequest compare_request(const nlohmann::json& document, const DocumentScenario& scenario,
                               Caller caller) {
  Reader r(document, RequestKind::kCompare, caller);
  const SimulationChoices choices = choices_of(r, false);
  return {.source = scenario.source,
          .model = scenario.model,
          .a = r.policy(scenario, Field::kPolicyA),
          .b = r.policy(scenario, Field::kPolicyB),
          .settings = simulation_settings(choices, caller),
          .caller = caller};
}

LiveSimulationRequest live_simulation_request(const nlohmann::json& document,
                                              const DocumentScenario& scenario, Caller caller) {
  Reader r(document, RequestKind::kLiveSimulation, caller);
  return {.source = scenario.source,
          .model = scenario.model,
          .policy = r.policy(scenario),
          .seed = *r.whole<std::uint64_t>(Field::kSeed),
          .replications = *r.whole<int>(Field::kReplications),
          .path_horizon = r.number(Field::kPathHorizon),
          .horizon = r.number(Field::kHorizon),
          .caller = caller};
}

SimulateRequest transient_simulation_request(const nlohmann::json& document,
                                             const DocumentScenario& scenario, Caller caller) {
  Reader r(document, RequestKind::kTransientSimulation, caller);
  const SimulationChoices choices{.seed = *r.whole<std::uint64_t>(Field::kSeed),
                                  .replications = r.whole<int>(Field::kReplications),
                                  .threads = 1,
                                  .time_limit = kLabTransientSeconds,
                                  .times = r.numbers(Field::kTimes),
                                  .from = *r.text(Field::kFrom),
                                  .outage = *r.number(Field::kOutage)};
  if (*choices.replications > kLabMostTransientReplications)
    throw model::InputError(
        r.name(Field::kReplications),
        fmt::format("{}: give 2 to {}", *choices.replications, kLabMostTransientReplications));
  // The lab reads no file a request names: the start is one of the named ones.
  if (!analytic::kTransientStartNames.contains(choices.from))
    throw model::InputError(r.name(Field::kFrom),
                            fmt::format("'{}': give {}", scenarios::shortened(choices.from),
                                        analytic::kTransientStartNames.known()));
  return {.source = scenario.source,
          .model = scenario.model,
          .policy = r.policy(scenario),
          .settings = simulation_settings(choices, caller),
          .caller = caller};
}

SimulationChoices simulation_choices(const nlohmann::json& document, RequestKind kind,
                                     Caller caller) {
  Reader r(document, kind, caller);
  SimulationChoices choices = choices_of(r, true);
  choices.full_chain = has_field(kind, Field::kFullChain) && r.boolean(Field::kFullChain);
  return choices;
}

model::ControlPolicy document_policy(const nlohmann::json& document, RequestKind kind,
                                     const DocumentScenario& scenario, Caller caller) {
  return Reader(document, kind, caller).policy(scenario);
}

namespace {
std::string key(Field field) { return std::string(field_name(Caller::kLab, field)); }

// An optional field as a document writes it: its value, or null for "the request chooses".
template <class T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}
// A file a field names, null when none was.
nlohmann::json or_null_text(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

}  // namespace

nlohmann::json to_document(const SolveRequest& request) {
  // A scenario's policies by piece are its own: null, as a request that names none.
  return {{key(Field::kPolicy), request.model.piece_policies.empty()
                                    ? scenarios::policy_section(request.policy)
                                    : nlohmann::json(nullptr)},
          {key(Field::kMethod), analytic::method_name(request.method)},
          {key(Field::kThreads), request.threads},
          {key(Field::kSojourn), request.sojourn},
          {key(Field::kSensitivity), request.sensitivity},
          {key(Field::kSensitivityRates), request.sensitivity_rates},
          {key(Field::kFullChain), request.full_chain},
          {key(Field::kTransforms), request.transforms},
          {key(Field::kCdf), request.cdf_points},
          {key(Field::kTimes), request.times},
          {key(Field::kFrom), request.from_file.empty()
                                  ? std::string(analytic::kTransientStartNames.name(request.from))
                                  : request.from_file},
          {key(Field::kOutage), request.outage},
          {key(Field::kDrainTo), or_null(request.drain_to)},
          {key(Field::kEnsemble), or_null_text(request.ensemble)}};
}

nlohmann::json to_document(const OptimizeRequest& request) {
  return {
      {key(Field::kClass), policy_class_name(request.policy_class)},
      {key(Field::kSearch), analytic::search_name(request.search)},
      {key(Field::kMethod), analytic::method_name(request.method)},
      {key(Field::kMaxMaps), request.max_maps},
      {key(Field::kThreads), request.threads},
      {key(Field::kStarts), request.starts},
      {key(Field::kExportPolicy),
       request.export_policy.empty() ? nlohmann::json() : nlohmann::json(request.export_policy)},
      {key(Field::kFullChain), request.full_chain},
      {key(Field::kEnsemble), or_null_text(request.ensemble)}};
}

nlohmann::json to_document(const SweepRequest& request) {
  return {{key(Field::kParameter), validation::parameter_name(request.parameter)},
          {key(Field::kValues), request.values},
          {key(Field::kThreads), request.threads},
          {key(Field::kClass), request.policy_class},
          {key(Field::kFullChain), request.full_chain}};
}

nlohmann::json to_document(const LandscapeRequest& request) {
  return {{key(Field::kThresholds), request.thresholds}, {key(Field::kAxes), request.axes}};
}

nlohmann::json to_document(const CompareRequest& request) {
  const validation::SimulationSettings& s = request.settings;
  return {{key(Field::kPolicyA), scenarios::policy_section(request.a)},
          {key(Field::kPolicyB), scenarios::policy_section(request.b)},
          {key(Field::kSeed), s.seed},
          {key(Field::kReplications), s.replications},
          {key(Field::kHorizon), or_null(s.horizon)},
          {key(Field::kWarmup), or_null(s.warmup)},
          {key(Field::kThreads), s.threads},
          {key(Field::kTimeLimit), s.time_limit},
          {key(Field::kTimes), s.times},
          {key(Field::kFrom), s.from_file.empty()
                                  ? std::string(analytic::kTransientStartNames.name(s.from))
                                  : s.from_file},
          {key(Field::kOutage), s.outage},
          {key(Field::kArrivalsLog), or_null_text(s.arrivals_log)},
          {key(Field::kBatchGap), or_null(s.batch_gap)},
          {key(Field::kCensorGap), or_null(s.censor_gap)}};
}

nlohmann::json to_document(const LiveSimulationRequest& request) {
  return {{key(Field::kPolicy), scenarios::policy_section(request.policy)},
          {key(Field::kSeed), request.seed},
          {key(Field::kReplications), request.replications},
          {key(Field::kPathHorizon), or_null(request.path_horizon)},
          {key(Field::kHorizon), or_null(request.horizon)}};
}

nlohmann::json to_document(const SimulateRequest& request) {
  const validation::SimulationSettings& s = request.settings;
  return {{key(Field::kPolicy), scenarios::policy_section(request.policy)},
          {key(Field::kSeed), s.seed},
          {key(Field::kReplications), s.replications},
          {key(Field::kTimes), s.times},
          {key(Field::kFrom), analytic::kTransientStartNames.name(s.from)},
          {key(Field::kOutage), s.outage},
          {key(Field::kArrivalsLog), or_null_text(s.arrivals_log)},
          {key(Field::kBatchGap), or_null(s.batch_gap)},
          {key(Field::kCensorGap), or_null(s.censor_gap)}};
}

nlohmann::json to_document(const SimulationChoices& choices, const model::ControlPolicy& policy,
                           RequestKind kind) {
  nlohmann::json document{{key(Field::kPolicy), scenarios::policy_section(policy)},
                          {key(Field::kSeed), choices.seed},
                          {key(Field::kReplications), or_null(choices.replications)},
                          {key(Field::kHorizon), or_null(choices.horizon)},
                          {key(Field::kWarmup), or_null(choices.warmup)},
                          {key(Field::kThreads), choices.threads},
                          {key(Field::kPrecision), or_null(choices.precision)},
                          {key(Field::kTimeLimit), choices.time_limit},
                          {key(Field::kTimes), choices.times},
                          {key(Field::kFrom), choices.from},
                          {key(Field::kOutage), choices.outage},
                          {key(Field::kArrivalsLog), or_null_text(choices.arrivals_log)},
                          {key(Field::kBatchGap), or_null(choices.batch_gap)},
                          {key(Field::kCensorGap), or_null(choices.censor_gap)}};
  if (has_field(kind, Field::kFullChain)) document[key(Field::kFullChain)] = choices.full_chain;
  return document;
}

}  // namespace crawlq::api
