#include "app/fit_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/fit_request.hpp"
#include "app/command_support.hpp"
#include "app/figure_output.hpp"
#include "app/progress_line.hpp"
#include "fit/timestamp_log.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"
#include "output/gnuplot_figure.hpp"
#include "output/output_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"

namespace crawlq::app {

namespace {

struct FitArrivalsOptions {
  std::string log;
  std::string column;
  std::optional<double> batch_gap, censor_gap;
  int lags = 6;
  std::string method = "moments";
  int regimes = 2;
  std::optional<int> phases;
  std::optional<int> robots;
  std::string scenario, out;
  std::string plot;  // a directory for the figures
  bool json = false;
  bool strict_order = false;  // refuse a log out of time order instead of reading it in order
  int bootstrap = 0;          // refits on block resamples of the log (api::FitArrivalsRequest)
  std::uint64_t seed = 1;
};

// A directory a flag names, for files written once the work has succeeded: an existing one (not a
// file: `holds` says what goes in it), or one crawlq will make in a directory that exists; either
// way one that can be written, checked now so that a refusal leaves nothing behind. True when it
// is to be made.
bool directory_to_make(const std::string& flag, const std::string& directory,
                       const std::string& holds) {
  std::error_code error;
  const std::filesystem::path path(directory);
  const std::string label = flag + " " + directory;
  if (std::filesystem::exists(path, error)) {
    if (!std::filesystem::is_directory(path, error))
      throw UsageError(fmt::format("{}: not a directory ({})", label, holds));
    output::require_writable_directory(path, label);
    return false;
  }
  const std::filesystem::path parent =
      path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  if (!std::filesystem::is_directory(parent, error))
    throw UsageError(fmt::format("{}: {} is not a directory (crawlq makes the last one only)",
                                 label, parent.string()));
  output::require_writable_directory(parent, label);
  return true;
}

// --bootstrap B --out DIR: DIR/fitted.yaml and the refits in DIR/bootstrap/, a set of its own. DIR
// must be new or empty: refits of an earlier run left beside these would join their ensemble.
void require_fresh_directory(const std::string& directory) {
  std::error_code error;
  if (!directory_to_make(
          "--out", directory,
          "with --bootstrap, --out names the directory that gets fitted.yaml and bootstrap/") &&
      !std::filesystem::is_empty(directory, error))
    throw UsageError(fmt::format(
        "--out {}: not empty; a bootstrap writes a set of its own (refits of another run would "
        "join its ensemble): give a new directory",
        directory));
}

std::string zero_padded(int n, int total) {
  return fmt::format("{:0{}}", n, std::max<std::size_t>(3, std::to_string(total).size()));
}

// The fit's three figures: the lag correlations of the log and of the fit (with the band of no
// correlation), the batch sizes, and the quantiles of the times between batches (a Q-Q plot).
std::vector<std::string> draw_fit(const nlohmann::json& j, const std::string& directory,
                                  const std::string& log) {
  using output::SeriesStyle;
  std::vector<std::string> written;
  const auto& sample = j["sample"];
  output::Figure lags =
      output::make_figure(fmt::format("{}: lag correlations of the times between batches", log),
                          "lag k", "correlation");
  lags.integer_x = true;
  auto observed = output::make_series("the log, +-1.96/sqrt(n)", SeriesStyle::kPointsErrors, 1, 1);
  auto fitted = output::make_series("the fitted MAP", SeriesStyle::kLines, 1, 2);
  for (std::size_t k = 0; k < sample["lag_correlations"].size(); ++k) {
    observed.x.push_back(static_cast<double>(k + 1));
    observed.y.push_back(sample["lag_correlations"][k]);
    observed.half_width.push_back(sample["lag_bands"][k]);
    fitted.x.push_back(static_cast<double>(k + 1));
    fitted.y.push_back(j["fitted"]["lag_correlations"][k]);
  }
  lags.series = {observed, fitted};
  written.push_back(
      plot_to(lags, (std::filesystem::path(directory) / "autocorrelation.svg").string()));
  output::Figure sizes =
      output::make_figure(fmt::format("{}: pages in a batch", log), "pages k", "d_k");
  sizes.integer_x = true;
  auto shares = output::make_series("the log", SeriesStyle::kPoints, 1, 1);
  for (std::size_t k = 0; k < j["size_probabilities"].size(); ++k) {
    shares.x.push_back(static_cast<double>(k + 1));
    shares.y.push_back(j["size_probabilities"][k]);
  }
  sizes.series = {shares};
  written.push_back(
      plot_to(sizes, (std::filesystem::path(directory) / "batch-sizes.svg").string()));
  output::Figure qq =
      output::make_figure(fmt::format("{}: quantiles of the times between batches", log),
                          "the fitted MAP's quantile", "the log's quantile");
  auto points = output::make_series("1% to 99%", SeriesStyle::kPoints, 1, 1);
  auto diagonal = output::make_series("equal", SeriesStyle::kLines, 1, 2);
  for (std::size_t q = 0; q < j["quantiles"]["fitted"].size(); ++q) {
    points.x.push_back(j["quantiles"]["fitted"][q]);
    points.y.push_back(j["quantiles"]["sample"][q]);
  }
  const double top = std::max(points.x.back(), points.y.back());
  diagonal.x = {0, top};
  diagonal.y = {0, top};
  qq.series = {points, diagonal};
  written.push_back(plot_to(qq, (std::filesystem::path(directory) / "quantiles.svg").string()));
  return written;
}

// A fitted load the indexer cannot carry under any policy: every mode offers more pages than it
// serves, so a policy search then only chooses how pages are lost. Said, not refused: the log may
// be of a crawl that did overload its indexer.
void overload_note(const model::Model& fitted, const std::string& file) {
  double least = INFINITY, most = 0;
  for (int r = 1; r <= fitted.modes(); ++r) {
    const double rho = fitted.arrivals.mode(r).fundamental_rate() * fitted.service.mean();
    least = std::min(least, rho);
    most = std::max(most, rho);
  }
  if (least > 1)
    add_note(fmt::format(
        "{}: every mode offers more pages than the indexer serves (load rho {:.3g} to {:.3g}): "
        "pages are lost or go stale under every policy; check that the log's times are in the "
        "scenario's unit of time",
        file, least, most));
}

// The fit's spread over the refits, beside the fit.
void print_bootstrap(const nlohmann::json& b, int lags) {
  fmt::print(
      "\nbootstrap: {} refits on resamples of the log's batches in blocks of {} (seed {}):\n",
      b["replicates"].get<int>(), b["block_length"].get<int>(), b["seed"].get<std::uint64_t>());
  fmt::print("  {:<26} {:>12} {:>12}   {}\n", "", "fitted", "std. error", "95% of the refits");
  const auto row = [](const std::string& label, double point, double error,
                      const nlohmann::json& interval) {
    fmt::print("  {:<26} {:>12.6g} {:>12.3g}   {:.6g} to {:.6g}\n", label, point, error,
               interval[0].get<double>(), interval[1].get<double>());
  };
  const auto& point = b["point"];
  const auto& errors = b["standard_errors"];
  const auto& intervals = b["intervals"];
  const std::pair<const char*, const char*> keys[] = {{"mean", "mean time between batches"},
                                                      {"scv", "scv"},
                                                      {"batch_size_mean", "pages a batch"},
                                                      {"page_rate", "pages per unit time"}};
  for (const auto& [key, label] : keys) row(label, point[key], errors[key], intervals[key]);
  for (int k = 0; k < lags; ++k)
    row(fmt::format("lag-{} correlation", k + 1), point["lag_correlations"][k],
        errors["lag_correlations"][k], intervals["lag_correlations"][k]);
}

int run_arrivals(const FitArrivalsOptions& o) {
  if (o.out.empty() != o.scenario.empty())
    throw UsageError(
        "--scenario BASE.yaml and --out NEW.yaml go together: the fitted arrivals replace BASE's "
        "in NEW");
  api::FitArrivalsRequest request{.source = o.log,
                                  .times = {},
                                  .batch_gap = o.batch_gap,
                                  .censor_gap = o.censor_gap,
                                  .lags = o.lags,
                                  .method = o.method,
                                  .regimes = o.regimes,
                                  .phases = o.phases,
                                  .robots = o.robots.value_or(1)};
  // Every check before any work or any write: a refusal leaves no file behind.
  // --plot DIR: an existing directory, or one made once the fit has succeeded.
  const bool make_plot_directory =
      !o.plot.empty() && directory_to_make("--plot", o.plot, "the figures go in one");
  nlohmann::json base;
  std::string time_unit;  // the base's: the log's times are read in it
  if (!o.scenario.empty()) {
    const scenarios::Scenario read = load(o.scenario);  // refused now if it breaks a rule
    time_unit = read.model.time_unit;
    base = scenarios::yaml_to_json(scenarios::read_file(scenarios::locate_scenario(o.scenario)),
                                   o.scenario);
    if (!o.robots) request.robots = read.model.modes();
  }
  const bool bootstrap_files = o.bootstrap > 0 && !o.out.empty();
  if (bootstrap_files) require_fresh_directory(o.out);
  const std::string point_file =
      bootstrap_files ? (std::filesystem::path(o.out) / "fitted.yaml").string() : o.out;
  request.times = fit::read_timestamps(scenarios::locate_log(o.log).string(), o.column,
                                       o.strict_order, &request.order);
  request.bootstrap = o.bootstrap;
  request.seed = o.seed;
  ProgressLine progress(fmt::format("fit arrivals {}", o.log),
                        o.bootstrap > 0 && ProgressLine::wanted());
  std::vector<std::string> refit_texts;
  request.refitted = [&](int replicate, const nlohmann::json& arrivals) {
    progress.done(replicate, o.bootstrap, "refits");
    if (!bootstrap_files) return;
    nlohmann::json scenario = api::with_fitted_arrivals(base, {{"arrivals", arrivals}}, o.log);
    scenario["name"] = scenario.value("name", std::string("fitted")) + "-bootstrap-" +
                       zero_padded(replicate, o.bootstrap);
    scenario["source"] =
        fmt::format("block-bootstrap resample {} of {} (seed {}) of {}; {}", replicate, o.bootstrap,
                    o.seed, o.log, scenario.value("source", std::string()));
    refit_texts.push_back(
        fmt::format("# {} with its arrivals fitted to resample {} of {}'s batches (`crawlq fit "
                    "arrivals --bootstrap {} --seed {}`)\n",
                    o.scenario, replicate, o.log, o.bootstrap, o.seed) +
        scenario.dump(2) + "\n");
  };
  nlohmann::json j = api::fit_arrivals(request);
  progress.finish();
  const fit::LogOrder& order = request.order;
  if (j.contains("batch_gap_note"))
    add_note(fmt::format("{}: {}", o.log, j["batch_gap_note"].get<std::string>()));
  if (order.lines_moved > 0)
    add_note(fmt::format(
        "{}: sorted into time order: {} came before a line above it (the largest step back "
        "{:.6g}, at line {}); --strict-order refuses such a log",
        o.log, model::counted(static_cast<long long>(order.lines_moved), "line"),
        order.largest_step_back, order.line_of_largest));
  // NEW must read back under the same rules as any scenario (BASE's policy may need more modes than
  // --robots gives): checked on its text, before it is written.
  std::unique_ptr<output::OutputFile> out;
  std::vector<std::unique_ptr<output::OutputFile>> refit_files;
  if (!o.out.empty()) {
    const std::string text =
        fmt::format(
            "# {} with its arrivals fitted to {} by `crawlq fit arrivals`; the log's times "
            "are read in {}'s unit of time ({})\n",
            o.scenario, o.log, o.scenario, model::time_unit_plural(time_unit)) +
        api::with_fitted_arrivals(base, j, o.log).dump(2) + "\n";
    // Relative files the base names (a policy table) are read from where each file will be.
    const std::filesystem::path directory = std::filesystem::path(point_file).parent_path();
    const std::filesystem::path refit_directory = std::filesystem::path(o.out) / "bootstrap";
    const scenarios::Scenario written =
        scenarios::parse_scenario(text, fmt::format("--out {} (not written)", point_file),
                                  directory.empty() ? "." : directory);
    overload_note(written.model, point_file);
    // Each refit must read back as the point does.
    for (std::size_t b = 0; b < refit_texts.size(); ++b)
      scenarios::parse_scenario(refit_texts[b],
                                fmt::format("--out {}: refit {} (not written)", o.out, b + 1),
                                refit_directory);
    if (bootstrap_files) {
      std::error_code error;
      std::filesystem::create_directories(std::filesystem::path(o.out) / "bootstrap", error);
      if (error)
        throw UsageError(
            fmt::format("--out {}: cannot make the directory ({})", o.out, error.message()));
      for (std::size_t b = 0; b < refit_texts.size(); ++b) {
        const std::string file = (std::filesystem::path(o.out) / "bootstrap" /
                                  (zero_padded(static_cast<int>(b + 1), o.bootstrap) + ".yaml"))
                                     .string();
        refit_files.push_back(std::make_unique<output::OutputFile>(file, "--out " + o.out));
        refit_files.back()->stream() << refit_texts[b];
      }
      j["bootstrap"]["out"] = (std::filesystem::path(o.out) / "bootstrap").string();
    }
    out = std::make_unique<output::OutputFile>(point_file, "--out " + point_file);
    out->stream() << text;
    j["out"] = point_file;
  }
  std::vector<std::string> drawn;
  if (!o.plot.empty()) {
    if (make_plot_directory) {
      std::error_code error;
      std::filesystem::create_directory(o.plot, error);
      if (error)
        throw UsageError(
            fmt::format("--plot {}: cannot make the directory ({})", o.plot, error.message()));
    }
    drawn = draw_fit(j, o.plot, o.log);
  }
  // Last: a figure that failed leaves NEW unwritten.
  for (const auto& file : refit_files) file->commit();
  if (out) out->commit();
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  for (const auto& line : drawn) fmt::print("{}\n", line);
  const auto& sample = j["sample"];
  const auto& fitted = j["fitted"];
  const std::vector<double> sizes = j["size_probabilities"];
  fmt::print(
      "{}: {} deliveries in {} batches (gaps under {:.6g} join a batch); {} gap{} over {:.6g} left "
      "out\n",
      o.log, j["units"].get<long>(), j["batches"].get<long>(), j["batch_gap"].get<double>(),
      j["censored"].get<long>(), j["censored"] == 1 ? "" : "s", j["censor_gap"].get<double>());
  fmt::print("batch sizes d_1..d_{}: {:.4f}\n\n", sizes.size(), fmt::join(sizes, ", "));
  fmt::print("  times between batches   {:>12} {:>12}\n", "the log", "fitted MAP");
  for (const char* key : {"mean", "variance", "scv"})
    fmt::print("  {:<22}  {:>12.6g} {:>12.6g}\n", key, sample[key].get<double>(),
               fitted[key].get<double>());
  for (int k = 0; k < o.lags; ++k)
    fmt::print("  {:<22}  {:>12.4f} {:>12.4f}   (+-{:.3f} for none)\n",
               fmt::format("lag-{} correlation", k + 1),
               sample["lag_correlations"][k].get<double>(),
               fitted["lag_correlations"][k].get<double>(), sample["lag_bands"][k].get<double>());
  if (fitted.contains("correlation_height"))
    fmt::print(
        "\nMAP of batches: {} phases (two regimes; correlations {:.4g} x {:.4g}^k), log-likelihood "
        "{:.6g}\n",
        fitted["phases"].get<int>(), fitted["correlation_height"].get<double>(),
        fitted["correlation_decay"].get<double>(), fitted["log_likelihood"].get<double>());
  else
    fmt::print(
        "\nMAP of batches by EM: {} phases ({} regimes of Erlang-{} times, {} iterations{}), "
        "log-likelihood {:.6g}\n",
        fitted["phases"].get<int>(), fitted["regimes"].get<int>(), fitted["shape"].get<int>(),
        fitted["iterations"].get<int>(),
        fitted["converged"].get<bool>()
            ? ""
            : fmt::format(", not converged: the last gained {:.2g} of log L",
                          fitted["last_gain"].get<double>()),
        fitted["log_likelihood"].get<double>());
  if (fitted.contains("note")) fmt::print("note: {}\n", fitted["note"].get<std::string>());
  if (j.contains("bootstrap")) print_bootstrap(j["bootstrap"], o.lags);
  if (bootstrap_files)
    fmt::print(
        "wrote {} and {} refits in {}/: crawlq optimize {} --ensemble {} (how the best policy "
        "stands)\n",
        point_file, o.bootstrap, j["bootstrap"]["out"].get<std::string>(), point_file,
        j["bootstrap"]["out"].get<std::string>());
  else if (!o.out.empty())
    fmt::print("wrote {}: {} with this BMAP of pages for {} mode{} (D_k = d_k D1, mode r: r D)\n",
               point_file, o.scenario, request.robots, request.robots == 1 ? "" : "s");
  else
    fmt::print(
        "(--scenario BASE.yaml --out NEW.yaml writes a scenario with it; --json prints the "
        "matrices)\n");
  return 0;
}

struct FitServiceOptions {
  std::string sample;
  std::string column;
  std::string moments;  // "m1,m2,m3"
  std::optional<double> mean;
  std::string method = "moments";
  int phases = 2;
  bool json = false;
};

int run_service(const FitServiceOptions& o, const std::string& what) {
  if (o.sample.empty() == o.moments.empty())
    throw UsageError(
        fmt::format("fit {}: give a SAMPLE file or --moments m1,m2,m3, one of the two", what));
  api::FitLawRequest request{.source = o.sample.empty() ? "--moments " + o.moments : o.sample,
                             .sample = {},
                             .moments = {},
                             .mean = o.mean,
                             .method = o.method,
                             .phases = o.phases};
  if (!o.sample.empty())
    request.sample = fit::read_sample(o.sample, o.column);
  else
    request.moments = parse_numbers(o.moments, "--moments");
  const nlohmann::json j = api::fit_law(request);
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  const auto& given = j["sample"]["moments"];
  const auto& fitted = j["fitted"]["moments"];
  fmt::print("{}: {} (beta, S)\n", what, model::counted(j["fitted"]["phases"].get<int>(), "phase"));
  fmt::print("  {:<10} {:>14} {:>14}\n", "", o.sample.empty() ? "given" : "the sample", "fitted");
  for (int n = 0; n < 3; ++n)
    fmt::print("  m{:<9} {:>14.8g} {:>14.8g}\n", n + 1, given[n].get<double>(),
               fitted[n].get<double>());
  fmt::print("  {:<10} {:>14.6g} {:>14.6g}\n", "scv", j["sample"]["scv"].get<double>(),
             j["fitted"]["scv"].get<double>());
  if (o.mean) fmt::print("  (rescaled to the mean {:g})\n", *o.mean);
  if (j["fitted"].contains("note"))
    fmt::print("note: {}\n", j["fitted"]["note"].get<std::string>());
  fmt::print("\n{}: {{beta: {}, S: {}}}\n", what, j["beta"].dump(), j["S"].dump());
  return 0;
}

}  // namespace

std::function<int()> add_fit_command(CLI::App& app) {
  CLI::App* fit =
      app.add_subcommand("fit",
                         "From a crawler's logs to a model (section 7 of the paper): `fit arrivals "
                         "LOG`, `fit service SAMPLE`\n"
                         "or `fit service --moments m1,m2,m3`, `fit obsolescence ...`.");
  fit->require_subcommand(1);
  auto o = std::make_shared<FitArrivalsOptions>();
  CLI::App* arrivals = fit->add_subcommand(
      "arrivals",
      "Reads a delivery log (one timestamp a line, or --column of a CSV file), joins deliveries "
      "closer than\n"
      "--batch-gap into batches, leaves out gaps between batches longer than --censor-gap (the "
      "crawler\n"
      "stopped), and fits a MAP of batches to the mean, variance and lag correlations of the times "
      "between\n"
      "them: two regimes whose times keep the correlations at any height (the paper's two-phase "
      "MAP reaches\n"
      "0.061 at most for its data). Prints the log's statistics beside the fit's; --scenario "
      "BASE.yaml\n"
      "--out NEW.yaml writes BASE with its arrivals replaced by the BMAP of pages D_k = d_k D1.\n"
      "Examples: crawlq fit arrivals crawler.log\n"
      "          crawlq fit arrivals deliveries.csv --column time --scenario base.yaml --out "
      "fitted.yaml");
  arrivals
      ->add_option(
          "LOG", o->log,
          "the log: one timestamp a line (# comments and blank lines skipped), or a shipped "
          "log's name (synthetic-crawler)")
      ->required();
  arrivals->add_option("--column", o->column,
                       "read a CSV file's column (its header's name, or a number from 1)");
  arrivals->add_flag("--strict-order", o->strict_order,
                     "refuse a log with a line earlier than one above it (by default such lines, "
                     "as concurrent robots stamp them, are read in time order with a note)");
  arrivals->add_option("--batch-gap", o->batch_gap,
                       "deliveries closer than this are one batch (default: where the sorted gaps "
                       "jump 100 times, or above a tight cluster of small ones; else 0)");
  arrivals->add_option("--censor-gap", o->censor_gap,
                       "gaps between batches longer than this are left out (default: 50 times the "
                       "mean time between batches, or past the log's own tail)");
  arrivals->add_option("--lags", o->lags, "lag correlations to measure and match")
      ->capture_default_str();
  arrivals
      ->add_option("--method", o->method,
                   "moments (the regimes' MAP above), or em: maximum likelihood from it "
                   "(Baum-Welch over the "
                   "regimes, each regime's time Erlang, their transition matrix free)")
      ->capture_default_str();
  arrivals->add_option("--regimes", o->regimes, "em: how many regimes")->capture_default_str();
  arrivals->add_option("--phases", o->phases,
                       "the MAP's order at most (each regime's times get an equal share; default: "
                       "what the log asks)");
  arrivals->add_option("--robots", o->robots,
                       "modes of the BMAP written (default: BASE's, else 1)");
  arrivals->add_option(
      "--scenario", o->scenario,
      "a scenario (file or shipped name) whose arrivals the fit replaces (with --out)");
  arrivals->add_option("--out", o->out,
                       "where to write that scenario (with --bootstrap: a new directory, which "
                       "gets fitted.yaml and the refits in bootstrap/)");
  arrivals->add_option("--bootstrap", o->bootstrap,
                       "refit on B block resamples of the log's batches (blocks keep its "
                       "correlation): standard errors and 95% intervals of the fit; with --out, "
                       "B refitted scenarios for --ensemble");
  arrivals->add_option("--seed", o->seed, "the resamples' seed: the same seed, the same refits")
      ->capture_default_str();
  arrivals->add_option("--plot", o->plot,
                       "a directory for three figures (gnuplot): autocorrelation.svg, "
                       "batch-sizes.svg, quantiles.svg");
  arrivals->add_flag("--json", o->json, "machine output on stdout");
  std::vector<std::pair<CLI::App*, std::shared_ptr<FitServiceOptions>>> laws;
  for (const char* what : {"service", "obsolescence"}) {
    auto law = std::make_shared<FitServiceOptions>();
    CLI::App* command = fit->add_subcommand(
        what, fmt::format("A phase-type law for the {} time from a SAMPLE (one time a line) or "
                          "from three moments:\n"
                          "the acyclic law of fewest phases with the three moments exactly (two "
                          "exponentials where\n"
                          "they reach them, as the paper fits its service time); --mean T rescales "
                          "it to the mean T.\n"
                          "Prints the `{}:` section of a scenario.\n"
                          "Examples: crawlq fit {} times.txt\n"
                          "          crawlq fit {} --moments 1,3,15 --mean 8.2 --json",
                          what, what, what, what));
    command->add_option("SAMPLE", law->sample, "the sample: one time a line");
    command->add_option("--column", law->column,
                        "read a CSV file's column (its header's name, or a number from 1)");
    command->add_option("--moments", law->moments, "m1,m2,m3 instead of a sample");
    command->add_option("--mean", law->mean, "rescale the fitted law to this mean time");
    command
        ->add_option("--method", law->method,
                     "moments (three moments exactly), or em (maximum likelihood over --phases "
                     "exponentials mixed; "
                     "a SAMPLE only)")
        ->capture_default_str();
    command->add_option("--phases", law->phases, "em: how many exponentials")
        ->capture_default_str();
    command->add_flag("--json", law->json, "machine output on stdout");
    laws.emplace_back(command, law);
  }
  return [arrivals, o, laws] {
    if (arrivals->parsed()) return run_arrivals(*o);
    for (const auto& [command, law] : laws)
      if (command->parsed()) return run_service(*law, command->get_name());
    return -1;
  };
}

}  // namespace crawlq::app
