#include "app/simulate_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "api/compare_request.hpp"
#include "api/json_output.hpp"
#include "api/sample_path_request.hpp"
#include "api/simulate_request.hpp"
#include "app/command_support.hpp"
#include "app/figure_output.hpp"
#include "app/measure_words.hpp"
#include "app/progress_line.hpp"
#include "app/request_flag.hpp"
#include "app/simulation_flags.hpp"
#include "app/transient_flags.hpp"
#include "model/measure_list.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"
#include "model/transient_keys.hpp"
#include "output/output_file.hpp"
#include "processes/process_replications.hpp"
#include "sim/horizon.hpp"
#include "sim/replications.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_observer.hpp"
#include "sim/transient_replications.hpp"
#include "sim/warmup.hpp"
#include "validation/sample_path_figure.hpp"

namespace crawlq::app {

using processes::ProcessGroup;
using processes::ProcessReplications;

namespace {

// The log replayed in place of the arrival law, when one was (--arrivals-log).
void print_replayed_log(const nlohmann::json& log, const std::string& time_unit) {
  if (log.is_null()) return;
  fmt::print(
      "arrivals: {} replayed in place of the scenario's law ({} batches, {:.0f} pages over {}; r "
      "robots replay it r times as fast)\n",
      log["log"].get<std::string>(), log["batches"].get<std::size_t>(), log["pages"].get<double>(),
      model::duration_text(log["length"].get<double>(), time_unit));
}

// A sample path is for reading and plotting: beyond this it is a disk filled by a typo in
// --horizon.
constexpr double kMostTraceBytes = 1024.0 * 1024 * 1024;

struct SimulateOptions {
  std::string file;
  PolicyFlags policy;
  SimulationFlags simulation;
  TransientFlags transient;
  std::string trace;    // FILE.csv: one sample path instead of replications
  std::string plot;     // FILE.svg: the sample path drawn
  std::string compare;  // "thresholds=a,b,c" or "levels=m0,...": policy B, simulated beside A
  bool json = false;
  std::string request;  // --request FILE: the policy and the settings as a document
};

void print_interval(std::string_view name, std::string_view symbol, const sim::Interval& i,
                    std::string_view unit = {}) {
  const std::string row = fmt::format("  {:<34} {:<10} {:>12.6g} +- {:<10.3g} {}", name, symbol,
                                      i.mean, i.half_width, unit);
  fmt::print("{}\n", row.substr(0, row.find_last_not_of(' ') + 1));
}

void print_measures(const model::MeasureSet<sim::Interval>& measures, std::string_view time_unit) {
  for (const auto& measure : model::scalar_measures<sim::Interval>())
    print_interval(measure.name.description, measure.name.symbol, measures.*measure.field,
                   model::measure_unit_words(measure.name.unit, time_unit));
}

// The served pages' sojourn as a text histogram: the 40 bins of --json taken four at a time, each
// a bar of its density (per unit time) with the interval's half-width.
void print_histogram(const sim::Histogram& h, std::string_view unit) {
  constexpr std::size_t kMerged = 4, kBarWidth = 40;
  if (h.density.size() < kMerged) return;
  std::vector<std::pair<double, double>> bins;  // density, half-width
  for (std::size_t b = 0; b + kMerged <= h.density.size(); b += kMerged) {
    double density = 0, half_width = 0;
    for (std::size_t k = b; k < b + kMerged; ++k)
      density += h.density[k].mean / kMerged, half_width += h.density[k].half_width / kMerged;
    bins.emplace_back(density, half_width);
  }
  double top = 0;
  for (const auto& [density, half_width] : bins) top = std::max(top, density);
  if (!(top > 0)) return;
  fmt::print("\n  sojourn of served pages ({}): density {}, 95% half-width\n",
             model::time_unit_plural(unit), model::per_time_unit(unit));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const auto [density, half_width] = bins[i];
    const auto bar = static_cast<std::size_t>(std::lround(kBarWidth * density / top));
    fmt::print("  {:>8.3g} - {:<8.3g} {:<40} {:.3g} +- {:.2g}\n", h.edges[i * kMerged],
               h.edges[(i + 1) * kMerged], std::string(bar, '#'), density, half_width);
  }
}

// Under a rhythm, each piece's estimates as solve prints them exactly: the piece's averages, and of
// the pages offered during it the share lost, later served and gone stale.
void print_pieces(const model::Rhythm& rhythm,
                  const std::vector<sim::PieceEstimate<sim::Interval>>& pieces,
                  std::string_view unit) {
  const auto cell = [](const sim::Interval& i) {
    return fmt::format("{:.4g} +- {:.2g}", i.mean, i.half_width);
  };
  fmt::print(
      "\n  the period piece by piece: each piece's averages, and of the pages offered during it "
      "the share\n  lost, later served and gone stale; starts and V(1) in {}\n\n",
      model::time_unit_plural(unit));
  fmt::print("  {:>9}  {:>6}  {:>18}  {:>18}  {:>18}  {:>18}  {:>18}\n", "start", "scale", "lost",
             "served", "stale", "N_act", "V(1)");
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const sim::PieceEstimate<sim::Interval>& p = pieces[i];
    fmt::print("  {:>9.4g}  {:>6.3g}  {:>18}  {:>18}  {:>18}  {:>18}  {:>18}\n",
               rhythm.piece_start(i), rhythm.scales[i], cell(p.p_loss), cell(p.p_served_by_arrival),
               cell(p.p_obsolete_by_arrival), cell(p.mean_active_robots),
               cell(p.mean_sojourn_served));
  }
}

// Policy B of --compare, "thresholds=a,b,c" or "levels=m0,m1,...".
model::Policy comparison_policy(const scenarios::Scenario& scenario, const std::string& spec,
                                const std::string& file) {
  PolicyFlags flags;
  const auto equals = spec.find('=');
  const std::string kind = spec.substr(0, equals),
                    values = equals == std::string::npos ? "" : spec.substr(equals + 1);
  if (kind == "thresholds")
    flags.thresholds = values;
  else if (kind == "levels")
    flags.levels = values;
  if (values.empty() || (kind != "thresholds" && kind != "levels"))
    throw UsageError(
        fmt::format("--compare: '{}': give thresholds=j1,...,j(N-1) or levels=m0,...,mK", spec));
  return std::get<model::Policy>(
      chosen_policy(scenario, flags, file));  // thresholds or levels: a level map
}

int run_comparison(const SimulateOptions& o, const api::CompareRequest& request,
                   const ProcessGroup& processes, ProgressLine& line) {
  const api::CompareResult result = api::compare(request);
  line.finish();
  const sim::PolicyComparison& c = result.comparison;
  const sim::ReplicationPlan& plan = result.plan;
  if (!processes.is_root()) return 0;
  if (o.json) {
    std::cout << api::to_json(request, result).dump(2) << '\n';
    return 0;
  }
  const model::Policy& policy_a = std::get<model::Policy>(request.a);
  const model::Policy& policy_b = std::get<model::Policy>(request.b);
  fmt::print("A: robots per level {}, cost {:.6g} +- {:.3g}\n", levels_text(policy_a.levels()),
             c.a.cost.mean, c.a.cost.half_width);
  fmt::print("B: robots per level {}, cost {:.6g} +- {:.3g}\n", levels_text(policy_b.levels()),
             c.b.cost.mean, c.b.cost.half_width);
  fmt::print("\nB - A on common random numbers ({} replications, seed {}):\n", plan.replications,
             plan.seed);
  print_measures(c.difference, request.model.time_unit);
  fmt::print("\n(independent runs would give the cost difference +- {:.3g})\n",
             c.independent_cost_half_width);
  if (std::abs(c.difference.cost.mean) > c.difference.cost.half_width)
    fmt::print("{} costs less, beyond the interval\n", c.difference.cost.mean < 0 ? "B" : "A");
  else
    fmt::print("the interval holds 0: no difference shown\n");
  return 0;
}

// simulate --times --compare: B - A at each time on common random numbers, beside each.
int compare_over_time(const SimulateOptions& o, const api::CompareRequest& request) {
  const api::CompareResult result = api::compare(request);
  if (o.json) {
    std::cout << api::to_json(request, result).dump(2) << '\n';
    return 0;
  }
  const sim::TransientComparison& c = *result.transient;
  fmt::print("A: {}\nB: {}\n", api::control_policy_json(request.a).dump(),
             api::control_policy_json(request.b).dump());
  fmt::print(
      "B - A over time from {}{} on common random numbers ({} replications, seed {}); each the "
      "mean +- its 95% half-width (every key in --json)\n",
      request.settings.from_file.empty()
          ? std::string(analytic::kTransientStartNames.name(request.settings.from))
          : "the long run of " + request.settings.from_file,
      request.settings.outage > 0
          ? fmt::format(", the indexer stopped during [0, {:g})", request.settings.outage)
          : std::string(),
      c.difference.replications, request.settings.seed);
  const auto cell = [](const sim::Interval& i) {
    return std::isnan(i.mean) ? std::string("-")
                              : fmt::format("{:+.4g} +- {:.2g}", i.mean, i.half_width);
  };
  using Key = model::TransientKey;
  fmt::print("  {:>8} {:>19} {:>19} {:>19} {:>19}\n", "t", "in system", "lost", "obsolete",
             "cost so far");
  for (const sim::TransientPointEstimate& p : c.difference.points)
    fmt::print("  {:>8.4g} {:>19} {:>19} {:>19} {:>19}\n", p.t, cell(p[Key::kMeanInSystem]),
               cell(p[Key::kLost]), cell(p[Key::kObsolete]), cell(p[Key::kCostAccumulated]));
  const sim::Interval& cost = c.difference.points.back()[Key::kCostAccumulated];
  if (std::abs(cost.mean) > cost.half_width)
    fmt::print("\nby t = {:g}, {} has cost less, beyond the interval\n",
               c.difference.points.back().t, cost.mean < 0 ? "B" : "A");
  else
    fmt::print("\nby t = {:g}, the cost's interval holds 0: no difference shown\n",
               c.difference.points.back().t);
  return 0;
}

// simulate --times: each value at each time as an interval over replications from one start.
int run_over_time(const SimulateOptions& o, const scenarios::Scenario& scenario,
                  const model::ControlPolicy& policy,
                  const validation::SimulationSettings& settings) {
  const model::Model& m = scenario.model;
  const api::SimulateRequest request{
      .source = o.file, .model = m, .policy = policy, .settings = settings};
  const api::SimulateResult result = api::simulate(request);
  if (o.json) {
    std::cout << api::to_json(request, result).dump(2) << '\n';
    return 0;
  }
  const sim::TransientSimulation& t = *result.transient;
  const std::string start = settings.from_file.empty()
                                ? std::string(analytic::kTransientStartNames.name(settings.from))
                                : "the long run of " + settings.from_file;
  fmt::print("{} ({}): K = {}, {}\npolicy: {}\n", m.name.empty() ? "scenario" : m.name, o.file,
             m.capacity, model::counted(m.modes(), "mode"), policy_words(m, policy));
  print_replayed_log(result.replayed_arrivals, m.time_unit);
  fmt::print("over time from {}{}: {} replications, seed {}{}; {} events in {:.3g} s\n", start,
             settings.outage > 0
                 ? fmt::format(", the indexer stopped during [0, {:g})", settings.outage)
                 : std::string(),
             t.replications, settings.seed,
             result.plan.warmup > 0 ? fmt::format(", after a warm-up of {:.6g}", result.plan.warmup)
                                    : std::string(),
             t.events, t.seconds);
  fmt::print(
      "  (t in {}; each value the mean over the replications +- its 95% half-width;\n  the loss "
      "rate, in pages {}, is the average over the stretch since the previous time;\n  every key "
      "in --json)\n",
      model::time_unit_plural(m.time_unit), model::per_time_unit(m.time_unit));
  fmt::print("  {:>8} {:>17} {:>17} {:>17} {:>17}\n", "t", "in system", "loss rate", "lost",
             "obsolete");
  const auto cell = [](const sim::Interval& i) {
    return std::isnan(i.mean) ? std::string("-")
                              : fmt::format("{:.4g} +- {:.2g}", i.mean, i.half_width);
  };
  using Key = model::TransientKey;
  for (const sim::TransientPointEstimate& p : t.points)
    fmt::print("  {:>8.4g} {:>17} {:>17} {:>17} {:>17}\n", p.t, cell(p[Key::kMeanInSystem]),
               cell(p[Key::kLossRate]), cell(p[Key::kLost]), cell(p[Key::kObsolete]));
  return 0;
}

int run(const SimulateOptions& o, const CLI::App& command, const ProcessGroup& processes) {
  const scenarios::Scenario scenario = load(o.file);
  model::Model m = scenario.model;
  const std::optional<SimulationDocument> document =
      o.request.empty()
          ? std::nullopt
          : std::make_optional<SimulationDocument>(o.request, command, api::RequestKind::kSimulate);
  const model::ControlPolicy policy =
      document ? document->policy(o.file, m) : chosen_policy(scenario, o.policy, o.file);
  // A policy given runs in every piece of a rhythm, in place of the file's by-piece ones.
  if (document ? document->gives_policy() : policy_given(o.policy)) m.piece_policies.clear();
  const model::Policy* level_map = std::get_if<model::Policy>(&policy);
  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(m, policy);
  const validation::SimulationSettings settings =
      document ? document->settings() : simulation_settings(o.simulation, &o.transient);
  const std::uint64_t seed = settings.seed;
  if (!o.plot.empty() && o.trace.empty())
    throw UsageError("--plot: draws the sample path of --trace; give --trace too");
  if (!o.trace.empty()) {
    if (!settings.horizon)
      throw UsageError("--trace: give --horizon T, the length of the sample path");
    if (!processes.is_root()) return 0;  // one sample path: rank 0's alone
    output::OutputFile file(o.trace, "--trace " + o.trace);
    sim::TraceObserver trace(file.stream(), kMostTraceBytes);
    const auto stats = api::sample_path({.source = o.file,
                                         .model = m,
                                         .policy = policy,
                                         .seed = seed,
                                         .horizon = *settings.horizon},
                                        trace, &trace.stop());
    if (!stats.complete)
      throw UsageError(fmt::format(
          "--trace {}: the sample path passed {} GiB at time {:.6g} of --horizon {:.6g}; "
          "give a shorter --horizon (nothing was written)",
          o.trace, kMostTraceBytes / (1 << 30), stats.simulated, *settings.horizon));
    file.commit();
    std::string plotted;
    if (!o.plot.empty()) {
      std::ifstream written(o.trace);
      plotted = plot_to(
          validation::sample_path_figure(
              written,
              fmt::format("{}: a sample path (seed {})", m.name.empty() ? o.file : m.name, seed),
              m.capacity),
          o.plot);
    }
    if (o.json) {
      std::cout << nlohmann::json{{"trace", o.trace},
                                  {"rows", trace.rows()},
                                  {"events", stats.events},
                                  {"horizon", *settings.horizon},
                                  {"seed", seed}}
                       .dump(2)
                << '\n';
    } else {
      fmt::print("sample path of {} (seed {}): {} events, {} rows written to {}\n",
                 model::duration_text(*settings.horizon, m.time_unit), seed, stats.events,
                 trace.rows(), o.trace);
      if (!plotted.empty()) fmt::print("{}\n", plotted);
    }
    return 0;
  }
  if (!settings.times.empty()) {
    // A transient's replications run on this process's threads: rank 0 alone.
    if (!processes.is_root()) return 0;
    if (!o.compare.empty())
      return compare_over_time(o, {.source = o.file,
                                   .model = m,
                                   .a = policy,
                                   .b = comparison_policy(scenario, o.compare, o.file),
                                   .settings = settings});
    return run_over_time(o, scenario, policy, settings);
  }
  // Replication r keeps its streams on whichever process runs it: the numbers of one process.
  const ProcessReplications spread(processes);
  // Long runs show progress when a person watches stderr; pipes and files stay clean. The count
  // is known when --replications alone fixes it; --precision adds rounds until it is met.
  ProgressLine line("simulate " + o.file, ProgressLine::wanted() && processes.size() == 1);
  const double planned = settings.precision > 0 ? 0.0 : static_cast<double>(settings.replications);
  if (settings.precision > 0)
    line.stage(fmt::format("until --precision {:g} is met (at most --time-limit {:g} s)",
                           settings.precision, settings.time_limit));
  std::function<void(int)> progress = [&line, planned](int done) {
    line.done(done, planned, "replications done");
  };
  if (!o.compare.empty()) {
    if (!level_map)
      throw UsageError("--compare: policy A must be a level map (give --thresholds or --levels)");
    const api::CompareRequest request{.source = o.file,
                                      .model = m,
                                      .a = *level_map,
                                      .b = comparison_policy(scenario, o.compare, o.file),
                                      .settings = settings,
                                      .spread = processes.size() > 1 ? &spread : nullptr,
                                      .progress = progress};
    return run_comparison(o, request, processes, line);
  }
  const api::SimulateRequest request{.source = o.file,
                                     .model = m,
                                     .policy = policy,
                                     .settings = settings,
                                     .spread = processes.size() > 1 ? &spread : nullptr,
                                     .progress = progress};
  const api::SimulateResult result = api::simulate(request);
  const sim::SimulationSummary& s = result.summary;
  const sim::ReplicationPlan& plan = result.plan;
  const double precision = settings.precision;
  const bool precise = result.precise;
  const int replications = static_cast<int>(s.replications.size());
  line.finish();
  if (!processes.is_root()) return 0;
  if (s.fewest_pages < sim::kPagesToTrustNoSpread)
    fmt::print(
        stderr,
        "{}: a replication saw only {:.0f} offered pages in {}: intervals that rest on so few "
        "events may claim more than they know; give a longer --horizon\n",
        o.file, s.fewest_pages, model::duration_text(plan.horizon, m.time_unit));
  if (!precise)
    fmt::print(stderr,
               "{}: --precision {} not reached within --time-limit {} s ({} replications); the "
               "intervals below are what was reached\n",
               o.file, precision, settings.time_limit, replications);
  if (o.json) {
    std::cout << api::to_json(request, result).dump(2) << '\n';
    return 0;
  }
  fmt::print("{} ({}): K = {}, {}\npolicy: {}\n", m.name.empty() ? "scenario" : m.name, o.file,
             m.capacity, model::counted(m.modes(), "mode"), policy_words(m, policy));
  print_replayed_log(result.replayed_arrivals, m.time_unit);
  fmt::print(
      "{} replications of {} after a warm-up of {} ({}), seed {}: {} events in {:.3g} s "
      "({:.3g} million events/s), after {:.3g} s of pilot runs\n\n",
      replications, model::duration_text(plan.horizon, m.time_unit),
      model::duration_text(plan.warmup, m.time_unit), settings.warmup ? "given" : "MSER-5",
      plan.seed, s.events, s.seconds, s.events / s.seconds / 1e6, result.seconds_warmup);
  if (precision > 0)
    fmt::print(
        "{} headline half-widths (P_loss, P_success, cost, V(1)) within {:g}% of their estimates\n\n",
        precise ? "all" : "NOT all", 100 * precision);
  print_measures(s, m.time_unit);
  const std::string unit = model::time_unit_plural(m.time_unit);
  const auto row = [&unit](const char* name, const sim::Interval& i) {
    print_interval(name, "", i, unit);
  };
  row("sojourn of served pages, median", s.served_median);
  row("sojourn of served pages, 90%", s.served_p90);
  row("sojourn of served pages, 99%", s.served_p99);
  print_histogram(s.served_histogram, m.time_unit);
  if (m.rhythm) print_pieces(*m.rhythm, s.pieces, m.time_unit);
  fmt::print("\n  (95% Student-t intervals over independent replications)\n");
  return 0;
}

}  // namespace

std::function<int()> add_simulate_command(CLI::App& app, const ProcessGroup& processes) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Discrete-event simulation of the same system, independent of the exact engine: estimates of\n"
      "every measure of `solve` with 95% confidence intervals over independent replications.\n"
      "By default replications are added until P_loss, P_success, cost and V(1) are known to 1%.\n"
      "With --times, the same over time from a start (each replication starts there), as solve\n"
      "--times computes it exactly; 1000 replications unless --replications says otherwise.\n"
      "Examples: crawlq simulate paper-example-1 --seed 7\n"
      "          crawlq simulate paper-example-1 --replications 20 --horizon 1e5\n"
      "          crawlq simulate paper-example-1 --from stationary --outage 2 --times 1,2,4,8\n"
      "Across processes (a build with -DCRAWLQ_MPI=ON): mpirun -np P crawlq simulate ... spreads\n"
      "the replications over P processes, each on its own --threads; the same numbers as one\n"
      "process (only `seconds` differs; a run stopped by --time-limit may stop at another round).");
  add_scenario_argument(cmd, o->file);
  add_policy_flags(cmd, o->policy);
  add_simulation_flags(cmd, o->simulation);
  add_arrivals_log_flag(cmd, o->simulation);
  add_transient_flags(cmd, o->transient,
                      "where --times start: empty (no pages), full (K pages), stationary (the "
                      "policy's long run, reached by a warm-up: --warmup, else MSER-5), or "
                      "FILE: the long run of a policy file, this policy taking over at 0");
  cmd->add_option(
      "--compare", o->compare,
      "thresholds=a,b,c or levels=m0,...: simulate this policy B beside A (the file's or the "
      "flag's) on common random numbers and report B - A with paired intervals");
  cmd->add_option(
      "--trace", o->trace,
      "FILE.csv: write one sample path of --horizon time units (time, event, level, robots, "
      "lost, expired) instead of estimating");
  cmd->add_option(
      "--plot", o->plot,
      "FILE.svg: with --trace, draw the sample path (level and robots over time, losses and expiries "
      "marked) with gnuplot");
  add_request_option(cmd, o->request, api::RequestKind::kSimulate);
  cmd->add_flag("--json", o->json, "machine output on stdout: each measure as {mean, half_width}");
  return [cmd, o, &processes] { return cmd->parsed() ? run(*o, *cmd, processes) : -1; };
}

}  // namespace crawlq::app
