#include "api/request_schema.hpp"

#include <algorithm>
#include <array>

#include "analytic/control/class_comparison.hpp"
#include "analytic/control/policy_search.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "analytic/transient/transient_analysis.hpp"
#include "api/optimize_request.hpp"
#include "model/name_table.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::api {

namespace {

constexpr unsigned kNotTheLab = kCommandLineTakes | kPythonTakes;

constexpr RequestField kPolicyField{
    Field::kPolicy, "policy", "null", R"({"thresholds": [-1, 2, 2]})",
    "any form of a scenario's policy section ({\"thresholds\": [...]}, {\"levels\": [...]}, "
    "{\"phase-aware\": [[...]]}, {\"hysteresis\": {...}}, {\"memory\": [[...]]}, {\"table\": "
    "[...]}), or a policy file's path where files may be read; none: the scenario's own"};
constexpr RequestField kMethodField{
    Field::kMethod, "string", R"("auto")", R"("sparse-lu")",
    "the stationary solver (auto: chosen by the model's size and form)"};
constexpr RequestField kThreadsField{Field::kThreads,
                                     "integer",
                                     "0",
                                     "2",
                                     "threads the work runs on (0: every core); the numbers are "
                                     "the same for any count",
                                     kNotTheLab};
constexpr RequestField kClassField{
    Field::kClass, "string", R"("thresholds")", R"("levels")",
    "the class of policies searched (all: each class, with the price of each restriction)"};

// A log the simulator replays (api/replayed_log.hpp): a file, so never the lab's.
constexpr RequestField kArrivalsLogField{
    Field::kArrivalsLog,
    "string",
    "null",
    R"("synthetic-crawler")",
    "a crawler's delivery log (or a shipped log's name) whose own batches the simulator replays in "
    "place of the arrival law, cut as fit arrivals cuts it; r robots replay it r times as fast",
    kNotTheLab};

// A set of models asked the same question (api/ensemble.hpp): files, so never the lab's.
constexpr RequestField kEnsembleField{
    Field::kEnsemble,
    "string",
    "null",
    R"("paper-example-1,paper-example-1")",
    "a set of models over the same states: a directory of scenarios (as fit arrivals --bootstrap B "
    "--out DIR writes in DIR/bootstrap) or files separated by commas; each is asked the same "
    "question, and the answer's spread over them is given beside this model's",
    kNotTheLab};

// How a replayed log is cut into batches, as fit arrivals cuts it.
constexpr RequestField kReplayBatchGapField{
    Field::kBatchGap,
    "number",
    "null",
    "0.05",
    "with arrivals_log: deliveries closer than this are one batch (none: fit arrivals' default)",
    kNotTheLab,
    Field::kArrivalsLog};
constexpr RequestField kReplayCensorGapField{
    Field::kCensorGap,
    "number",
    "null",
    "10000",
    "with arrivals_log: gaps between batches longer than this are left out (none: fit arrivals' "
    "default)",
    kNotTheLab,
    Field::kArrivalsLog};

// A transient's outage, as every kind with times takes it (each naming its takers).
constexpr RequestField kOutageField{
    Field::kOutage,
    "number",
    "0",
    "2",
    "D >= 0 (time units): the indexer serves nothing during [0, D), then resumes",
    kEveryone,
    Field::kTimes};

constexpr RequestField taken_by(RequestField field, unsigned takers) {
  field.takers = takers;
  return field;
}

// Solve's and optimize's: the chain with every clock phase, where it lumps without them.
constexpr RequestField kFullChainField{
    Field::kFullChain, "boolean", "false", "true",
    "every phase of the obsolescence clock kept in the chain even where each phase exits at one "
    "rate and the chain lumps onto far fewer states with the same answers (for the stationary "
    "vector over every state, or to time the full chain)"};

constexpr std::array kSolveFields{
    kPolicyField,
    kMethodField,
    kThreadsField,
    RequestField{Field::kSojourn, "boolean", "false", "true",
                 "the sojourn times of accepted, served and obsolete pages: mean, sd, median, 90% "
                 "and 99%"},
    RequestField{
        Field::kSensitivity, "boolean", "false", "true",
        "the derivative and elasticity of every measure by each parameter group: "
        "arrival-scale (and arrival-scale:r, mode r's), service-scale, "
        "obsolescence-scale, costs.KEY (4 shifted solves per scale; the lab's up to 50,000 "
        "states)"},
    RequestField{
        Field::kSensitivityRates, "boolean", "false", "true",
        "the derivative and elasticity of every scalar measure by every rate of each D_k, S and "
        "Gamma (and their exits) and every entry of beta and gamma, by adjoint: one solve per "
        "measure (a policy by levels, phases or memory; the lab's up to 50,000 states)"},
    kFullChainField,
    RequestField{Field::kTransforms, "numbers", "[]", "[0.5]",
                 "u >= 0 (per unit time): the sojourn times' Laplace-Stieltjes transforms v(u)"},
    RequestField{Field::kCdf, "numbers", "[]", "[2]",
                 "x >= 0 (time units): the sojourn times' distribution functions at x"},
    RequestField{Field::kTimes, "numbers", "[]", "[1, 5]",
                 "t >= 0 in increasing order (time units): the distribution at each time from the "
                 "start, with the rates then and the pages counted since (transient analysis)"},
    RequestField{Field::kFrom, "string", R"("empty")", R"("full")",
                 "where the times start: empty (no pages), full (K pages), stationary (the "
                 "policy's long run)",
                 kEveryone, Field::kTimes},
    kOutageField,
    RequestField{Field::kDrainTo, "integer", "null", "2",
                 "x from 0 to K: the time from the start until the level first drops to x or "
                 "below, its mean and its distribution function at the times"},
    kEnsembleField,
};

constexpr std::array kOptimizeFields{
    kClassField,
    RequestField{Field::kSearch, "string", R"("auto")", R"("exhaustive")",
                 "the thresholds class's search (auto: exhaustive while small enough, else local)"},
    kMethodField,
    RequestField{Field::kMaxMaps, "integer", "1000000", "500000",
                 "the levels class refuses to enumerate more level maps than this"},
    kThreadsField,
    RequestField{Field::kStarts, "integer", "1", "2",
                 "the local search's descents, from this many grid vectors (0: all)"},
    RequestField{Field::kExportPolicy, "string", "null", R"("best-policy.yaml")",
                 "a file to write the best policy to, in a form a policy field reads back",
                 kNotTheLab},
    kFullChainField,
    kEnsembleField,
};

// A simulation's rows that simulate, validate and Python's compare share (each kind says who takes
// them: the lab runs none of these requests; its simulation streams a path and estimates).
constexpr RequestField kSeedField{Field::kSeed, "integer", "1", "7",
                                  "the random numbers' seed: the same seed gives the same numbers"};
constexpr RequestField kHorizonField{
    Field::kHorizon, "number", "null", "2000",
    "each replication's length (time units); none: about a million offered pages at the pace "
    "the policy keeps, measured on a pilot run"};
constexpr RequestField kWarmupField{
    Field::kWarmup, "number", "null", "200",
    "time (time units) dropped at the start of each replication; none: by MSER-5 on a pilot run"};
constexpr RequestField kTimeLimitField{Field::kTimeLimit, "number", "50", "40",
                                       "seconds the run may take"};

constexpr std::array kSimulationFields{
    taken_by(kPolicyField, kNotTheLab),
    taken_by(kSeedField, kNotTheLab),
    RequestField{Field::kReplications, "integer", "null", "4",
                 "given alone, exactly this many replications; else the first batch of a run that "
                 "goes on until the intervals are narrow enough",
                 kNotTheLab},
    taken_by(kHorizonField, kNotTheLab),
    taken_by(kWarmupField, kNotTheLab),
    kThreadsField,
    RequestField{Field::kPrecision, "number", "null", "0.05",
                 "the headline intervals' half-widths relative to their estimates at which the "
                 "run stops (none: 0.01 unless replications are given alone; 0: off)",
                 kNotTheLab},
    taken_by(kTimeLimitField, kNotTheLab),
    RequestField{Field::kTimes, "numbers", "[]", "[1, 5]",
                 "t >= 0 in increasing order (time units): instead of the long run, each value at "
                 "these times from the start, estimated over replications that all start there",
                 kNotTheLab},
    RequestField{Field::kFrom, "string", R"("empty")", R"("stationary")",
                 "where the times start: empty (no pages), full (K pages), stationary (the "
                 "policy's long run, reached by a warm-up), or a policy file's long run where "
                 "files may be read",
                 kNotTheLab, Field::kTimes},
    taken_by(kOutageField, kNotTheLab),
    kArrivalsLogField,
    kReplayBatchGapField,
    kReplayCensorGapField,
};

// validate's: the simulation's, and how the exact side's chain is kept.
constexpr auto kValidateFields = [] {
  std::array<RequestField, kSimulationFields.size() + 1> fields{};
  std::copy(kSimulationFields.begin(), kSimulationFields.end(), fields.begin());
  fields.back() = taken_by(
      RequestField{Field::kFullChain, "boolean", "false", "true",
                   "the exact engine's chain keeps every phase of the obsolescence clock even "
                   "where each phase exits at one rate and it lumps onto far fewer states with "
                   "the same measures (to check the full chain against the simulator)"},
      kNotTheLab);
  return fields;
}();

constexpr std::array kCompareFields{
    RequestField{Field::kPolicyA, "policy", "", R"({"thresholds": [-1, 2, 2]})",
                 "policy A, in any form a policy field takes", kPythonTakes},
    RequestField{Field::kPolicyB, "policy", "", R"({"thresholds": [0, 2, 2]})",
                 "policy B, run on the same random numbers as A", kPythonTakes},
    taken_by(kSeedField, kPythonTakes),
    RequestField{Field::kReplications, "integer", "10", "4",
                 "replications, each running both policies (2 or more)", kPythonTakes},
    taken_by(kHorizonField, kPythonTakes),
    taken_by(kWarmupField, kPythonTakes),
    taken_by(kThreadsField, kPythonTakes),
    taken_by(kTimeLimitField, kPythonTakes),
    RequestField{Field::kTimes, "numbers", "[]", "[1, 5]",
                 "t >= 0 in increasing order (time units): instead of the long runs, both "
                 "policies' transients at these times and B - A, on common random numbers",
                 kPythonTakes},
    RequestField{Field::kFrom, "string", R"("empty")", R"("stationary")",
                 "where the times start: empty, full, stationary (each policy's long run), or a "
                 "policy file's long run",
                 kPythonTakes, Field::kTimes},
    taken_by(kOutageField, kPythonTakes),
    taken_by(kArrivalsLogField, kPythonTakes),
    taken_by(kReplayBatchGapField, kPythonTakes),
    taken_by(kReplayCensorGapField, kPythonTakes),
};

constexpr std::array kSweepFields{
    RequestField{Field::kParameter, "string", "", R"("arrival-scale")", "the parameter varied",
                 kNotTheLab},
    RequestField{Field::kValues, "numbers", "", "[0.9, 1.1]", "its values, in order", kNotTheLab},
    kThreadsField,
    RequestField{Field::kClass, "string", R"("thresholds")", R"("levels")",
                 "besides the threshold optimum, each value's best of this class", kNotTheLab},
    RequestField{Field::kFullChain, "boolean", "false", "true",
                 "every phase of the obsolescence clock kept in each chain solved even where each "
                 "exits at one rate (the markov class keeps them anyway)",
                 kNotTheLab},
};

constexpr std::array kLandscapeFields{
    RequestField{Field::kThresholds, "integers", "[]", "[-1, 2, 2]",
                 "the threshold vector the plane passes through; none: all -1", kLabTakes},
    RequestField{Field::kAxes, "integers", "[0, 1]", "[1, 2]",
                 "which two thresholds vary (counted from 0)", kLabTakes},
};

constexpr std::array kLiveSimulationFields{
    taken_by(kPolicyField, kLabTakes),
    RequestField{Field::kSeed, "integer", "1", "7",
                 "the random numbers' seed: the same seed gives the same path and numbers",
                 kLabTakes},
    RequestField{Field::kReplications, "integer", "20", "4",
                 "independent replications, two a round (2 to 1000)", kLabTakes},
    RequestField{Field::kPathHorizon, "number", "null", "50",
                 "the sample path's length (time units); none: about 2000 events of it", kLabTakes},
    RequestField{Field::kHorizon, "number", "null", "500",
                 "each replication's length (time units); none: about 200,000 events of it",
                 kLabTakes},
};

constexpr std::array kTransientSimulationFields{
    taken_by(kPolicyField, kLabTakes),
    RequestField{Field::kSeed, "integer", "1", "7",
                 "the random numbers' seed: the same seed gives the same numbers", kLabTakes},
    RequestField{Field::kReplications, "integer", "400", "100",
                 "replications from the start, each to the last time (2 to 2000)", kLabTakes},
    RequestField{
        Field::kTimes, "numbers", "", "[1, 5]",
        "t >= 0 in increasing order (time units): each value at these times from the start",
        kLabTakes},
    RequestField{Field::kFrom, "string", R"("empty")", R"("stationary")",
                 "where the times start: empty (no pages), full (K pages), stationary (the "
                 "policy's long run, reached by a warm-up)",
                 kLabTakes, Field::kTimes},
    taken_by(kOutageField, kLabTakes),
};

// The kinds, in the order `crawlq schema` lists them.
constexpr model::NameTable<RequestKind, 9> kRequestKindNames{
    "request",
    {{{RequestKind::kSolve, "solve"},
      {RequestKind::kOptimize, "optimize"},
      {RequestKind::kSimulate, "simulate"},
      {RequestKind::kValidate, "validate"},
      {RequestKind::kSweep, "sweep"},
      {RequestKind::kLandscape, "landscape"},
      {RequestKind::kLiveSimulation, "live-simulation"},
      {RequestKind::kCompare, "compare"},
      {RequestKind::kTransientSimulation, "transient-simulation"}}}};

}  // namespace

std::string_view request_kind_name(RequestKind kind) { return kRequestKindNames.name(kind); }

std::string_view lab_route(RequestKind kind) {
  switch (kind) {
    case RequestKind::kSolve:
      return "/api/solve";
    case RequestKind::kOptimize:
      return "/api/optimize";
    case RequestKind::kLandscape:
      return "/api/landscape";
    case RequestKind::kLiveSimulation:
      return "/api/simulate";
    case RequestKind::kTransientSimulation:
      return "/api/transient-simulation";
    default:
      return "";
  }
}

std::span<const RequestKind> request_kinds() {
  static const std::vector<RequestKind> kinds = kRequestKindNames.values();
  return kinds;
}

std::span<const RequestField> request_fields(RequestKind kind) {
  switch (kind) {
    case RequestKind::kSolve:
      return kSolveFields;
    case RequestKind::kOptimize:
      return kOptimizeFields;
    case RequestKind::kSimulate:
      return kSimulationFields;
    case RequestKind::kValidate:
      return kValidateFields;
    case RequestKind::kSweep:
      return kSweepFields;
    case RequestKind::kLandscape:
      return kLandscapeFields;
    case RequestKind::kLiveSimulation:
      return kLiveSimulationFields;
    case RequestKind::kCompare:
      return kCompareFields;
    case RequestKind::kTransientSimulation:
      return kTransientSimulationFields;
  }
  return {};
}

bool has_field(RequestKind kind, Field field) {
  const std::span<const RequestField> fields = request_fields(kind);
  return std::any_of(fields.begin(), fields.end(),
                     [field](const RequestField& f) { return f.field == field; });
}

std::vector<std::string> choices_of(RequestKind kind, Field field) {
  std::vector<std::string> names;
  switch (field) {
    case Field::kMethod:
      names.push_back("auto");
      for (const analytic::SolverRegistration& solver : analytic::registered_solvers())
        names.emplace_back(solver.name);
      break;
    case Field::kSearch:
      names = analytic::kSearchNames.names();
      break;
    case Field::kClass:
      if (kind == RequestKind::kSweep)
        for (const std::string& name : analytic::policy_class_names()) names.push_back(name);
      else
        names = kPolicyClassNames.names();
      break;
    case Field::kParameter:
      for (const validation::SweepParameter p : validation::sweep_parameters())
        names.push_back(validation::parameter_name(p));
      break;
    case Field::kFrom:
      names = analytic::kTransientStartNames.names();
      break;
    default:
      break;
  }
  return names;
}

bool takes(Caller caller, const RequestField& field) {
  switch (caller) {
    case Caller::kCommandLine:
    case Caller::kDocument:
      return (field.takers & kCommandLineTakes) != 0;
    case Caller::kPython:
      return (field.takers & kPythonTakes) != 0;
    case Caller::kLab:
      return (field.takers & kLabTakes) != 0;
  }
  return false;
}

nlohmann::json request_schema() {
  nlohmann::json schema = nlohmann::json::object();
  for (const RequestKind kind : request_kinds()) {
    nlohmann::json fields = nlohmann::json::array();
    for (const RequestField& f : request_fields(kind)) {
      nlohmann::json takers = nlohmann::json::array();
      if (f.takers & kCommandLineTakes) takers.push_back("command line");
      if (f.takers & kPythonTakes) takers.push_back("python");
      if (f.takers & kLabTakes) takers.push_back("lab");
      fields.push_back(
          {{"key", field_name(Caller::kLab, f.field)},
           {"python", field_name(Caller::kPython, f.field)},
           {"flag", field_name(Caller::kCommandLine, f.field)},
           {"type", f.type},
           {"required", f.fallback.empty()},
           {"default", f.fallback.empty() ? nlohmann::json() : nlohmann::json::parse(f.fallback)},
           {"example", nlohmann::json::parse(f.example)},
           {"help", f.help},
           {"choices", choices_of(kind, f.field)},
           {"takers", std::move(takers)},
           {"needs",
            f.needs ? nlohmann::json(field_name(Caller::kLab, *f.needs)) : nlohmann::json()}});
    }
    schema[std::string(request_kind_name(kind))] = std::move(fields);
  }
  return schema;
}

}  // namespace crawlq::api
