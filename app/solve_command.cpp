#include "app/solve_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <thread>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/table_summary.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "analytic/transient/transient_analysis.hpp"
#include "api/json_output.hpp"
#include "api/solve_request.hpp"
#include "api/state_table.hpp"
#include "app/command_support.hpp"
#include "app/figure_output.hpp"
#include "app/measure_words.hpp"
#include "app/periodic_figure.hpp"
#include "app/progress_line.hpp"
#include "app/request_flag.hpp"
#include "app/simulation_flags.hpp"
#include "app/transient_flags.hpp"
#include "model/measure_list.hpp"
#include "model/number_text.hpp"
#include "model/thread_count.hpp"
#include "model/time_unit.hpp"
#include "output/gnuplot_figure.hpp"
#include "output/output_file.hpp"

namespace crawlq::app {

namespace {

struct SolveOptions {
  std::string file;
  PolicyFlags policy;
  std::string method = "auto";
  int threads = 0;
  std::string export_csv;
  std::string transforms;  // --lst u1,u2
  std::string cdf_points;  // --cdf x1,x2
  TransientFlags transient;
  std::optional<int> drain_to;
  std::string plot;  // FILE.svg: the transient's curves beside their long-run levels
  bool sojourn = false;
  bool sensitivity = false;
  bool sensitivity_rates = false;
  bool full_chain = false;
  std::string ensemble;  // a set of models each solved under the policy (api/ensemble.hpp)
  bool json = false;
  std::string request;  // --request FILE: the fields as a document
};

// The chain's states, and those solved where the clock's phases were left out.
std::string states_text(const api::SolveResult& result, const model::Model& scenario_model) {
  const Eigen::Index solved = result.evaluation.stationary.probabilities.size();
  if (!result.lumping) return fmt::format("{} states", solved);
  return fmt::format(
      "{} states, {} solved: every clock phase exits at rate {:.6g} {}, so the phases change no "
      "answer (--full-chain keeps them)",
      api::chain_states_text(scenario_model, result.lumping->states_full), solved,
      result.lumping->rate, model::per_time_unit(scenario_model.time_unit));
}

void print_table(const scenarios::Scenario& scenario, const SolveOptions& o,
                 const api::SolveResult& result) {
  const analytic::PolicyEvaluation& e = result.evaluation;
  const auto& m = e.measures;
  const auto& s = e.stationary.summary;
  const auto& model = scenario.model;
  fmt::print("{} ({}): K = {}, {}, {}\n", model.name.empty() ? "scenario" : model.name, o.file,
             model.capacity, model::counted(model.modes(), "mode"), states_text(result, model));
  // The robots column: a level map's robots, a phase-aware row by arrival phase, a memory row by
  // the mode in force.
  std::function<std::string(int)> robots_at;
  if (result.piece_policies.size() > 1) {
    fmt::print("policy: by piece of the rhythm (each piece's below)");
    robots_at = [](int) { return std::string("-"); };
  } else {
    std::visit(
        model::Overloaded{
            [&](const model::Policy& levels) {
              fmt::print("policy: {}", policy_words(levels));
              robots_at = [&levels](int i) { return std::to_string(levels.robots(i)); };
            },
            [&](const model::PhaseAwarePolicy& table) {
              fmt::print("policy: phase-aware (robots by level, one column per arrival phase)");
              robots_at = [&table](int i) {
                return fmt::format("{}", fmt::join(table.robots[i], "/"));
              };
            },
            [&](const model::HysteresisPolicy& h) {
              fmt::print("policy: hysteresis, {} robots until level {}, then {} until level {}",
                         h.high, h.switch_off, h.low, h.switch_on);
              robots_at = [](int) { return std::string("-"); };
            },
            [&](const model::MemoryPolicy& memory) {
              fmt::print(
                  "policy: memory (the next mode on reaching a level, one column per mode in force)");
              robots_at = [&memory](int i) {
                return fmt::format("{}", fmt::join(memory.next[i], "/"));
              };
            },
            [&](const model::TablePolicy& table) {
              const auto summary = std::make_shared<analytic::TableSummary>(
                  analytic::summarize_table(analytic::StateSpace(model), table.robots,
                                            model.modes(), &e.stationary.probabilities));
              fmt::print(
                  "policy: full-state table {} (by level, one column per arrival phase: the robots of "
                  "most of the probability{})",
                  table.source, summary->phase_aware() ? "" : ", * where some states differ");
              robots_at = [summary](int i) {
                std::string text;
                for (std::size_t nu = 0; nu < summary->robots[i].size(); ++nu)
                  text += fmt::format("{}{}{}", nu ? "/" : "", summary->robots[i][nu],
                                      summary->share[i][nu] < 1 ? "*" : "");
                return text;
              };
            }},
        e.policy);
  }
  if (result.periodic) {
    const model::Rhythm& rhythm = *model.rhythm;
    fmt::print(
        "\narrivals follow a rhythm: a period of {} {} in {} pieces; the long run is periodic.\n"
        "The distribution at the period's start maps to itself after {} periods (residual "
        "||xM - x||_1 = {:.2e}),\nstarted from the mean arrivals' long run ({}); {:.3g} s in all: "
        "{:.3g} s the periods, {:.3g} s the sojourn times\n\nthe period's averages "
        "(probabilities: expected pages over expected pages offered)\n",
        rhythm.period, model::time_unit_plural(model.time_unit), rhythm.pieces(), s.iterations,
        s.residual, analytic::method_name(s.method), result.seconds, result.seconds_periodic,
        result.seconds_sojourn);
  } else {
    fmt::print(
        "\nsolved by {}, residual ||pQ||_1 = {:.2e}; {:.3g} s in all: {:.3g} s the stationary "
        "solve, {:.3g} s the sojourn times{}\n\n",
        analytic::method_name(s.method), s.residual, result.seconds, result.seconds_stationary,
        result.seconds_sojourn,
        result.transient || result.drain
            ? fmt::format(", {:.3g} s the transient", result.seconds_transient)
            : std::string());
  }
  for (const auto& measure : model::scalar_measures<double>()) {
    const std::string unit = model::measure_unit_words(measure.name.unit, model.time_unit);
    fmt::print("  {:<34} {:<10} {:>12.6g}{}\n", measure.name.description, measure.name.symbol,
               m.*measure.field, unit.empty() ? "" : "  " + unit);
  }
  // A long buffer's table would run to K lines: the first levels, the rest in --json or --export.
  constexpr int kLevelsShown = 40;
  fmt::print("\n  level  robots  probability\n");
  for (int i = 0; i <= std::min(model.capacity, kLevelsShown); ++i)
    fmt::print("  {:>5}  {:>6}  {:>11.6f}\n", i, robots_at(i), m.level_probabilities[i]);
  if (model.capacity > kLevelsShown)
    fmt::print("  ... {} more levels, holding probability {:.3g} (all of them in --json)\n",
               model.capacity - kLevelsShown,
               std::accumulate(m.level_probabilities.begin() + kLevelsShown + 1,
                               m.level_probabilities.end(), 0.0));
  fmt::print("\n  robots  probability\n");
  for (int r = 1; r <= model.modes(); ++r)
    fmt::print("  {:>6}  {:>11.6f}\n", r, m.mode_probabilities[r - 1]);
}

// A piece's policy in a table's column: a threshold vector, a level map, or the form's name.
std::string piece_policy_words(const model::ControlPolicy& policy) {
  if (const auto* levels = std::get_if<model::Policy>(&policy)) {
    if (const auto thresholds = levels->thresholds())
      return fmt::format("thresholds {}", fmt::join(*thresholds, ","));
    return fmt::format("levels {}", fmt::join(levels->levels(), " "));
  }
  return model::policy_kind(policy);
}

// Each piece of a rhythm's period: its averages, and what becomes of the pages offered during it.
void print_pieces(const model::Model& model, const api::SolveResult& result) {
  const analytic::PeriodicRegime& regime = *result.periodic;
  const std::vector<model::ControlPolicy>& policies = result.piece_policies;
  const std::string time = model::measure_unit_words(model::MeasureUnit::kTime, model.time_unit);
  fmt::print(
      "\nthe period piece by piece: each piece's averages, and of the pages offered during it the "
      "share lost,\nlater served and gone stale (their mean sojourn V(1) if served); starts and V(1) "
      "in {}\n\n",
      time);
  fmt::print("  {:>9}  {:>6}  {:>9}  {:>7}  {:>7}  {:>7}  {:>6}  {:>9}  {:>9}  {:>9}{}\n", "start",
             "scale", "lambda", "lost", "served", "stale", "N_act", "in system", "V(1)", "J",
             policies.size() > 1 ? "  policy" : "");
  for (std::size_t i = 0; i < regime.pieces.size(); ++i) {
    const analytic::PeriodicPiece& piece = regime.pieces[i];
    const analytic::Measures& m = piece.measures;
    fmt::print(
        "  {:>9.4g}  {:>6.3g}  {:>9.4g}  {:>7.4f}  {:>7.4f}  {:>7.4f}  {:>6.3f}  {:>9.4g}  {:>9.4g}  "
        "{:>9.4g}{}\n",
        piece.start, piece.scale, m.lambda, m.p_loss, piece.served_by_arrival,
        piece.obsolete_by_arrival, m.mean_active_robots, m.mean_in_system, m.mean_sojourn_served,
        m.cost,
        policies.size() > 1 ? "  " + piece_policy_words(policies[i % policies.size()]) : "");
  }
}

void print_transient(const api::SolveRequest& request, const analytic::TransientResult& transient,
                     const analytic::Measures& long_run) {
  const std::string& unit = request.model.time_unit;
  const std::string outage =
      request.outage > 0 ? fmt::format(", the indexer stopped during [0, {:g})", request.outage)
                         : std::string();
  fmt::print(
      "\n  over time from {}{}\n  (t in {}, the loss rate in pages {}; counts are expected pages "
      "since 0;\n  each distribution within {:.1e} of the exact one, by {})\n",
      analytic::kTransientStartNames.name(request.from), outage, model::time_unit_plural(unit),
      model::per_time_unit(unit), transient.truncation_error,
      transient.method == analytic::TransientMethod::kKrylov ? "Krylov steps" : "uniformisation");
  // Under 90 columns; the pages waiting and the rates of the other fates are in --json.
  fmt::print("  {:>8} {:>8} {:>9} {:>7} {:>9} {:>9} {:>9} {:>9} {:>11}\n", "t", "P(empty)",
             "in system", "robots", "loss rate", "lost", "obsolete", "served", "cost so far");
  for (const analytic::TransientPoint& p : transient.points)
    fmt::print(
        "  {:>8.4g} {:>8.5f} {:>9.4f} {:>7.3f} {:>9.4g} {:>9.4g} {:>9.4g} {:>9.4g} {:>11.5g}\n",
        p.t, p.p_empty, p.mean_in_system, p.mean_active_robots, p.loss_rate, p.lost, p.obsolete,
        p.served, p.cost_accumulated);
  const analytic::TransientPoint& last = transient.points.back();
  fmt::print(
      "\n  by t = {}, beyond the long run's rates: {:.4g} pages lost, {:.4g} made obsolete\n",
      model::duration_text(last.t, unit), last.lost - long_run.lambda * long_run.p_loss * last.t,
      last.obsolete - long_run.lambda * long_run.p_obsolete * last.t);
}

// Pages in the system against time with its long-run level (left axis), and the pages lost and
// made obsolete since the start with the long run's rates times t (right axis).
output::Figure transient_figure(const model::Model& model, const api::SolveRequest& request,
                                const analytic::TransientResult& transient,
                                const analytic::Measures& long_run) {
  const std::string start = request.from_file.empty()
                                ? std::string(analytic::kTransientStartNames.name(request.from))
                                : request.from_file;
  output::Figure f = output::make_figure(
      fmt::format("{}: from {}{}", model.name.empty() ? "scenario" : model.name, start,
                  request.outage > 0
                      ? fmt::format(", the indexer stopped during [0, {:g})", request.outage)
                      : std::string()),
      fmt::format("time since the start ({})", model::time_unit_plural(model.time_unit)),
      "pages in the system (mean)");
  f.y2_label = "pages since the start (expected)";
  f.key_below = true;
  f.height = 560;
  const double first = transient.points.front().t, last = transient.points.back().t;
  output::Series in_system =
      output::make_series("in the system", output::SeriesStyle::kLines, 1, 1);
  output::Series in_system_long_run =
      output::make_series("in the system, long run", output::SeriesStyle::kLines, 1, 5);
  output::Series lost = output::make_series("lost", output::SeriesStyle::kLines, 2, 2);
  output::Series lost_long_run =
      output::make_series("lost at the long run's rate", output::SeriesStyle::kLines, 2, 6);
  output::Series obsolete = output::make_series("made obsolete", output::SeriesStyle::kLines, 2, 3);
  output::Series obsolete_long_run =
      output::make_series("obsolete at the long run's rate", output::SeriesStyle::kLines, 2, 7);
  for (const analytic::TransientPoint& p : transient.points) {
    in_system.x.push_back(p.t);
    in_system.y.push_back(p.mean_in_system);
    lost.x.push_back(p.t);
    lost.y.push_back(p.lost);
    obsolete.x.push_back(p.t);
    obsolete.y.push_back(p.obsolete);
  }
  in_system_long_run.x = {first, last};
  in_system_long_run.y = {long_run.mean_in_system, long_run.mean_in_system};
  lost_long_run.x = obsolete_long_run.x = {0.0, last};
  lost_long_run.y = {0.0, long_run.lambda * long_run.p_loss * last};
  obsolete_long_run.y = {0.0, long_run.lambda * long_run.p_obsolete * last};
  for (output::Series* s :
       {&in_system, &in_system_long_run, &lost, &lost_long_run, &obsolete, &obsolete_long_run})
    f.series.push_back(std::move(*s));
  return f;
}

// The elasticities, largest first: the percent change of a measure per percent change of a
// parameter. Pairs that do not move (a cost weight and any measure but the cost) are left out.
void print_sensitivity(const std::vector<validation::Sensitivity>& rows) {
  std::vector<const validation::Sensitivity*> moving;
  for (const validation::Sensitivity& s : rows)
    if (s.derivative != 0) moving.push_back(&s);
  const auto size = [](const validation::Sensitivity* s) {
    return s->elasticity ? std::abs(*s->elasticity) : 0.0;
  };
  std::stable_sort(moving.begin(), moving.end(),
                   [&](const auto* a, const auto* b) { return size(a) > size(b); });
  constexpr std::size_t kShown = 25;
  fmt::print(
      "\n  sensitivity: the percent change of each measure per percent change of the parameter\n"
      "  (elasticity; a scale multiplies its rates, as sweep --param does; a single rate moves\n"
      "  with its row's diagonal, a start entry with the others in proportion)\n");
  std::size_t width = 20;  // the longest parameter's name: a rate's path can be 30 characters
  for (std::size_t i = 0; i < std::min(kShown, moving.size()); ++i)
    width = std::max(width, moving[i]->parameter.size());
  fmt::print("  {:<{}} {:<24} {:>11} {:>13}\n", "parameter", width, "measure", "elasticity",
             "derivative");
  for (std::size_t i = 0; i < std::min(kShown, moving.size()); ++i) {
    const validation::Sensitivity& s = *moving[i];
    // The tables' symbol, or the words of a measure that has none ("P(level 2)" for an entry).
    std::string measure = measure_words(s.measure, "");
    for (const auto& m : model::scalar_measures<double>())
      if (m.name.key == s.measure)
        measure = std::string(m.name.symbol.empty() ? m.name.description : m.name.symbol);
    fmt::print("  {:<{}} {:<24} {:>11} {:>13.6g}\n", s.parameter, width, measure,
               s.elasticity ? fmt::format("{:.4f}", *s.elasticity) : "-", s.derivative);
  }
  if (moving.size() > kShown)
    fmt::print("  ... {} more pairs (every one in --json)\n", moving.size() - kShown);
}

// Each measure at this model beside its spread over the ensemble.
void print_measure_spread(const nlohmann::json& ensemble, const std::string& spec) {
  fmt::print(
      "\n  over the ensemble ({} models, {}): each measure of this model beside its spread\n",
      ensemble["members"].get<int>(), spec);
  fmt::print("  {:<22} {:>12} {:>12} {:>10} {:>12} {:>12}\n", "measure", "this model", "mean", "sd",
             "5%", "95%");
  const auto shown = [](const nlohmann::json& v) {
    return v.is_null() ? std::string("-") : fmt::format("{:.6g}", v.get<double>());
  };
  for (const auto& measure : model::scalar_measures<double>()) {
    const nlohmann::json& s = ensemble["measures"][std::string(measure.name.key)];
    fmt::print("  {:<22} {:>12} {:>12} {:>10} {:>12} {:>12}  {}\n", measure.name.key,
               shown(s["point"]), shown(s["mean"]), shown(s["sd"]), shown(s["low"]),
               shown(s["high"]), measure.name.description);
  }
}

void print_drain(const api::SolveRequest& request, const analytic::DrainResult& drain) {
  const std::string& unit = request.model.time_unit;
  fmt::print("\n  time from {} until the level first drops to {} or below: mean {}\n",
             analytic::kTransientStartNames.name(request.from), drain.level,
             model::duration_text(drain.mean, unit));
  for (std::size_t i = 0; i < drain.cdf.size(); ++i)
    fmt::print("  P(drained by t = {}) = {:.6f}\n", model::duration_text(request.times[i], unit),
               drain.cdf[i]);
}

api::SolveRequest flags_request(const SolveOptions& o, const scenarios::Scenario& scenario) {
  api::SolveRequest request{
      .source = o.file,
      .model = scenario.model,
      .policy = chosen_policy(scenario, o.policy, o.file),
      .method = method_option(o.method),
      .threads = o.threads,
      .sojourn = o.sojourn,
      .transforms =
          o.transforms.empty() ? std::vector<double>{} : parse_numbers(o.transforms, "--lst"),
      .cdf_points =
          o.cdf_points.empty() ? std::vector<double>{} : parse_numbers(o.cdf_points, "--cdf"),
      .times = transient_times(o.transient),
      .outage = o.transient.outage,
      .drain_to = o.drain_to,
      .sensitivity = o.sensitivity,
      .sensitivity_rates = o.sensitivity_rates,
      .full_chain = o.full_chain,
      .ensemble = o.ensemble};
  // A start by name, or a file's (a distribution solve --export wrote, or a long run).
  if (analytic::kTransientStartNames.contains(o.transient.from))
    request.from = analytic::kTransientStartNames.parse(o.transient.from);
  else
    request.from_file = o.transient.from;
  // A policy given on the command line runs in every piece of a rhythm, in place of the file's.
  if (policy_given(o.policy)) request.model.piece_policies.clear();
  return request;
}

api::SolveRequest document_request(const SolveOptions& o, const CLI::App& command,
                                   const model::Model& model) {
  const nlohmann::json document =
      read_request_document(o.request, command, api::RequestKind::kSolve);
  return from_document(o.request, [&] {
    return api::solve_request(document, document_scenario(o.file, model), api::Caller::kDocument);
  });
}

int run(const SolveOptions& o, const CLI::App& command) {
  const scenarios::Scenario scenario = load(o.file);
  api::SolveRequest request =
      o.request.empty() ? flags_request(o, scenario) : document_request(o, command, scenario.model);
  // The vector written holds a probability for every state, the clock's phases included.
  if (!o.export_csv.empty()) request.full_chain = true;
  // Before the work: a figure of a transient needs its times.
  if (!o.plot.empty() && request.times.empty() && !request.model.rhythm)
    throw UsageError(fmt::format(
        "--plot {}: give --times or --until (the figure is of a transient, or of the period of a "
        "scenario with a rhythm)",
        o.plot));
  // A chain past a million states takes from seconds to minutes: said before the work starts.
  if (const analytic::MemoryEstimate need = api::check(request); need.states > api::kStatesToWarnOf)
    fmt::print(stderr, "crawlq: {}\n", api::large_solve_warning(o.file, need));
  ProgressLine progress("solve " + o.file, ProgressLine::wanted());
  request.stage = [&progress](const std::string& step) { progress.stage(step); };
  const api::SolveResult result = api::solve(request);
  progress.finish();
  const analytic::PolicyEvaluation& e = result.evaluation;
  if (!o.export_csv.empty()) {
    const Eigen::VectorXd& p = e.stationary.probabilities;
    api::write_state_table(o.export_csv, "--export " + o.export_csv,
                           analytic::chain_space(request.model, e.policy), "probability",
                           [&p](Eigen::Index x) { return fmt::format("{:.17g}", p(x)); });
  }
  std::string plotted;
  if (!o.plot.empty()) {
    plotted = result.periodic
                  ? plot_to(periodic_figure(request.model, *result.periodic), o.plot)
                  : plot_to(transient_figure(request.model, request, *result.transient, e.measures),
                            o.plot);
  }
  if (o.json) {
    std::cout << api::to_json(request, result).dump(2) << '\n';
    return 0;
  }
  print_table(scenario, o, result);
  if (result.periodic) print_pieces(scenario.model, result);
  const std::string& unit = request.model.time_unit;
  if (result.sojourn) {
    fmt::print("\n  sojourn times in {}\n", model::time_unit_plural(unit));
    fmt::print(
        "  fate           probability        mean          sd      median         90%         99%\n");
    for (std::size_t f = 0; f < api::kFates.size(); ++f) {
      const api::FateLaw& law = (*result.sojourn)[f];
      const char* name = api::fate_name(api::kFates[f]);
      if (!law.median) {
        fmt::print("  {:<12} {:>12.6g}   (no such pages)\n", name, 0.0);
        continue;
      }
      fmt::print("  {:<12} {:>12.6g} {:>11.5g} {:>11.5g} {:>11.5g} {:>11.5g} {:>11.5g}\n", name,
                 law.probability, law.mean, law.sd, *law.median, *law.p90, *law.p99);
    }
  }
  const std::vector<double>& transforms = request.transforms;
  const std::vector<double>& points = request.cdf_points;
  const std::vector<std::array<double, 3>>& cdf_values = result.cdf;
  if (!transforms.empty()) {
    fmt::print("\n  Laplace-Stieltjes transform v(u) (Theorem 4), conditional on the fate; u {}\n",
               model::per_time_unit(unit));
    fmt::print("  {:>10} {:>12} {:>12} {:>12}\n", "u", "accepted", "served", "obsolete");
    for (std::size_t i = 0; i < transforms.size(); ++i)
      fmt::print("  {:>10.4g} {:>12.8f} {:>12.8f} {:>12.8f}\n", transforms[i],
                 result.transforms[i][0], result.transforms[i][1], result.transforms[i][2]);
  }
  if (!points.empty()) {
    fmt::print("\n  P(sojourn <= x), conditional on the fate; x in {}\n",
               model::time_unit_plural(unit));
    fmt::print("  {:>10} {:>12} {:>12} {:>12}\n", "x", "accepted", "served", "obsolete");
    for (std::size_t i = 0; i < points.size(); ++i)
      fmt::print("  {:>10.4g} {:>12.8f} {:>12.8f} {:>12.8f}\n", points[i], cdf_values[i][0],
                 cdf_values[i][1], cdf_values[i][2]);
  }
  if (result.sojourn_method == "krylov")
    fmt::print(
        "\n  quantiles and distribution functions by Krylov steps: a state jumps far more often "
        "than\n  a page stays, too often for uniformisation\n");
  if (result.transient) print_transient(request, *result.transient, e.measures);
  if (result.drain) print_drain(request, *result.drain);
  if (request.sensitivity || request.sensitivity_rates) print_sensitivity(result.sensitivity);
  if (result.ensemble) print_measure_spread(*result.ensemble, request.ensemble);
  if (!o.export_csv.empty()) fmt::print("\nstationary vector written to {}\n", o.export_csv);
  if (!plotted.empty()) fmt::print("\n{}\n", plotted);
  return 0;
}

}  // namespace

std::function<int()> add_solve_command(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "solve",
      "Exact stationary measures of one policy: loss, obsolescence, starvation, robots, sojourn "
      "times and the cost (2); with --times, the same over time from a start, through an outage of "
      "the indexer or back to a level. A scenario whose arrivals follow a rhythm (`rhythm: {period: "
      "24, scales: [...]}`) has a periodic long run: its averages over the period and over each "
      "piece.\nExamples: crawlq solve paper-example-1 --thresholds "
      "-1,2,2 --sojourn\n          crawlq solve paper-example-1 --from stationary --outage 2 "
      "--times 1,2,4,8");
  add_scenario_argument(cmd, o->file);
  add_policy_flags(cmd, o->policy);
  cmd->add_option("--method", o->method, analytic::method_help())->capture_default_str();
  add_threads_option(
      cmd, o->threads,
      "threads inside the iterative solve (0: all cores; fewer while other programs hold some); "
      "the numbers are the same for any count");
  cmd->add_flag(
      "--sojourn", o->sojourn,
      "sojourn times of accepted, served and obsolete pages: mean, sd, median, 90% and 99%");
  cmd->add_flag("--sensitivity", o->sensitivity,
                "how much each measure moves with each parameter group (arrival-scale, "
                "arrival-scale:r, service-scale, obsolescence-scale, costs.KEY, and capacity for "
                "a level map: a page more and one less): elasticities, largest first; "
                "derivatives too in --json");
  cmd->add_flag("--sensitivity-rates", o->sensitivity_rates,
                "the same by every rate of the laws, one at a time: each nonzero rate of each "
                "D_k (arrivals.modes[r-1].D[k][u][v]), of S and Gamma off the diagonal "
                "(service.S[u][v]) and of their exits (service.exit[u]), each moved with its row's "
                "diagonal, and each entry of beta and gamma (service.beta[u]), moved with the "
                "others lowered in proportion; by adjoint, one solve per measure, so a model with "
                "many rates costs little more; a policy by levels, phases or memory");
  cmd->add_flag("--full-chain", o->full_chain,
                "keep every phase of the obsolescence clock in the chain even where each exits at "
                "one rate: the clock is then exponential and the chain lumps onto (level, arrival "
                "phase, service phase) with the same answers on far fewer states (the paper's "
                "first example: 22 states in place of 126); --export, a start or a policy given "
                "state by state and --sensitivity-rates keep them anyway");
  cmd->add_option("--ensemble", o->ensemble,
                  "DIR or FILE,FILE,...: solve each of a set of models (the refits fit arrivals "
                  "--bootstrap B --out DIR writes in DIR/bootstrap) under this policy: every "
                  "measure's spread beside this model's");
  cmd->add_option("--lst", o->transforms,
                  "u1,u2,...: Laplace-Stieltjes transforms v(u) (Theorem 4)");
  cmd->add_option("--cdf", o->cdf_points,
                  "x1,x2,...: sojourn distribution functions at these times");
  cmd->add_option(
      "--export", o->export_csv,
      "FILE.csv: the stationary vector, one row per state (level, phases, probability)");
  add_transient_flags(cmd, o->transient,
                      "where --times start: empty (no pages), full (K pages), stationary (the "
                      "policy's long run), or FILE: a distribution solve --export wrote (.csv), or "
                      "the long run of another scenario (its policy) or of a policy file, over the "
                      "same states");
  cmd->add_option("--plot", o->plot,
                  "FILE.svg: with --times, the pages in the system and the pages lost and made "
                  "obsolete since the start against time, beside their long-run levels; on a "
                  "scenario with a rhythm, each piece's measures over the period (gnuplot)");
  cmd->add_option("--drain-to", o->drain_to,
                  "x: the time from the start until the level first drops to x or below (its "
                  "mean, and its distribution function at --times)");
  add_request_option(cmd, o->request, api::RequestKind::kSolve);
  cmd->add_flag("--json", o->json, "machine output on stdout (keys of interface.md)");
  return [cmd, o] { return cmd->parsed() ? run(*o, *cmd) : -1; };
}

}  // namespace crawlq::app
