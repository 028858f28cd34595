#include "app/validate_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <ranges>
#include <string_view>

#include "analytic/stationary/policy_forms.hpp"
#include "api/json_output.hpp"
#include "api/simulate_request.hpp"
#include "api/simulation_choices.hpp"
#include "api/validate_request.hpp"
#include "app/command_support.hpp"
#include "app/measure_words.hpp"
#include "app/progress_line.hpp"
#include "app/request_flag.hpp"
#include "app/simulation_flags.hpp"
#include "app/transient_flags.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::app {

namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  PolicyFlags policy;
  SimulationFlags simulation;
  TransientFlags transient;
  std::string simulator_file;  // the simulator runs this file's model instead (same policy)
  bool json = false;
  bool full_chain = false;  // the exact side keeps every clock phase where they would lump
  std::string request;      // --request FILE: the policy and the settings as a document
};

// One file, loaded and checked before anything runs, so that bad input leaves no partial output.
struct ValidationCase {
  std::string file;
  scenarios::Scenario scenario;
  model::ControlPolicy policy;
  std::string exact_absent;  // why the exact engine cannot run, empty when it can
  double horizon = 0;        // --horizon, or the default at the pace the simulated system keeps
};

std::string number(double v) {
  return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string(v > 0 ? "inf" : "-inf");
}

constexpr int kNameWidth = 40;

void print_row(const std::string& name, const validation::MeasureVerdict& v) {
  const std::string simulated =
      fmt::format("{:.6g} +- {:.2g}", v.simulated.mean, v.simulated.half_width);
  fmt::print("  {:<{}} {:>12}  {:>22}  {:>6}  {}\n", name, kNameWidth,
             v.exact ? number(*v.exact) : "-", simulated,
             v.exact ? (std::isfinite(v.z) ? fmt::format("{:.2f}", v.z) : number(v.z)) : "-",
             v.unseen ? "agrees: none seen, as is likely" : validation::verdict_name(v.verdict));
}

// Each group's verdict with the largest |z|, the groups in the order they first come; a verdict
// whose group is empty is left out.
std::vector<const validation::MeasureVerdict*> worst_of_groups(
    const std::vector<validation::MeasureVerdict>& measures,
    const std::function<std::string(const validation::MeasureVerdict&)>& group_of) {
  std::vector<std::pair<std::string, const validation::MeasureVerdict*>> worst_of;
  for (const auto& v : measures) {
    const std::string group = group_of(v);
    if (group.empty()) continue;
    auto found = std::find_if(worst_of.begin(), worst_of.end(),
                              [&](const auto& w) { return w.first == group; });
    if (found == worst_of.end()) found = worst_of.insert(worst_of.end(), {group, nullptr});
    if (!found->second || std::abs(v.z) > std::abs(found->second->z)) found->second = &v;
  }
  std::vector<const validation::MeasureVerdict*> worst;
  for (const auto& w : worst_of) worst.push_back(w.second);
  return worst;
}

// Under `heading`, every verdict that disagrees among those `label_of` names (an empty label
// leaves one out).
void print_disagreements(
    const std::vector<validation::MeasureVerdict>& measures, std::string_view heading,
    const std::function<std::string(const validation::MeasureVerdict&)>& label_of) {
  bool header = false;
  for (const auto& v : measures) {
    if (v.verdict != validation::Verdict::kDiffers) continue;
    const std::string label = label_of(v);
    if (label.empty()) continue;
    if (!header) fmt::print("\n  {}\n", heading);
    header = true;
    print_row(label, v);
  }
}

// A transient's comparison, curve by curve: each key's worst time (the largest |z|), and every
// time at which a value disagrees (all of them in --json).
void print_curves(const validation::EngineComparison& r, std::string_view unit) {
  const auto at_time = [&](const validation::MeasureVerdict& v) {
    return fmt::format("{}, at {:g}", measure_words(v.name, unit), *v.t);
  };
  const auto worst = worst_of_groups(r.measures, [](const validation::MeasureVerdict& v) {
    return v.name.starts_with("level_probabilities") ? std::string("level_probabilities") : v.name;
  });
  fmt::print(
      "\n  each curve at its worst time (largest |z|); the rates are averages over the "
      "stretch since the previous time\n");
  fmt::print("  {:<{}} {:>12}  {:>22}  {:>6}  {}\n",
             fmt::format("curve, at t ({})", model::time_unit_plural(unit)), kNameWidth, "exact",
             "simulated (95%)", "z", "verdict");
  for (const validation::MeasureVerdict* v : worst) print_row(at_time(*v), *v);
  print_disagreements(r.measures, "every value that disagrees:", at_time);
}

// Under a rhythm, the pieces' values after the period's: each measure at its worst piece (the
// largest |z|), and every piece value that disagrees (all of them in --json).
void print_pieces(const validation::EngineComparison& r, const model::Model& m) {
  const auto worst = worst_of_groups(r.measures, [](const validation::MeasureVerdict& v) {
    return v.piece ? v.name : std::string();
  });
  if (worst.empty()) return;
  const auto values = std::count_if(r.measures.begin(), r.measures.end(),
                                    [](const auto& v) { return v.piece.has_value(); });
  const std::string unit = model::time_unit_plural(m.time_unit);
  // Short names, so that a row keeps to the table's columns: the paper's symbol where it has one.
  const auto piece_name = [&](const validation::MeasureVerdict& v) {
    if (!v.piece) return std::string();
    std::string label = v.name == "p_served_by_arrival"     ? "offered, later served"
                        : v.name == "p_obsolete_by_arrival" ? "offered, later stale"
                                                            : measure_words(v.name, m.time_unit);
    for (const auto& measure : model::scalar_measures<double>())
      if (measure.name.key == v.name && !measure.name.symbol.empty())
        label = std::string(measure.name.symbol);
    return fmt::format("{}, piece at {:g}", label, m.rhythm->piece_start(*v.piece));
  };
  fmt::print(
      "\n  the {} pieces of the rhythm ({} values): each measure at its worst piece (largest "
      "|z|); starts in {}\n",
      m.rhythm->pieces(), values, unit);
  for (const validation::MeasureVerdict* v : worst) print_row(piece_name(*v), *v);
  print_disagreements(r.measures, "every piece value that disagrees:", piece_name);
}

void print_comparison(const ValidationCase& c, const api::ValidateResult& result,
                      const std::string& simulated_file) {
  const validation::EngineComparison& r = result.comparison;
  const nlohmann::json& replayed = result.replayed_arrivals;
  const model::Model& m = c.scenario.model;
  fmt::print("{} ({}): K = {}, {}\npolicy: {}\n", m.name.empty() ? "scenario" : m.name, c.file,
             m.capacity, model::counted(m.modes(), "mode"), policy_words(m, c.policy));
  if (!simulated_file.empty()) fmt::print("  the simulator runs the model of {}\n", simulated_file);
  if (!replayed.is_null())
    fmt::print(
        "  the simulator replays {} ({} batches, {:.0f} pages over {}) in place of the arrival "
        "law: a disagreement is the fitted law's error, not the simulation's\n",
        replayed["log"].get<std::string>(), replayed["batches"].get<std::size_t>(),
        replayed["pages"].get<double>(),
        model::duration_text(replayed["length"].get<double>(), m.time_unit));
  fmt::print(
      "  {} replications, {} events in {:.3g} s ({:.3g} s in all, with the exact engine and "
      "the pilot runs){}\n",
      r.replications, r.events, r.seconds_replications, r.seconds,
      r.precise ? "" : " (the precision was not reached within the time limit)");
  if (!c.exact_absent.empty()) {
    fmt::print("  no exact value: {}\n", c.exact_absent);
  } else {
    if (const auto& lumped = result.lumping)
      fmt::print(
          "  the exact engine solved {} states in place of {}: every phase of the obsolescence "
          "clock exits at rate {:.6g} {}, so the phases change no measure (--full-chain keeps "
          "them)\n",
          api::chain_states_text(m, lumped->states_solved),
          api::chain_states_text(m, lumped->states_full), lumped->rate,
          model::per_time_unit(m.time_unit));
    fmt::print(
        "  a measure disagrees when |z| > {:.2f} (Student t, 1% over {} measures, Bonferroni)\n",
        r.z_bound, r.measures.size());
  }
  if (!r.measures.empty() && r.measures.front().t) {
    print_curves(r, m.time_unit);
  } else {
    fmt::print("\n  {:<{}} {:>12}  {:>22}  {:>6}  {}\n", "measure", kNameWidth, "exact",
               "simulated (95%)", "z", "verdict");
    for (const auto& v : r.measures)
      if (!v.piece) print_row(measure_words(v.name, m.time_unit), v);
    print_pieces(r, m);
  }
  int differ = 0;
  for (const auto& v : r.measures) differ += v.verdict == validation::Verdict::kDiffers;
  if (!c.exact_absent.empty())
    fmt::print("  => simulated only\n\n");
  else if (differ == 0)
    fmt::print("  => all {} measures agree\n\n", r.measures.size());
  else
    fmt::print("  => {} of {} measures DISAGREE\n\n", differ, r.measures.size());
}

int run(const ValidateOptions& o, const CLI::App& command) {
  const std::optional<SimulationDocument> document =
      o.request.empty()
          ? std::nullopt
          : std::make_optional<SimulationDocument>(o.request, command, api::RequestKind::kValidate);
  validation::SimulationSettings settings =
      document ? document->settings() : simulation_settings(o.simulation, &o.transient);
  if (!document) settings.full_chain = o.full_chain;
  std::vector<ValidationCase> cases;
  for (const auto& file : o.files) {
    scenarios::Scenario scenario = load(file);
    model::ControlPolicy policy =
        document ? document->policy(file, scenario.model) : chosen_policy(scenario, o.policy, file);
    // A policy given runs in every piece of a rhythm, in place of the file's by-piece ones.
    if (document ? document->gives_policy() : policy_given(o.policy))
      scenario.model.piece_policies.clear();
    std::string absent = api::exact_engine_absence(scenario.model, policy, settings);
    cases.push_back({file, std::move(scenario), std::move(policy), std::move(absent)});
  }
  std::optional<scenarios::Scenario> simulated_scenario;
  if (!o.simulator_file.empty()) {
    simulated_scenario = load(o.simulator_file);
    const model::Model& other = simulated_scenario->model;
    for (const auto& c : cases) {
      if (other.capacity != c.scenario.model.capacity || other.modes() != c.scenario.model.modes())
        throw UsageError(
            fmt::format("--simulator-file {}: K = {} and {} modes, but {} has K = {} and {} modes",
                        o.simulator_file, other.capacity, other.modes(), c.file,
                        c.scenario.model.capacity, c.scenario.model.modes()));
      // The policy is the one of FILE (or the flags): a table by arrival phase must fit both
      // models.
      if (const auto* table = std::get_if<model::PhaseAwarePolicy>(&c.policy);
          table && static_cast<int>(table->robots.front().size()) != other.arrivals.phases())
        throw UsageError(fmt::format(
            "--simulator-file {}: {} arrival phases, but the phase-aware policy of {} has {}",
            o.simulator_file, other.arrivals.phases(), c.file, table->robots.front().size()));
    }
  }

  // Every run's length checked before any runs, so that a file late in the list cannot waste the
  // time of those before it.
  // The pilot that measures the pace also gives the default horizon, so it runs once a file.
  // A transient runs to its last time: it has no horizon, and is checked where it runs.
  for (auto& c : cases) {
    if (!settings.times.empty()) break;
    const model::Model& simulated_model =
        simulated_scenario ? simulated_scenario->model : c.scenario.model;
    c.horizon = api::validation_horizon(simulated_model, c.policy, settings, c.file);
  }

  nlohmann::json all = nlohmann::json::array();
  api::ValidateSummary summary;
  // Each file's simulation takes up to --time-limit: the line counts the files and, after the
  // first, estimates the time left.
  ProgressLine progress("validate", ProgressLine::wanted());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ValidationCase& c = cases[i];
    progress.stage(c.file);
    if (i > 0)
      progress.done(static_cast<double>(i), static_cast<double>(cases.size()), "files done");
    validation::SimulationSettings resolved = settings;
    if (settings.times.empty()) resolved.horizon = c.horizon;
    const api::ValidateRequest request{
        .source = c.file,
        .model = c.scenario.model,
        .policy = c.policy,
        .settings = resolved,
        .simulated_model = simulated_scenario
                               ? std::optional<model::Model>(simulated_scenario->model)
                               : std::nullopt,
        .exact_absent = c.exact_absent};
    const api::ValidateResult result = api::validate(request);
    progress.pause();
    summary.count(result);
    if (o.json)
      all.push_back(api::to_json(request, result));
    else
      print_comparison(c, result, o.simulator_file);
  }
  progress.finish();
  if (o.json) {
    std::cout << api::to_json(all, summary).dump(2) << '\n';
  } else {
    fmt::print("{} scenario{}: {} agree, {} disagree, {} simulated only\n", cases.size(),
               cases.size() == 1 ? "" : "s", summary.agree, summary.differ, summary.simulated_only);
  }
  return summary.agrees() ? static_cast<int>(ExitCode::kOk) : static_cast<int>(ExitCode::kFailed);
}

}  // namespace

std::function<int()> add_validate_command(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Both engines on each scenario: the exact value of every measure of `solve`, the simulator's\n"
      "estimate with its 95% interval, the z-score of the difference and a verdict. A scenario's\n"
      "measures are judged together (1% familywise, Bonferroni over the measures, Student t of the\n"
      "replications). Exit status 0: every measure agrees; 1: some measure disagrees; 2: bad input.\n"
      "Where the exact engine cannot run (a policy that looks at more than the level, a chain too\n"
      "large for memory) the simulation is shown alone.\n"
      "With --times, the two engines' transients from one start, curve by curve: every key at\n"
      "every time, judged together in the same way.\n"
      "Examples: crawlq validate scenarios/data/*.yaml\n"
      "          crawlq validate paper-example-1 --from full --times 0.5,1,2,4\n"
      "          crawlq validate paper-example-1 --simulator-file other-service.yaml");
  add_scenario_argument(cmd, o->files)->required();
  add_policy_flags(cmd, o->policy);
  add_simulation_flags(cmd, o->simulation);
  add_arrivals_log_flag(cmd, o->simulation);
  add_transient_flags(cmd, o->transient,
                      "where --times start: empty (no pages), full (K pages), stationary (the "
                      "long run: exact, and reached by a warm-up in the simulator), or FILE: the "
                      "long run of a policy file, this policy taking over at 0");
  cmd->add_option(
      "--simulator-file", o->simulator_file,
      "simulate this file's (or shipped scenario's) model instead (same K and modes): how far does an approximation, say "
      "an exponential law for a phase-type one, move the answer?");
  cmd->add_flag("--full-chain", o->full_chain,
                "the exact engine keeps every phase of the obsolescence clock even where each "
                "phase exits at one rate and the chain lumps onto far fewer states with the same "
                "measures: to check the full chain against the simulator");
  add_request_option(cmd, o->request, api::RequestKind::kValidate);
  cmd->add_flag("--json", o->json, "machine output on stdout");
  return [cmd, o] { return cmd->parsed() ? run(*o, *cmd) : -1; };
}

}  // namespace crawlq::app
