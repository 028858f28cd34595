#include "app/reproduce_command.hpp"

#include "validation/output_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "app/command_support.hpp"
#include "validation/paper_reproduction.hpp"
#include "validation/report_writer.hpp"

namespace crawlq::app {

namespace {

struct ReproduceOptions {
  std::string out;
  std::string seed = "1";
  int threads = 0;
  bool quick = false;
  std::string sections;
  bool json = false;
};

const std::set<std::string> kSections{"tables", "figures", "sample-path", "refresh"};

nlohmann::json row_json(const validation::ReproducedRow& r) {
  nlohmann::json j{{"table", r.table},        {"label", r.label},     {"computed", r.computed},
                   {"agrees", r.agrees},      {"source", r.source},   {"half_width", r.half_width},
                   {"note", r.note}};
  j["printed"] = r.printed.empty() ? nlohmann::json(nullptr) : nlohmann::json(std::stod(r.printed));
  if (!r.printed_policy.empty()) j["printed_policy"] = r.printed_policy;
  if (!r.computed_policy.empty()) j["computed_policy"] = r.computed_policy;
  if (r.simulator)
    j["simulator"] = {{"what", r.simulator->what},
                      {"mean", r.simulator->interval.mean},
                      {"half_width", r.simulator->interval.half_width},
                      {"supports_computed", r.simulator->supports_computed},
                      {"supports_printed", r.simulator->supports_printed},
                      {"verdict", r.simulator->verdict}};
  return j;
}

void print_rows(const validation::Reproduction& r) {
  std::string table;
  for (const auto& row : r.rows) {
    if (row.table != table) {
      table = row.table;
      fmt::print("\nTable {}\n  {:<16} {:>10} {:>22}  {}\n", table, "row", "printed", "computed", "");
    }
    const std::string computed = row.half_width > 0 ? fmt::format("{:.4f} +- {:.2g}", row.computed, row.half_width)
                                                    : fmt::format("{:.4f}", row.computed);
    fmt::print("  {:<16} {:>10} {:>22}  {}\n", row.label, row.printed.empty() ? "-" : row.printed, computed,
               row.agrees ? "" : "FLAGGED: " + row.note);
  }
}

int run(const ReproduceOptions& o) {
  validation::ReproductionOptions options;
  options.seed = parse_seed(o.seed);
  options.threads = o.threads;
  options.quick = o.quick;
  if (!o.sections.empty()) {
    std::stringstream list(o.sections);
    for (std::string section; std::getline(list, section, ',');) {
      if (!kSections.count(section))
        throw UsageError(fmt::format("--sections: '{}' is not one of tables, figures, sample-path, refresh", section));
      options.sections.insert(section);
    }
  } else if (o.out.empty()) {
    options.sections = {"tables", "refresh"};  // figures are only drawn into a report
  }
  // The report's directory is checked before minutes of work, not after.
  if (!o.out.empty()) validation::require_writable_directory(o.out, "--out " + o.out);
  if (isatty(fileno(stderr))) options.progress = [](const std::string& step) { fmt::print(stderr, "{}...\n", step); };
  const validation::Reproduction r = validation::reproduce_paper(options);
  std::optional<validation::ReportFiles> files;
  if (!o.out.empty()) {
    try {
      files = validation::write_report(r, o.out);
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("--out {}: {}", o.out, e.what()));
    }
    if (files->figures_drawn < static_cast<int>(r.figures.size()))
      fmt::print(stderr, "gnuplot is not installed: the figures' scripts are in {} (run gnuplot on each .gp file)\n", o.out);
  }
  int flagged = 0;
  for (const auto& row : r.rows) flagged += !row.agrees;
  if (o.json) {
    nlohmann::json j{{"rows", nlohmann::json::array()}, {"remarks", r.remarks}, {"seed", options.seed}, {"flagged", flagged}};
    for (const auto& row : r.rows) j["rows"].push_back(row_json(row));
    for (const auto& f : r.figures) j["figures"].push_back({{"id", f.id}, {"caption", f.caption}});
    if (files) j["report"] = {{"markdown", files->markdown.string()}, {"html", files->html.string()}};
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  print_rows(r);
  fmt::print("\n{} rows, {} flagged.\n", r.rows.size(), flagged);
  for (const auto& remark : r.remarks) fmt::print("- {}\n", remark);
  if (files) fmt::print("\nReport: {} and {} ({} figures)\n", files->markdown.string(), files->html.string(), r.figures.size());
  return 0;
}

}  // namespace

std::function<int()> add_reproduce_command(CLI::App& app) {
  auto o = std::make_shared<ReproduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reproduce",
      "The paper's section 7 recomputed beside its printed values: Tables 1 to 5, Figures 1 to 4 and\n"
      "a sample path. A printed value is flagged when the computed one is more than one unit of its\n"
      "last digit away; each flag gives its reason and, where a simulation can settle it, the\n"
      "simulator's 95% interval. With --out DIR: DIR/report.md, DIR/report.html and the figures as\n"
      "SVG (drawn by gnuplot; the .gp scripts stay beside them). A full run takes a few minutes.\n"
      "Examples: crawlq reproduce --out report\n"
      "          crawlq reproduce --json            (the tables only, as JSON rows)");
  cmd->add_option("--out", o->out, "directory for report.md, report.html and the figures");
  cmd->add_option("--seed", o->seed, "seed of the simulations")->capture_default_str();
  cmd->add_option("--threads", o->threads, "threads for searches and replications (0: all cores)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--quick", o->quick, "short simulations (wide intervals): a preview in seconds");
  cmd->add_option("--sections", o->sections,
                  "which parts: tables,figures,sample-path,refresh (default: all with --out; without it, "
                  "the tables and refresh)");
  cmd->add_flag("--json", o->json, "machine output on stdout: {\"rows\": [{table, label, printed, computed, agrees}]}");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
