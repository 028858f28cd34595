#include "app/fit_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/command_support.hpp"
#include "fit/batched_log.hpp"
#include "fit/map_statistics.hpp"
#include "fit/ph_moment_fit.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/sample_statistics.hpp"
#include "fit/timestamp_log.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"
#include "validation/output_file.hpp"

namespace crawlq::app {

namespace {

struct FitArrivalsOptions {
  std::string log;
  std::string column;
  std::optional<double> batch_gap, censor_gap;
  int lags = 6;
  std::string method = "moments";
  std::optional<int> robots;
  std::string scenario, out;
  bool json = false;
};

nlohmann::json matrix_json(const model::Matrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j) == 0 ? 0.0 : m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

// The BMAP of pages, D_0 = D0 and D_k = d_k D1, for r robots scaled as the paper's D^(r) = r D: the
// `arrivals:` section of a scenario with `robots` modes.
nlohmann::json arrivals_section(const fit::RegimeMapFit& map, const std::vector<double>& sizes,
                                int robots) {
  nlohmann::json modes = nlohmann::json::array();
  for (int r = 1; r <= robots; ++r) {
    nlohmann::json d = nlohmann::json::array({matrix_json(r * map.d0)});
    for (const double share : sizes) d.push_back(matrix_json(r * share * map.d1));
    modes.push_back({{"D", d}});
  }
  return {{"kind", "per-mode"}, {"modes", modes}};
}

int run_arrivals(const FitArrivalsOptions& o) {
  if (o.method != "moments")
    throw UsageError(
        fmt::format("--method {}: the methods are: moments (EM is not built yet)", o.method));
  if (o.lags < 1 || o.lags > 1000)
    throw UsageError(fmt::format("--lags {}: give 1 to 1000", o.lags));
  if (o.out.empty() != o.scenario.empty())
    throw UsageError(
        "--scenario BASE.yaml and --out NEW.yaml go together: the fitted arrivals replace BASE's "
        "in NEW");
  for (const auto& [flag, value] :
       {std::pair{"--batch-gap", o.batch_gap}, std::pair{"--censor-gap", o.censor_gap}})
    if (value && !(*value >= 0 && std::isfinite(*value)))
      throw UsageError(fmt::format("{} {}: give a time >= 0", flag, *value));
  if (o.robots && *o.robots < 1)
    throw UsageError(fmt::format("--robots {}: give 1 or more", *o.robots));
  nlohmann::json base;
  int robots = o.robots.value_or(1);
  if (!o.scenario.empty()) {
    load(o.scenario);  // refused now if it breaks a rule
    base = scenarios::yaml_to_json(scenarios::read_file(o.scenario), o.scenario);
    if (!o.robots) robots = static_cast<int>(base.at("arrivals").at("modes").size());
  }

  const std::vector<double> times = fit::read_timestamps(o.log, o.column);
  const double batch_gap = o.batch_gap.value_or(fit::default_batch_gap(times));
  const double censor_gap = o.censor_gap.value_or(fit::default_censor_gap(times, batch_gap));
  const fit::BatchedLog log = fit::split_batches(times, batch_gap, censor_gap);
  const fit::SampleStatistics sample = fit::sample_statistics(log.intervals, o.lags);
  if (sample.size < 2)
    throw UsageError(
        fmt::format("{}: {} time{} between batches: a fit needs at least two (--batch-gap {} joins "
                    "nearly every delivery?)",
                    o.log, sample.size, sample.size == 1 ? "" : "s", batch_gap));
  const fit::RegimeMapFit map =
      fit::fit_regime_map(sample.mean, sample.variance, sample.lag_correlations, sample.lag_bands);
  const fit::MapStatistics fitted = fit::map_statistics(map.d0, map.d1, o.lags);
  const double log_likelihood = fit::map_log_likelihood(map.d0, map.d1, log.intervals);
  const nlohmann::json arrivals = arrivals_section(map, log.size_probabilities, robots);

  if (!o.out.empty()) {
    base["arrivals"] = arrivals;
    validation::OutputFile file(o.out, "--out " + o.out);
    file.stream() << "# "
                  << fmt::format("{} with its arrivals fitted to {} by `crawlq fit arrivals`",
                                 o.scenario, o.log)
                  << "\n"
                  << base.dump(2) << "\n";
    file.commit();
    load(o.out);  // what was written reads back under the same rules
  }

  nlohmann::json j{{"units", log.units},
                   {"batches", log.batches},
                   {"censored", log.censored},
                   {"batch_gap", batch_gap},
                   {"censor_gap", censor_gap},
                   {"size_probabilities", log.size_probabilities},
                   {"sample",
                    {{"size", sample.size},
                     {"mean", sample.mean},
                     {"variance", sample.variance},
                     {"scv", sample.scv},
                     {"lag_correlations", sample.lag_correlations},
                     {"lag_bands", sample.lag_bands}}},
                   {"fitted",
                    {{"method", o.method},
                     {"mean", fitted.mean},
                     {"variance", fitted.variance},
                     {"scv", fitted.scv},
                     {"lag_correlations", fitted.lag_correlations},
                     {"phases", map.d0.rows()},
                     {"log_likelihood", log_likelihood},
                     {"correlation_height", map.correlation_height},
                     {"correlation_decay", map.correlation_decay},
                     {"D0", matrix_json(map.d0)},
                     {"D1", matrix_json(map.d1)}}},
                   {"arrivals", arrivals}};
  if (!map.note.empty()) j["fitted"]["note"] = map.note;
  if (!o.out.empty()) j["out"] = o.out;
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print(
      "{}: {} deliveries in {} batches (gaps under {:.6g} join a batch); {} gap{} over {:.6g} left "
      "out\n",
      o.log, log.units, log.batches, batch_gap, log.censored, log.censored == 1 ? "" : "s",
      censor_gap);
  fmt::print("batch sizes d_1..d_{}: {:.4f}\n\n", log.size_probabilities.size(),
             fmt::join(log.size_probabilities, ", "));
  fmt::print("  times between batches   {:>12} {:>12}\n", "the log", "fitted MAP");
  fmt::print("  {:<22}  {:>12.6g} {:>12.6g}\n", "mean", sample.mean, fitted.mean);
  fmt::print("  {:<22}  {:>12.6g} {:>12.6g}\n", "variance", sample.variance, fitted.variance);
  fmt::print("  {:<22}  {:>12.4f} {:>12.4f}\n", "scv", sample.scv, fitted.scv);
  for (int k = 0; k < o.lags; ++k)
    fmt::print("  {:<22}  {:>12.4f} {:>12.4f}   (+-{:.3f} for none)\n",
               fmt::format("lag-{} correlation", k + 1), sample.lag_correlations[k],
               fitted.lag_correlations[k], sample.lag_bands[k]);
  fmt::print(
      "\nMAP of batches: {} phases (two regimes; correlations {:.4g} x {:.4g}^k), log-likelihood "
      "{:.6g}\n",
      map.d0.rows(), map.correlation_height, map.correlation_decay, log_likelihood);
  if (!map.note.empty()) fmt::print("note: {}\n", map.note);
  if (!o.out.empty())
    fmt::print("wrote {}: {} with this BMAP of pages for {} mode{} (D_k = d_k D1, mode r: r D)\n",
               o.out, o.scenario, robots, robots == 1 ? "" : "s");
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
  bool json = false;
};

int run_service(const FitServiceOptions& o, const std::string& what) {
  if (o.method != "moments")
    throw UsageError(
        fmt::format("--method {}: the methods are: moments (EM is not built yet)", o.method));
  if (o.sample.empty() == o.moments.empty())
    throw UsageError(
        fmt::format("fit {}: give a SAMPLE file or --moments m1,m2,m3, one of the two", what));
  if (o.mean && !(*o.mean > 0 && std::isfinite(*o.mean)))
    throw UsageError(fmt::format("--mean {}: give a time > 0", *o.mean));
  std::vector<double> sample, moments;
  if (!o.sample.empty()) {
    sample = fit::read_sample(o.sample, o.column);
    moments = fit::sample_moments(sample, 3);
  } else {
    moments = parse_numbers(o.moments, "--moments");
    if (moments.size() != 3)
      throw UsageError(fmt::format("--moments {}: give three moments, m1,m2,m3", o.moments));
  }
  fit::PhaseTypeFit ph;
  try {
    ph = fit::fit_three_moments(moments[0], moments[1], moments[2]);
  } catch (const model::InputError& e) {
    throw UsageError(
        fmt::format("{}: {}", o.sample.empty() ? "--moments " + o.moments : o.sample, e.what()));
  }
  // --mean T: the law's times scaled so that its mean is T (the paper knows the processing rate
  // only through the mean service time).
  if (o.mean) ph.s /= *o.mean / moments[0];
  const std::vector<double> fitted = fit::phase_type_moments(ph.beta, ph.s, 3);
  const auto scv = [](const std::vector<double>& m) { return m[1] / (m[0] * m[0]) - 1; };
  nlohmann::json j{{"sample", {{"mean", moments[0]}, {"scv", scv(moments)}, {"moments", moments}}},
                   {"fitted",
                    {{"mean", fitted[0]},
                     {"scv", scv(fitted)},
                     {"moments", fitted},
                     {"phases", ph.s.rows()},
                     {"method", o.method},
                     {"third_moment_matched", ph.third_moment_matched}}},
                   {"beta", std::vector<double>(ph.beta.data(), ph.beta.data() + ph.beta.size())},
                   {"S", matrix_json(ph.s)}};
  if (!sample.empty()) j["sample"]["size"] = sample.size();
  j["fitted"]["log_likelihood"] =
      sample.empty() || o.mean
          ? nlohmann::json(nullptr)
          : nlohmann::json(fit::phase_type_log_likelihood(ph.beta, ph.s, sample));
  if (!ph.note.empty()) j["fitted"]["note"] = ph.note;
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print("{}: {} phases (beta, S)\n", what, ph.s.rows());
  fmt::print("  {:<10} {:>14} {:>14}\n", "", o.sample.empty() ? "given" : "the sample", "fitted");
  for (int n = 0; n < 3; ++n)
    fmt::print("  m{:<9} {:>14.8g} {:>14.8g}\n", n + 1, moments[n], fitted[n]);
  fmt::print("  {:<10} {:>14.6g} {:>14.6g}\n", "scv", scv(moments), scv(fitted));
  if (o.mean) fmt::print("  (rescaled to the mean {:g})\n", *o.mean);
  if (!ph.note.empty()) fmt::print("note: {}\n", ph.note);
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
      ->add_option("LOG", o->log,
                   "the log: one timestamp a line (# comments and blank lines skipped)")
      ->required();
  arrivals->add_option("--column", o->column,
                       "read a CSV file's column (its header's name, or a number from 1)");
  arrivals->add_option("--batch-gap", o->batch_gap,
                       "deliveries closer than this are one batch (default: 1% of the median gap)");
  arrivals->add_option("--censor-gap", o->censor_gap,
                       "gaps between batches longer than this are left out (default: 50 times the "
                       "mean time between batches)");
  arrivals->add_option("--lags", o->lags, "lag correlations to measure and match")
      ->capture_default_str();
  arrivals->add_option("--method", o->method, "moments (the regimes' MAP above)")
      ->capture_default_str();
  arrivals->add_option("--robots", o->robots,
                       "modes of the BMAP written (default: BASE's, else 1)");
  arrivals->add_option("--scenario", o->scenario,
                       "a scenario whose arrivals the fit replaces (with --out)");
  arrivals->add_option("--out", o->out, "where to write that scenario");
  arrivals->add_flag("--json", o->json, "machine output on stdout");
  std::vector<std::pair<CLI::App*, std::shared_ptr<FitServiceOptions>>> laws;
  for (const char* what : {"service", "obsolescence"}) {
    auto law = std::make_shared<FitServiceOptions>();
    CLI::App* command = fit->add_subcommand(
        what, fmt::format("A phase-type law for the {} time from a SAMPLE (one time a line) or "
                          "from three moments:\n"
                          "a mixture of two exponentials (scv > 1) or of two Erlang laws (scv <= "
                          "1) with the three\n"
                          "moments exactly, as the paper fits its service time; --mean T rescales "
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
    command->add_option("--method", law->method, "moments")->capture_default_str();
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
