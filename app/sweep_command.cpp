#include "app/sweep_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analytic/control/class_comparison.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "api/sweep_request.hpp"
#include "app/command_support.hpp"
#include "app/figure_output.hpp"
#include "app/progress_line.hpp"
#include "app/request_flag.hpp"
#include "app/simulation_flags.hpp"
#include "model/time_unit.hpp"
#include "output/output_file.hpp"
#include "processes/process_sweep.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::app {

using processes::ProcessGroup;
using processes::sweep_over_processes;

namespace {

using validation::SweepParameter;
using validation::SweepRow;

struct SweepOptions {
  std::string file;
  std::string param;
  std::string values;
  std::string csv;
  std::string plot;  // FILE.svg: C* and every C_r against the value
  int threads = 0;
  std::string policy_class = "thresholds";
  bool full_chain = false;
  bool json = false;
  std::string request;  // --request FILE: the fields as a document
};

// The best cost and the constant policies' costs against the value: where control pays, and how
// much.
output::Figure sweep_figure(const model::Model& model, SweepParameter parameter,
                            const std::vector<SweepRow>& rows) {
  const std::string name = validation::parameter_name(parameter);
  output::Figure f =
      output::make_figure(fmt::format("{}: the best threshold policy against {}",
                                      model.name.empty() ? "scenario" : model.name, name),
                          name, "cost criterion (2)");
  f.integer_x = parameter == SweepParameter::kCapacity;
  output::Series best =
      output::make_series("best threshold policy C*", output::SeriesStyle::kLines);
  std::vector<output::Series> constant;
  for (int r = 1; r <= model.modes(); ++r)
    constant.push_back(
        output::make_series(fmt::format("C_{}: {} robot{} always", r, r, r == 1 ? "" : "s"),
                            output::SeriesStyle::kLines));
  for (const SweepRow& row : rows) {
    best.x.push_back(row.value);
    best.y.push_back(row.best.cost);
    for (int r = 0; r < model.modes(); ++r) {
      constant[r].x.push_back(row.value);
      constant[r].y.push_back(row.constant[r]);
    }
  }
  f.series.push_back(std::move(best));
  if (model.rhythm) {
    // What following the clock is worth: the per-piece vectors' cost beside the single vector's.
    f.title = fmt::format("{}: the periodic regime's costs against {}",
                          model.name.empty() ? "scenario" : model.name, name);
    f.series.back().title = "best single threshold vector C*";
    output::Series by_piece =
        output::make_series("best vector per piece of the rhythm", output::SeriesStyle::kLines);
    for (const SweepRow& row : rows) {
      by_piece.x.push_back(row.value);
      by_piece.y.push_back(row.by_piece->cost);
    }
    f.series.push_back(std::move(by_piece));
  }
  for (auto& c : constant) f.series.push_back(std::move(c));
  return f;
}

// One line per value; thresholds and levels space-separated inside their field; an absent
// obsolescence time is an empty field.
void write_csv(std::ostream& out, const std::vector<SweepRow>& rows, int modes) {
  out << "value,thresholds,levels,cost";
  for (int r = 1; r <= modes; ++r) out << ",C" << r;
  out << ",relative_profit";
  // The best policy's measures but its cost, which is the cost column already.
  for (const auto& measure : model::scalar_measures<double>())
    if (measure.name.key != "cost") out << ',' << measure.name.key;
  out << ",mean_service_time,mean_obsolescence_time";
  const bool with_class = !rows.empty() && rows.front().class_best;
  if (with_class) out << ",class_cost,class_optimality";
  const bool with_pieces = !rows.empty() && rows.front().by_piece;
  if (with_pieces) out << ",by_piece_cost,by_piece_thresholds";
  out << '\n';
  for (const SweepRow& row : rows) {
    out << fmt::format("{},{},{},{}", row.value, fmt::join(api::thresholds_of(row), " "),
                       levels_text(row.best.policy.levels()), row.best.cost);
    for (const double c : row.constant) out << fmt::format(",{}", c);
    out << fmt::format(",{}", row.relative_profit);
    for (const auto& measure : model::scalar_measures<double>())
      if (measure.name.key != "cost") out << fmt::format(",{}", row.measures.*measure.field);
    out << fmt::format(
        ",{},{}", row.mean_service_time,
        row.mean_obsolescence_time ? fmt::format("{}", *row.mean_obsolescence_time) : "");
    if (row.class_best)
      out << fmt::format(",{},{}", row.class_best->cost, row.class_best->optimality);
    if (row.by_piece) {
      // Pieces apart by '|', each piece's thresholds by spaces, as the other list fields.
      std::vector<std::string> pieces;
      for (const std::vector<int>& t : row.by_piece->thresholds)
        pieces.push_back(fmt::format("{}", fmt::join(t, " ")));
      out << fmt::format(",{},{}", row.by_piece->cost, fmt::join(pieces, "|"));
    }
    out << '\n';
  }
}

void print_table(const SweepOptions& o, const model::Model& model,
                 const std::vector<SweepRow>& rows, double seconds) {
  fmt::print("{} ({}): {} over {} values, threshold policies re-optimised at each, in {:.3g} s\n\n",
             model.name.empty() ? "scenario" : model.name, o.file, o.param, rows.size(), seconds);
  std::string constant_header;
  for (int r = 1; r <= model.modes(); ++r)
    constant_header += fmt::format(" {:>10}", fmt::format("C{}", r));
  // Each text column as wide as its widest entry: a parameter's name, a long buffer's levels.
  std::vector<std::string> thresholds_text, levels;
  for (const SweepRow& row : rows) {
    const auto thresholds = api::thresholds_of(row);
    thresholds_text.push_back(thresholds.empty() ? "-"
                                                 : fmt::format("{}", fmt::join(thresholds, ",")));
    levels.push_back(levels_text(row.best.policy.levels()));
  }
  const auto widest = [](const std::vector<std::string>& texts, std::size_t least) {
    for (const std::string& t : texts) least = std::max(least, t.size());
    return least;
  };
  const std::size_t value_width = std::max<std::size_t>(10, o.param.size()),
                    thresholds_width = widest(thresholds_text, 10),
                    levels_width = widest(levels, 16);
  fmt::print("  {:>{}} {:<{}} {:<{}} {:>10}{} {:>7} {:>8} {:>8} {:>8} {:>9} {:>9}\n", o.param,
             value_width, "thresholds", thresholds_width, "robots per level", levels_width, "C*",
             constant_header, "R %", "P_loss", "P_obs", "P_star", "b_1", "g_1");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const SweepRow& row = rows[i];
    std::string constants;
    for (const double c : row.constant) constants += fmt::format(" {:>10.6g}", c);
    fmt::print(
        "  {:>{}.6g} {:<{}} {:<{}} {:>10.6g}{} {:>7.2f} {:>8.4f} {:>8.4f} {:>8.4f} {:>9.4g} "
        "{:>9}\n",
        row.value, value_width, thresholds_text[i], thresholds_width, levels[i], levels_width,
        row.best.cost, constants, row.relative_profit, row.measures.p_loss, row.measures.p_obsolete,
        row.measures.p_starvation, row.mean_service_time,
        row.mean_obsolescence_time ? fmt::format("{:.4g}", *row.mean_obsolescence_time) : "-");
  }
  if (!rows.empty() && rows.front().by_piece) {
    fmt::print(
        "\n  under the rhythm ({} pieces over {} {}): the best vector per piece at each value, "
        "beside C*, the best single vector\n  {:>{}} {:>12} {:>12} {:>9}  {}\n",
        model.rhythm->pieces(), model.rhythm->period, model::time_unit_plural(model.time_unit),
        o.param, value_width, "by piece", "saving", "saving %", "vectors, piece by piece");
    for (const SweepRow& row : rows) {
      std::vector<std::string> pieces;
      for (const std::vector<int>& t : row.by_piece->thresholds)
        pieces.push_back(fmt::format("{}", fmt::join(t, ",")));
      const double saving = row.best.cost - row.by_piece->cost;
      fmt::print("  {:>{}.6g} {:>12.6g} {:>12.4g} {:>8.2f}%  {}\n", row.value, value_width,
                 row.by_piece->cost, saving,
                 row.best.cost != 0 ? 100 * saving / row.best.cost : 0.0, fmt::join(pieces, " | "));
    }
  }
  if (!rows.empty() && rows.front().class_best) {
    fmt::print("\n  the best of --class {} at each value:\n  {:>10} {:>14} {:>12}  {}\n",
               o.policy_class, o.param, "cost", "below C*", "optimality");
    for (const SweepRow& row : rows)
      fmt::print(
          "  {:>10.6g} {:>14.8g} {:>11.2f}%  {}\n", row.value, row.class_best->cost,
          row.best.cost != 0 ? 100 * (row.best.cost - row.class_best->cost) / row.best.cost : 0.0,
          row.class_best->optimality);
  }
  fmt::print(
      "\nC*: the best threshold policy's cost (2); C_r: r robots always active; R = 100 (1 - C* / "
      "min_r C_r),\nthe paper's saving over the best constant policy, a share of that policy's "
      "cost; b_1, g_1: mean\nservice and obsolescence times, in {}\n",
      model::time_unit_plural(model.time_unit));
  if (model.rhythm)
    fmt::print(
        "under the rhythm every cost is the periodic regime's over the period; C* is the best single "
        "vector,\nand R and P_loss, P_obs, P_star are those of the best vector per piece\n");
  if (!o.csv.empty()) fmt::print("rows written to {}\n", o.csv);
}

api::SweepRequest flags_request(const SweepOptions& o, const model::Model& model) {
  // Required unless a --request document gives them.
  for (const auto& [flag, value] : {std::pair{"--param", &o.param}, {"--values", &o.values}})
    if (value->empty()) throw UsageError(fmt::format("{} is required", flag));
  const SweepParameter parameter =
      flag_choice("--param", o.param, validation::parse_sweep_parameter);
  return {.source = o.file,
          .model = model,
          .parameter = parameter,
          .values = parse_numbers(o.values, "--values"),
          .threads = o.threads,
          .policy_class = o.policy_class,
          .full_chain = o.full_chain};
}

api::SweepRequest document_request(const SweepOptions& o, const CLI::App& command,
                                   const model::Model& model) {
  const nlohmann::json document =
      read_request_document(o.request, command, api::RequestKind::kSweep);
  return from_document(o.request, [&] {
    return api::sweep_request(document, document_scenario(o.file, model), api::Caller::kDocument);
  });
}

int run(const SweepOptions& flags, const CLI::App& command, const ProcessGroup& processes) {
  const scenarios::Scenario scenario = load(flags.file);
  const model::Model& model = scenario.model;
  const api::SweepRequest request =
      flags.request.empty() ? flags_request(flags, model) : document_request(flags, command, model);
  api::check(request);
  // What the table and the files show: the request's, whether flags or a document gave it.
  SweepOptions o = flags;
  o.param = validation::parameter_name(request.parameter);
  o.threads = request.threads;
  o.policy_class = request.policy_class;
  const SweepParameter parameter = request.parameter;
  const std::vector<double>& values = request.values;
  if (!o.plot.empty() && std::filesystem::path(o.plot).extension() != ".svg")
    throw UsageError(fmt::format("--plot {}: give a file name ending in .svg", o.plot));
  // Rank 0 alone writes files; the others learn whether it can before any work starts. The CSV is
  // written beside its target and renamed when whole: an interrupted sweep leaves the old file.
  std::unique_ptr<output::OutputFile> csv;
  std::string csv_refusal;
  if (!o.csv.empty() && processes.is_root()) {
    try {
      csv = std::make_unique<output::OutputFile>(o.csv, "--csv " + o.csv);
    } catch (const output::OutputError& e) {
      csv_refusal = e.what();
    }
  }
  if (!o.csv.empty() && !processes.broadcast(csv_refusal.empty() ? 1 : 0))
    throw UsageError(csv_refusal.empty() ? fmt::format("--csv {}: cannot write the file", o.csv)
                                         : csv_refusal);

  const auto start = std::chrono::steady_clock::now();
  std::vector<SweepRow> rows;
  // The values are searched at once on the threads: the line gives the time so far.
  ProgressLine progress("sweep " + o.file, ProgressLine::wanted() && processes.is_root());
  progress.stage(fmt::format("the best policy at each of {} values of {}", values.size(), o.param));
  try {
    rows = sweep_over_processes(processes, model, parameter, values, o.threads, o.policy_class,
                                request.full_chain);
    progress.finish();
  } catch (const std::runtime_error& e) {
    progress.finish();
    fmt::print(stderr, "{}: {}\n", o.file, e.what());
    return static_cast<int>(ExitCode::kFailed);
  }
  if (!processes.is_root()) return 0;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (csv) {
    write_csv(csv->stream(), rows, model.modes());
    csv->commit();
  }
  std::string plotted;
  if (!o.plot.empty()) plotted = plot_to(sweep_figure(model, parameter, rows), o.plot);
  if (o.json) {
    std::cout << api::to_json(request, rows).dump(2) << '\n';
    return 0;
  }
  print_table(o, model, rows, seconds);
  if (const std::optional<double> rate = analytic::lumped_clock_rate(
          validation::swept_chain_model(model, request.policy_class, request.full_chain), model))
    fmt::print(
        "the clock's phases lumped: every phase exits at rate {:.6g} {}, so each chain solved "
        "counts pages, not their clocks' phases (--full-chain keeps them)\n",
        *rate, model::per_time_unit(model.time_unit));
  if (!plotted.empty()) fmt::print("{}\n", plotted);
  return 0;
}

// The cost weights' keys, as the scenario file spells them.
std::string cost_keys(const char* separator) {
  std::string keys;
  for (const auto& w : model::cost_weights())
    keys += (keys.empty() ? "" : separator) + std::string(w.key);
  return keys;
}

}  // namespace

std::function<int()> add_sweep_command(CLI::App& app, const ProcessGroup& processes) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "One parameter varied; at each value the best threshold policy is found again by the exact\n"
      "engine (as `optimize`), beside the constant policies C_r and the relative profit R.\n"
      "  capacity             K, the most pages in the system (whole numbers >= 1; Table 2)\n"
      "  service-scale        S times s: the mean service time divided by s (s > 0; Table 3)\n"
      "  obsolescence-scale   Gamma times s: the mean obsolescence time divided by s (s > 0; Table "
      "4;\n"
      "                       the file needs an obsolescence section)\n"
      "  arrival-scale        every D_k of every mode times s: every arrival rate times s, the "
      "same\n"
      "                       phase structure (s > 0)\n"
      "  costs.KEY            that weight of the cost (2) replaced by the value (>= 0), KEY one of\n"
      "                       " +
          cost_keys(", ") +
          "\n"
          "  rhythm-amplitude     a scenario with a rhythm: each piece's scale s -> m + a (s - m), m\n"
          "                       the mean scale (a >= 0: 0 flat, 1 the file's, 2 twice the swing)\n"
          "Under a rhythm every cost is the periodic regime's, and each row adds the best threshold\n"
          "vector per piece beside the best single one (as optimize): what following the clock is\n"
          "worth as the swing grows.\n"
          "Example: crawlq sweep paper-example-1 --param capacity --values "
          "1,2,3,4,5,6\n"
          "         crawlq sweep day.yaml --param rhythm-amplitude --values 0,0.5,1,1.5\n"
          "Across processes (a build with -DCRAWLQ_MPI=ON): mpirun -np P crawlq sweep ... spreads the\n"
          "values over P processes, each on its own --threads; the same output as one process.");
  add_scenario_argument(cmd, o->file);
  std::string parameters;
  for (const auto p : validation::sweep_parameters())
    parameters += (parameters.empty() ? "" : " | ") + validation::parameter_name(p);
  cmd->add_option("--param", o->param, parameters + " (required, unless --request gives it)");
  std::string classes;
  for (const auto& name : analytic::policy_class_names())
    classes += (classes.empty() ? "" : " | ") + name;
  cmd->add_option("--class", o->policy_class,
                  "also find each value's best of this class (" + classes +
                      "; see optimize --help), beside the threshold optimum")
      ->capture_default_str();
  cmd->add_option("--values", o->values,
                  "v1,v2,...: the values of the parameter, one row each, in this order (required, "
                  "unless --request gives them)");
  add_threads_option(
      cmd, o->threads,
      "values solved at once by each process (0: all cores); same answer for any count");
  cmd->add_option(
      "--csv", o->csv,
      "FILE.csv: one row per value (value, thresholds, levels, cost, C1..CN, relative_profit, "
      "measures)");
  cmd->add_option("--plot", o->plot,
                  "FILE.svg: C* and every C_r against the value, drawn with gnuplot");
  add_request_option(cmd, o->request, api::RequestKind::kSweep);
  cmd->add_flag("--full-chain", o->full_chain,
                "keep every phase of the obsolescence clock in each chain solved even where each "
                "exits at one rate and the chain lumps without them (same costs on far fewer "
                "states; solve --help says more); --class markov keeps them anyway");
  cmd->add_flag("--json", o->json, "machine output on stdout: {\"param\", \"rows\": [...]}");
  return [cmd, o, &processes] { return cmd->parsed() ? run(*o, *cmd, processes) : -1; };
}

}  // namespace crawlq::app
