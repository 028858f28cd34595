#include "app/describe_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "api/describe_request.hpp"
#include "app/command_support.hpp"
#include "app/measure_words.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"

namespace crawlq::app {

namespace {

struct DescribeOptions {
  std::string file;
  bool json = false;
};

// [[a, b], [c, d]] with enough digits to read the rates back.
std::string matrix_text(const model::Matrix& m) {
  std::string text = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    text += i == 0 ? "[" : ", [";
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      text += fmt::format("{}{:.10g}", j == 0 ? "" : ", ", m(i, j));
    text += "]";
  }
  return text + "]";
}

std::string vector_text(const model::RowVector& v) {
  const std::string rows = matrix_text(v);
  return rows.substr(1, rows.size() - 2);
}

int run(const DescribeOptions& o) {
  const scenarios::Scenario scenario = load(o.file);
  const model::Model& m = scenario.model;
  const nlohmann::json j = api::describe({.model = m, .repairs = scenario.repairs});
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  const nlohmann::json& modes = j.at("modes");
  const std::string admission = j.at("admission");
  const nlohmann::json& states = j.at("states");
  fmt::print("{} ({})\n", m.name.empty() ? "scenario" : m.name, o.file);
  if (!scenario.source.empty()) fmt::print("source: {}\n", scenario.source);
  fmt::print("capacity K = {} (admission {}), {}, {}, {} states\n\n", m.capacity, admission,
             model::counted(m.modes(), "mode"),
             model::counted(m.arrivals.phases(), "arrival phase"),
             states.is_string() ? states.get<std::string>()
                                : fmt::format("{:.15g}", states.get<double>()));
  fmt::print(
      "  robots  pages/time  batches/time  mean batch  var(inter-batch)  lag-1 corr  load rho\n");
  for (const auto& mode : modes)
    fmt::print("  {:>6}  {:>10.6g}  {:>12.6g}  {:>10.4g}  {:>16.6g}  {:>10.4g}  {:>8.4g}\n",
               mode["robots"].get<int>(), mode["fundamental_rate"].get<double>(),
               mode["group_rate"].get<double>(), mode["mean_batch"].get<double>(),
               mode["group_interval_variance"].get<double>(),
               mode["lag1_correlation"].get<double>(), mode["offered_load"].get<double>());
  // The indexer's bound: it serves at most 1 / E[S] pages per unit time, whatever the policy.
  const std::string per = model::per_time_unit(m.time_unit);
  fmt::print(
      "  (pages/time is lambda and batches/time lambda_g, both {}; rho = lambda E[S] is\n  the "
      "pages offered per page the indexer can serve, which serves at most {:.4g} pages {}:\n  "
      "above 1 the buffer fills and pages are lost or go stale whatever its size)\n",
      per, 1 / m.service.mean(), per);
  const std::string unit = model::time_unit_plural(m.time_unit);
  const auto ph = [&unit](const char* what, const model::PhaseType& p) {
    fmt::print(
        "  {:<13} {}, mean {:.6g} {}, sd {:.6g} {}, squared coefficient of variation {:.4g}\n",
        what, model::counted(p.phases(), "phase"), p.mean(), unit, std::sqrt(p.variance()), unit,
        p.variance() / (p.mean() * p.mean()));
  };
  fmt::print("\n");
  ph("service", m.service);
  if (m.obsolescence)
    ph("obsolescence", *m.obsolescence);
  else
    fmt::print("  obsolescence  none: waiting pages never expire\n");
  if (m.rhythm) {
    const model::Rhythm& rhythm = *m.rhythm;
    fmt::print(
        "  rhythm        a period of {:.6g} {} in {} pieces of {:.6g}; in each, every arrival rate "
        "times its scale\n                (mean {:.4g}): {}\n                the long run is "
        "periodic: crawlq solve gives the period's averages and each piece's\n",
        rhythm.period, unit, rhythm.pieces(), rhythm.piece_length(), rhythm.mean_scale(),
        rhythm.pieces() <= 24
            ? fmt::format("{}", fmt::join(rhythm.scales, " "))
            : fmt::format("{} ... (all in --json)",
                          fmt::join(rhythm.scales.begin(), rhythm.scales.begin() + 24, " ")));
  }
  fmt::print("\nthe matrices the engines use (laws given by name written out):\n");
  for (int r = 1; r <= m.modes(); ++r) {
    const auto& d = m.arrivals.mode(r).matrices();
    for (std::size_t k = 0; k < d.size(); ++k)
      fmt::print("  {:<13} D{} = {}\n",
                 k == 0 ? fmt::format("{} robot{}", r, r == 1 ? "" : "s") : "", k,
                 matrix_text(d[k]));
  }
  fmt::print("  service       beta = {}, S = {}\n", vector_text(m.service.initial()),
             matrix_text(m.service.subgenerator()));
  if (m.obsolescence)
    fmt::print("  obsolescence  gamma = {}, Gamma = {}\n", vector_text(m.obsolescence->initial()),
               matrix_text(m.obsolescence->subgenerator()));
  if (m.policy) fmt::print("\npolicy: {}\n", policy_words(*m.policy));
  for (const auto& r : scenario.repairs) fmt::print("repaired: {}\n", r);
  return 0;
}

}  // namespace

std::function<int()> add_describe_command(CLI::App& app) {
  auto o = std::make_shared<DescribeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "describe",
      "The model in numbers: per mode the BMAP's fundamental rate, batch rate, variance and lag-1\n"
      "correlation of inter-batch times (section 2); PH means and variances; the state count.");
  add_scenario_argument(cmd, o->file);
  cmd->add_flag("--json", o->json, "machine output on stdout");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
