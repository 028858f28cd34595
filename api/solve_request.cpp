#include "api/solve_request.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/policy_forms.hpp"
#include "analytic/transient/transient_chain.hpp"
#include "api/ensemble.hpp"
#include "api/json_output.hpp"
#include "api/periodic_solve.hpp"
#include "api/request_checks.hpp"
#include "api/transient_fields.hpp"
#include "model/elapsed.hpp"
#include "model/input_error.hpp"
#include "model/thread_count.hpp"
#include "model/time_unit.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/state_distribution.hpp"

namespace crawlq::api {

const char* fate_name(analytic::PageFate fate) {
  return analytic::kPageFateNames.name(fate).data();
}

bool SolveRequest::is_valid(std::string* why) const {
  const auto refuse = [why](std::string message) {
    return model::valid_unless(std::move(message), why);
  };
  if (threads < 0)
    return refuse(fmt::format("{}: {}: must be 0 (all cores) or more",
                              field_name(caller, Field::kThreads), threads));
  for (double u : transforms)
    if (!(u >= 0) || !std::isfinite(u))
      return refuse(fmt::format("{}: {} is negative; the transform needs u >= 0",
                                field_name(caller, Field::kTransforms), u));
  for (double x : cdf_points)
    if (std::isnan(x))
      return refuse(fmt::format("{}: not a number", field_name(caller, Field::kCdf)));
  if (const std::string problem =
          transient_problem(caller, times, outage,
                            !drain_to && (outage > 0 || from != analytic::TransientStart::kEmpty ||
                                          !from_file.empty()));
      !problem.empty())
    return refuse(problem);
  if (drain_to && (*drain_to < 0 || *drain_to > model.capacity))
    return refuse(fmt::format("{}: {}: give a level from 0 to the capacity, {}",
                              field_name(caller, Field::kDrainTo), *drain_to, model.capacity));
  if (const std::string refusal = analytic::exact_refusal(policy); !refusal.empty())
    return refuse("policy: " + refusal);
  if (sensitivity_rates && std::holds_alternative<model::TablePolicy>(policy))
    return refuse(fmt::format(
        "{}: a full-state table has no per-rate sensitivities; give a policy by levels, phases "
        "or memory (--sensitivity's groups take any policy)",
        field_name(caller, Field::kSensitivityRates)));
  for (std::size_t i = 0; i < model.piece_policies.size(); ++i)
    if (const std::string refusal = analytic::exact_refusal(model.piece_policies[i]);
        !refusal.empty())
      return refuse(fmt::format("policy.by_piece[{}]: {}", i, refusal));
  if (model.rhythm) {
    // What a periodic long run does not answer yet, named in the caller's words.
    const auto not_with_rhythm = [&](Field field, std::string_view what) {
      return refuse(
          fmt::format("{}: {} under a rhythm is not computed; solve gives the periodic "
                      "regime (the period's averages and each piece's)",
                      field_name(caller, field), what));
    };
    if (!times.empty()) return not_with_rhythm(Field::kTimes, "a transient");
    if (drain_to) return not_with_rhythm(Field::kDrainTo, "the time to drain");
    if (outage > 0) return not_with_rhythm(Field::kOutage, "an outage");
    if (sensitivity) return not_with_rhythm(Field::kSensitivity, "the sensitivity");
    if (sensitivity_rates)
      return not_with_rhythm(Field::kSensitivityRates, "the per-rate sensitivity");
    if (!ensemble.empty()) return not_with_rhythm(Field::kEnsemble, "an ensemble");
  }
  return true;
}

namespace {
// The model whose chain answers: the request's, with its clock lumped where no answer asked for
// needs the clock's phases (analytic/stationary/clock_lumping.hpp).
model::Model answering_model(const SolveRequest& request) {
  if (request.full_chain || !request.from_file.empty() || request.sensitivity_rates)
    return request.model;
  return analytic::lumped_clock_model(request.model, request.policy).value_or(request.model);
}

// The chain solved is that of the policy (memory adds the mode to the environment).
model::Model with_policy(const SolveRequest& request) {
  model::Model solved = answering_model(request);
  solved.policy = request.policy;
  return solved;
}
}  // namespace

analytic::MemoryEstimate check(const SolveRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  const model::Model solved = with_policy(request);
  require_exact_engine_fits(solved, request.source, request.method, request.caller);
  const analytic::MemoryEstimate need = analytic::estimate_memory(solved);
  // The sensitivities are a few dozen shifted solves that no client can stop: the lab runs them on
  // chains where each is a blink.
  if (request.sensitivity_rates)
    require_adjoint_fits(solved, request.source,
                         field_given(request.caller, Field::kSensitivityRates, "true", false));
  for (const auto& [asked, field] :
       {std::pair{request.sensitivity, Field::kSensitivity},
        std::pair{request.sensitivity_rates, Field::kSensitivityRates}})
    if (asked && request.caller == Caller::kLab && need.states > kLabSensitivityStates)
      throw model::InputError(
          field_given(request.caller, field, "true", false),
          fmt::format("{:.0f} states: the lab computes sensitivities up to {:.0f} states (4 "
                      "shifted solves per parameter group, one adjoint solve per measure); crawlq "
                      "solve has no such bound",
                      need.states, kLabSensitivityStates));
  return need;
}

namespace {
// The first dimension in which a start's chain differs from the request's, or "".
std::string differing_dimension(const analytic::StateSpace& ours, int capacity, int environment,
                                int service, int clocks) {
  if (capacity != ours.capacity())
    return fmt::format("capacity {} where the scenario has {}", capacity, ours.capacity());
  if (environment != ours.arrival_phases())
    return fmt::format(
        "{} arrival phases (with the mode in force where a policy remembers it) where the chain "
        "has {}",
        environment, ours.arrival_phases());
  if (service != ours.service_phases())
    return fmt::format("{} service phases where the scenario has {}", service,
                       ours.service_phases());
  if (clocks != ours.clock_phases())
    return fmt::format("{} obsolescence clock phases where the scenario has {}", clocks,
                       ours.clock_phases());
  return "";
}

// --from FILE: a distribution solve --export wrote, or the long run of another scenario or of a
// policy file, over the chain's own states.
Eigen::VectorXd file_start(const SolveRequest& request, const analytic::StateSpace& ours) {
  const std::string given = field_given(request.caller, Field::kFrom, request.from_file);
  const std::filesystem::path file = request.from_file;
  std::error_code error;
  if (!std::filesystem::exists(file, error))
    throw model::InputError(given, fmt::format("not one of {} and no such file",
                                               analytic::kTransientStartNames.known()));
  if (file.extension() == ".csv") {
    const scenarios::StateDistribution d = scenarios::read_state_distribution(file);
    if (const std::string differs = differing_dimension(ours, d.capacity, d.arrival_phases,
                                                        d.service_phases, d.clock_phases);
        !differs.empty())
      throw model::InputError(given, "a distribution over other states: " + differs);
    if (static_cast<Eigen::Index>(d.probability.size()) != ours.size())
      throw model::InputError(given, fmt::format("{} states where the chain has {}",
                                                 d.probability.size(), ours.size()));
    return Eigen::Map<const Eigen::VectorXd>(d.probability.data(), ours.size());
  }
  // Another scenario under its own policy, or this one under a policy file: its long run.
  model::Model other = request.model;
  model::ControlPolicy policy = request.policy;
  if (scenarios::holds_scenario(file)) {
    other = scenarios::load_scenario(file).model;
    if (!other.policy)
      throw model::InputError(given,
                              "the scenario has no policy: give it one, whose long run "
                              "is the start");
    policy = *other.policy;
  } else {
    policy = scenarios::load_policy(file, request.model);
  }
  other.policy = policy;
  if (const std::string refusal = analytic::exact_refusal(policy); !refusal.empty())
    throw model::InputError(given, refusal);
  const analytic::StateSpace theirs = analytic::chain_space(other, policy);
  if (const std::string differs =
          differing_dimension(ours, theirs.capacity(), theirs.arrival_phases(),
                              theirs.service_phases(), theirs.clock_phases());
      !differs.empty())
    throw model::InputError(given, "a long run over other states: " + differs);
  require_exact_engine_fits(other, file.string(), request.method, request.caller);
  const analytic::PolicyEvaluator evaluator(other, request.method,
                                            model::resolved_threads(request.threads));
  const analytic::PolicyEvaluation long_run = evaluator.evaluate(policy);
  if (long_run.stationary.summary.status != analytic::SolverStatus::kConverged)
    refuse_unconverged(other, file.string(), long_run.stationary.summary, request.caller);
  return long_run.stationary.probabilities;
}

Eigen::VectorXd transient_start(const SolveRequest& request,
                                const analytic::PolicyEvaluation& evaluation) {
  if (!request.from_file.empty())
    return file_start(request, analytic::chain_space(with_policy(request), request.policy));
  if (request.from == analytic::TransientStart::kStationary)
    return evaluation.stationary.probabilities;
  const analytic::TransientChain chain(with_policy(request), request.policy);
  return request.from == analytic::TransientStart::kFull ? chain.full_start() : chain.empty_start();
}

// The last time a transient runs to (the outage's end for a drain without times), and that field as
// the caller gave it.
double last_time(const SolveRequest& request) {
  return request.times.empty() ? request.outage : request.times.back();
}
std::string last_time_given(const SolveRequest& request) {
  return field_given(request.caller, request.times.empty() ? Field::kOutage : Field::kTimes,
                     fmt::format("{}", last_time(request)), false);
}

// The transient and the drain, when asked for: uniformisation that would take too many steps is
// refused naming the last time.
void solve_transient(SolveResult& result, const SolveRequest& request, const Cancellation* cancel) {
  const model::Model solved = with_policy(request);
  const Eigen::VectorXd start = transient_start(request, result.evaluation);
  // The lab bounds every computation: a transient there may take about 3e9 state-products (some
  // seconds); elsewhere the user who asked waits for it (Ctrl-C stops it).
  const double most_products =
      request.caller == Caller::kLab ? kLabTransientWork / static_cast<double>(start.size()) : 0;
  const analytic::TransientOptions options{.times = request.times,
                                           .outage = request.outage,
                                           .threads = model::resolved_threads(request.threads),
                                           .stop = cancel,
                                           .most_products = most_products};
  try {
    if (!request.times.empty())
      result.transient = analytic::transient_analysis(solved, request.policy, start, options);
    if (request.drain_to)
      result.drain =
          analytic::drain_analysis(solved, request.policy, start, *request.drain_to, options);
  } catch (const analytic::TooMuchTransientWork& work) {
    throw model::InputError(
        last_time_given(request),
        fmt::format("the transient would take about {:.3g} products of the chain's {} states, "
                    "more than the lab runs; give a last time up to about {:.3g}",
                    work.needed, start.size(), last_time(request) * work.allowed / work.needed));
  } catch (const std::length_error& too_long) {
    throw model::InputError(
        last_time_given(request),
        fmt::format("{}: the chain jumps too often for uniformisation to reach that time; give "
                    "shorter times",
                    too_long.what()));
  } catch (const std::runtime_error& unconverged) {
    if (dynamic_cast<const Cancelled*>(&unconverged) || !request.drain_to) throw;
    throw model::InputError(
        field_given(request.caller, Field::kDrainTo, fmt::format("{}", *request.drain_to), false),
        unconverged.what());
  }
}
}  // namespace

namespace {
using crawlq::model::seconds_since;

// The laws of the sojourn times the request asks for: quantiles, transforms, distribution
// functions.
void add_sojourn_laws(SolveResult& result, const SolveRequest& request,
                      const analytic::SojournTimes& laws, const Cancellation* cancel) {
  if (request.sojourn) {
    result.sojourn.emplace();
    for (std::size_t f = 0; f < kFates.size(); ++f) {
      const analytic::PageFate fate = kFates[f];
      FateLaw& law = (*result.sojourn)[f];
      law = FateLaw{};
      law.probability = laws.probability(fate);
      law.mean = laws.mean(fate);
      law.sd = laws.standard_deviation(fate);
      if (law.probability > 0) {
        try {
          law.median = laws.quantile(fate, 0.5);
          law.p90 = laws.quantile(fate, 0.9);
          law.p99 = laws.quantile(fate, 0.99);
        } catch (const std::invalid_argument& refusal) {
          // A chain too stiff for uniformisation (a fast phase beside a long sojourn): the
          // quantiles are out of reach, the means and transforms are not.
          const std::string_view sojourn = field_name(request.caller, Field::kSojourn);
          throw model::InputError(
              std::string(sojourn),
              fmt::format("the quantiles of the sojourn times: {} (a phase far faster than the "
                          "sojourn is long); without {} the means still come, and {} at any point",
                          refusal.what(), sojourn, field_name(request.caller, Field::kTransforms)));
        }
      }
    }
  }
  if (request.sojourn || !request.cdf_points.empty())
    result.sojourn_method = std::string(analytic::law_method_name(laws.law_method()));
  for (double u : request.transforms)
    result.transforms.push_back(
        {laws.transform(kFates[0], u), laws.transform(kFates[1], u), laws.transform(kFates[2], u)});
  for (double x : request.cdf_points) {
    if (cancel && *cancel) throw Cancelled();
    try {
      result.cdf.push_back(
          {laws.cdf(kFates[0], x), laws.cdf(kFates[1], x), laws.cdf(kFates[2], x)});
    } catch (const std::invalid_argument& refusal) {
      throw model::InputError(field_given(request.caller, Field::kCdf, fmt::format("{}", x), false),
                              refusal.what());
    }
  }
}
}  // namespace

namespace {
// Each member solved under the request's policy, and each measure's spread over them.
nlohmann::json solve_ensemble(const SolveRequest& request, const analytic::Measures& point,
                              const std::vector<EnsembleMember>& members,
                              const Cancellation* cancel) {
  std::vector<analytic::Measures> solved;
  nlohmann::json files = nlohmann::json::array(), by_member = nlohmann::json::array();
  for (std::size_t m = 0; m < members.size(); ++m) {
    if (request.stage)
      request.stage(fmt::format("the ensemble: model {} of {}", m + 1, members.size()));
    const SolveRequest member{.source = members[m].file,
                              .model = members[m].model,
                              .policy = request.policy,
                              .method = request.method,
                              .threads = request.threads,
                              .caller = request.caller};
    solved.push_back(solve(member, cancel).evaluation.measures);
    files.push_back(members[m].file);
    nlohmann::json row{{"file", members[m].file}};
    put_measures(row, solved.back(), false);
    by_member.push_back(std::move(row));
  }
  return {{"members", members.size()},
          {"files", files},
          {"measures", measure_spreads(point, solved)},
          {"by_member", by_member}};
}
}  // namespace

std::string large_solve_warning(const std::string& source, const analytic::MemoryEstimate& need) {
  return fmt::format(
      "{}: {:.0f} states, about {:.2g} GiB at most: the solve may take a while (Ctrl-C stops it)",
      source, need.states, need.bytes / (1 << 30));
}

SolveResult solve(const SolveRequest& request, const Cancellation* cancel) {
  const auto start = std::chrono::steady_clock::now();
  check(request);
  // Read before the work: a member that does not load is refused at once.
  const std::vector<EnsembleMember> members = request.ensemble.empty()
                                                  ? std::vector<EnsembleMember>{}
                                                  : read_ensemble(request.ensemble, request.caller);
  const model::Model solved = with_policy(request);
  const auto step = [&request](const char* name) {
    if (request.stage) request.stage(name);
  };
  const bool periodic = request.model.rhythm.has_value();
  step(periodic ? "the periodic regime" : "the stationary solve");
  const model::Model answering = answering_model(request);
  // Under a rhythm the evaluator solves the period's mean arrivals, where the iterations start
  // (it holds the model by reference).
  const model::Model evaluated = periodic ? analytic::averaged_over_period(answering) : answering;
  analytic::PolicyEvaluator evaluator(evaluated, request.method,
                                      model::resolved_threads(request.threads), cancel);
  const bool laws_asked =
      request.sojourn || !request.transforms.empty() || !request.cdf_points.empty();
  evaluator.keep_sojourn_laws(laws_asked && !periodic);
  std::optional<PeriodicSolve> periodic_solve;
  if (periodic)
    periodic_solve = solve_periodic(
        answering, analytic::piece_policies(request.model, request.policy), evaluator,
        request.source, request.caller, model::resolved_threads(request.threads), cancel);
  SolveResult result{.evaluation = periodic_solve ? periodic_solve->evaluation : [&] {
    try {
      return evaluator.evaluate(request.policy);
    } catch (const std::invalid_argument& refusal) {  // the method refuses this model
      throw model::InputError(request.source, refusal.what());
    }
  }(),
                     .sojourn = std::nullopt,
                     .transforms = {},
                     .cdf = {}};
  result.seconds_stationary = result.evaluation.stationary.summary.seconds;
  if (const std::optional<double> rate = analytic::lumped_clock_rate(answering, request.model)) {
    model::Model full = request.model;
    full.policy = request.policy;
    result.lumping =
        ClockLumping{.rate = *rate, .states_full = analytic::estimate_memory(full).states};
  }
  if (periodic_solve) {
    result.periodic = std::move(periodic_solve->regime);
    result.piece_policies = analytic::piece_policies(request.model, request.policy);
    result.seconds_stationary = periodic_solve->seconds_start;
    result.seconds_periodic = result.evaluation.stationary.summary.seconds;
  }
  const analytic::StationarySummary& summary = result.evaluation.stationary.summary;
  if (cancel && *cancel) throw Cancelled();
  // A valid model the method did not solve: say which method will.
  if (summary.status != analytic::SolverStatus::kConverged)
    refuse_unconverged(solved, request.source, summary, request.caller);
  result.seconds_sojourn = evaluator.chain_seconds() + result.evaluation.sojourn_seconds;
  if (!request.times.empty() || request.drain_to) {
    const auto transient_start = std::chrono::steady_clock::now();
    step("the transient");
    solve_transient(result, request, cancel);
    result.seconds_transient = seconds_since(transient_start);
  }
  if (laws_asked) {
    const auto laws_start = std::chrono::steady_clock::now();
    step("the sojourn times' laws");
    // The laws the means came from, where the evaluation kept them.
    const std::shared_ptr<analytic::SojournTimes> laws =
        result.periodic ? std::make_shared<analytic::SojournTimes>(evaluator.tagged_chain(),
                                                                   result.periodic->arrival_start)
        : result.evaluation.sojourn_laws
            ? result.evaluation.sojourn_laws
            : std::make_shared<analytic::SojournTimes>(evaluator.sojourn_times(result.evaluation));
    laws->set_stop(cancel);
    add_sojourn_laws(result, request, *laws, cancel);
    // Its vectors (three of the tagged chain's size) go before the sensitivities' solves.
    result.evaluation.sojourn_laws.reset();
    result.seconds_sojourn += seconds_since(laws_start);
  }
  if (request.sensitivity) {
    const auto sensitivity_start = std::chrono::steady_clock::now();
    step("the sensitivities (4 shifted solves per scale)");
    try {
      result.sensitivity =
          validation::sensitivities(answering, request.policy, result.evaluation.measures,
                                    request.method, model::resolved_threads(request.threads));
    } catch (const std::invalid_argument& refusal) {  // a shifted model that breaks a rule
      throw model::InputError(request.source, refusal.what());
    }
    result.seconds_sensitivity = seconds_since(sensitivity_start);
  }
  if (request.sensitivity_rates) {
    const auto sensitivity_start = std::chrono::steady_clock::now();
    step("the per-rate sensitivities (one adjoint solve per measure)");
    std::vector<validation::Sensitivity> rows;
    try {
      rows = validation::rate_sensitivities(evaluator, result.evaluation,
                                            model::resolved_threads(request.threads));
    } catch (const Cancelled&) {
      throw;
    } catch (const model::InputError&) {
      throw;
    } catch (const std::runtime_error& failed) {  // an adjoint solve that did not converge
      throw model::InputError(
          request.source,
          fmt::format("{}: {}; the group sensitivities (--sensitivity) need no adjoint",
                      field_given(request.caller, Field::kSensitivityRates, "true", false),
                      failed.what()));
    }
    result.sensitivity.insert(result.sensitivity.end(), rows.begin(), rows.end());
    result.seconds_sensitivity += seconds_since(sensitivity_start);
  }
  if (!members.empty()) {
    const auto ensemble_start = std::chrono::steady_clock::now();
    result.ensemble = solve_ensemble(request, result.evaluation.measures, members, cancel);
    result.seconds_ensemble = seconds_since(ensemble_start);
  }
  result.seconds = seconds_since(start);
  return result;
}

namespace {
// "states" counts the model's chain with every clock phase, as solve --export writes it, whichever
// chain answered; "states_solved" the chain that did, and "lumping" why they differ.
void put_states(nlohmann::json& j, const SolveRequest& request, const SolveResult& result) {
  // The same words from every front end: the JSON is one answer, whoever asked.
  j["states_solved"] = j["states"];
  if (!result.lumping) return;
  const double full = result.lumping->states_full;
  j["states"] = chain_states_json(request.model, full);
  j["lumping"] =
      lumped_chain_text(result.lumping->rate, request.model.time_unit, "the chain solved",
                        std::to_string(j["states_solved"].get<std::int64_t>()),
                        chain_states_text(request.model, full), "answers");
}

nlohmann::json law_json(const FateLaw& law) {
  const auto optional = [](const std::optional<double>& x) {
    return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
  };
  return {{"probability", law.probability}, {"mean", law.mean},         {"sd", law.sd},
          {"median", optional(law.median)}, {"p90", optional(law.p90)}, {"p99", optional(law.p99)}};
}
}  // namespace

namespace {
// The transient's keys (interface.md), with each count's excess over the long run's rate times t.
void put_transient(nlohmann::json& j, const analytic::TransientResult& transient,
                   const analytic::Measures& long_run) {
  j["truncation_error"] = transient.truncation_error;
  j["transient_method"] = analytic::kTransientMethodNames.name(transient.method);
  nlohmann::json times = nlohmann::json::array();
  for (const analytic::TransientPoint& p : transient.points)
    times.push_back(
        {{"t", p.t},
         {"level_probabilities", p.level_probabilities},
         {"mean_in_system", p.mean_in_system},
         {"mean_in_queue", p.mean_in_queue},
         {"mean_active_robots", p.mean_active_robots},
         {"p_empty", p.p_empty},
         {"offered_rate", p.offered_rate},
         {"loss_rate", p.loss_rate},
         {"obsolescence_rate", p.obsolescence_rate},
         {"service_rate", p.service_rate},
         {"offered", p.offered},
         {"lost", p.lost},
         {"obsolete", p.obsolete},
         {"served", p.served},
         {"cost_accumulated", p.cost_accumulated},
         {"excess_lost", p.lost - long_run.lambda * long_run.p_loss * p.t},
         {"excess_obsolete", p.obsolete - long_run.lambda * long_run.p_obsolete * p.t}});
  j["times"] = std::move(times);
}
}  // namespace

nlohmann::json to_json(const SolveRequest& request, const SolveResult& result) {
  nlohmann::json j = evaluation_json(result.evaluation);
  j["time_unit"] = request.model.time_unit;
  put_states(j, request, result);
  // auto's fall back to a direct method, said where the method is.
  if (const std::string& note = result.evaluation.stationary.summary.fallback; !note.empty())
    j["method_note"] = note;
  if (result.sojourn)
    for (std::size_t f = 0; f < kFates.size(); ++f)
      j["sojourn"][fate_name(kFates[f])] = law_json((*result.sojourn)[f]);
  for (std::size_t i = 0; i < result.transforms.size(); ++i) {
    nlohmann::json t{{"u", request.transforms[i]}};
    for (std::size_t f = 0; f < kFates.size(); ++f)
      t[fate_name(kFates[f])] = result.transforms[i][f];
    j["transforms"].push_back(t);
  }
  if (result.sojourn_method) j["sojourn_method"] = *result.sojourn_method;
  for (std::size_t i = 0; i < result.cdf.size(); ++i) {
    nlohmann::json c{{"x", request.cdf_points[i]}};
    for (std::size_t f = 0; f < kFates.size(); ++f) c[fate_name(kFates[f])] = result.cdf[i][f];
    j["cdf"].push_back(c);
  }
  if (result.transient || result.drain) {
    j["from"] = request.from_file.empty()
                    ? std::string(analytic::kTransientStartNames.name(request.from))
                    : request.from_file;
    j["outage"] = request.outage;
  }
  if (result.transient) put_transient(j, *result.transient, result.evaluation.measures);
  if (result.drain)
    j["drain"] = {
        {"level", result.drain->level}, {"mean", result.drain->mean}, {"cdf", result.drain->cdf}};
  // The whole computation, with its parts beside it (evaluation_json gave the stationary part).
  j["seconds"] = result.seconds;
  j["seconds_stationary"] = result.seconds_stationary;
  j["seconds_sojourn"] = result.seconds_sojourn;
  if (result.periodic) {
    j["rhythm"] = rhythm_json(*request.model.rhythm, *result.periodic);
    const std::vector<model::ControlPolicy>& policies = result.piece_policies;
    j["pieces"] = pieces_json(*result.periodic, policies);
    if (policies.size() > 1) {
      nlohmann::json by_piece = nlohmann::json::array();
      for (const model::ControlPolicy& p : policies) by_piece.push_back(control_policy_json(p));
      j["policy"] = {{"by_piece", std::move(by_piece)}};
    }
    j["seconds_periodic"] = result.seconds_periodic;
  }
  if (result.transient || result.drain) j["seconds_transient"] = result.seconds_transient;
  if (request.sensitivity || request.sensitivity_rates) {
    nlohmann::json rows = nlohmann::json::array();
    for (const validation::Sensitivity& s : result.sensitivity)
      rows.push_back({{"parameter", s.parameter},
                      {"measure", s.measure},
                      {"derivative", s.derivative},
                      {"elasticity", s.elasticity ? nlohmann::json(*s.elasticity) : nullptr}});
    j["sensitivity"] = std::move(rows);
    j["seconds_sensitivity"] = result.seconds_sensitivity;
  }
  if (result.ensemble) {
    j["ensemble"] = *result.ensemble;
    j["seconds_ensemble"] = result.seconds_ensemble;
  }
  return j;
}

}  // namespace crawlq::api
