#include "app/describe_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analytic/memory_estimate.hpp"
#include "app/command_support.hpp"
#include "api/json_output.hpp"

namespace crawlq::app {

namespace {

struct DescribeOptions {
  std::string file;
  bool json = false;
};

nlohmann::json matrix_json(const model::Matrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

// The law as the engines use it, whether the file wrote it out or by name.
nlohmann::json phase_type_json(const model::PhaseType& ph, const char* initial_key, const char* matrix_key) {
  return {{"phases", ph.phases()},
          {"mean", ph.mean()},
          {"variance", ph.variance()},
          {"scv", ph.variance() / (ph.mean() * ph.mean())},
          {initial_key, matrix_json(ph.initial())[0]},
          {matrix_key, matrix_json(ph.subgenerator())}};
}

// W (1 + M (1 + R + ... + R^(K-1))) in base 10, where the count itself is beyond a double.
double states_log10(const model::Model& m) {
  const double r = m.obsolescence ? m.obsolescence->phases() : 1;
  const double w = m.arrivals.phases(), service = m.service.phases(), k = m.capacity;
  // R^(K-1) dominates the sum for R >= 2; with R = 1 the sum is K.
  const double levels = r > 1 ? (k - 1) * std::log10(r) + std::log10(r / (r - 1)) : std::log10(k);
  return std::log10(w) + std::log10(service) + levels;
}

// An integer while it is one, a double beyond 2^53, and beyond a double's range text such as
// "1.2e1505" (JSON has no number that large, and null would say "unknown").
nlohmann::json states_json(const model::Model& m, double states) {
  if (states < 9e15) return static_cast<std::int64_t>(states);
  if (std::isfinite(states)) return states;
  const double exponent = std::floor(states_log10(m));
  return fmt::format("{:.2g}e{}", std::pow(10.0, states_log10(m) - exponent), exponent);
}

// [[a, b], [c, d]] with enough digits to read the rates back.
std::string matrix_text(const model::Matrix& m) {
  std::string text = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    text += i == 0 ? "[" : ", [";
    for (Eigen::Index j = 0; j < m.cols(); ++j) text += fmt::format("{}{:.10g}", j == 0 ? "" : ", ", m(i, j));
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
  // Counted, not enumerated: describe must answer instantly for chains far too large to solve.
  const double states = analytic::estimate_memory(m).states;
  nlohmann::json modes = nlohmann::json::array();
  for (int r = 1; r <= m.modes(); ++r) {
    const model::Bmap& b = m.arrivals.mode(r);
    nlohmann::json d = nlohmann::json::array();
    for (const model::Matrix& dk : b.matrices()) d.push_back(matrix_json(dk));
    modes.push_back({{"robots", r},
                     {"fundamental_rate", b.fundamental_rate()},
                     {"group_rate", b.group_rate()},
                     {"mean_batch", b.fundamental_rate() / b.group_rate()},
                     {"group_interval_variance", b.group_interval_variance()},
                     {"lag1_correlation", b.group_interval_lag1_correlation()},
                     {"max_batch", b.max_batch()},
                     {"D", d}});
  }
  const char* admission = m.admission == model::Admission::kPartial ? "partial" : "reject-batch";
  if (o.json) {
    nlohmann::json j{{"name", m.name},
                     {"capacity", m.capacity},
                     {"admission", admission},
                     {"arrival_phases", m.arrivals.phases()},
                     {"modes", modes},
                     {"service", phase_type_json(m.service, "beta", "S")},
                     {"obsolescence",
                      m.obsolescence ? phase_type_json(*m.obsolescence, "gamma", "Gamma") : nlohmann::json(nullptr)},
                     {"states", states_json(m, states)},
                     {"repairs", scenario.repairs}};
    if (m.level_map()) j["policy"] = api::policy_json(*m.level_map());
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print("{} ({})\n", m.name.empty() ? "scenario" : m.name, o.file);
  if (!scenario.source.empty()) fmt::print("source: {}\n", scenario.source);
  fmt::print("capacity K = {} (admission {}), {} modes, {} arrival phases, {} states\n\n", m.capacity, admission,
             m.modes(), m.arrivals.phases(),
             std::isfinite(states) ? fmt::format("{:.15g}", states) : states_json(m, states).get<std::string>());
  fmt::print("  robots  lambda (pages)  lambda_g (batches)  mean batch  var(inter-batch)  lag-1 corr\n");
  for (const auto& mode : modes)
    fmt::print("  {:>6}  {:>14.6g}  {:>18.6g}  {:>10.4g}  {:>16.6g}  {:>10.4g}\n", mode["robots"].get<int>(),
               mode["fundamental_rate"].get<double>(), mode["group_rate"].get<double>(),
               mode["mean_batch"].get<double>(), mode["group_interval_variance"].get<double>(),
               mode["lag1_correlation"].get<double>());
  const auto ph = [](const char* what, const model::PhaseType& p) {
    fmt::print("  {:<13} {} phases, mean {:.6g}, variance {:.6g}, squared coefficient of variation {:.4g}\n",
               what, p.phases(), p.mean(), p.variance(), p.variance() / (p.mean() * p.mean()));
  };
  fmt::print("\n");
  ph("service", m.service);
  if (m.obsolescence)
    ph("obsolescence", *m.obsolescence);
  else
    fmt::print("  obsolescence  none: waiting pages never expire\n");
  fmt::print("\nthe matrices the engines use (laws given by name written out):\n");
  for (int r = 1; r <= m.modes(); ++r) {
    const auto& d = m.arrivals.mode(r).matrices();
    for (std::size_t k = 0; k < d.size(); ++k)
      fmt::print("  {:<13} D{} = {}\n", k == 0 ? fmt::format("{} robot{}", r, r == 1 ? "" : "s") : "", k,
                 matrix_text(d[k]));
  }
  fmt::print("  service       beta = {}, S = {}\n", vector_text(m.service.initial()),
             matrix_text(m.service.subgenerator()));
  if (m.obsolescence)
    fmt::print("  obsolescence  gamma = {}, Gamma = {}\n", vector_text(m.obsolescence->initial()),
               matrix_text(m.obsolescence->subgenerator()));
  if (m.level_map()) fmt::print("\npolicy: robots per level {}\n", levels_text(m.level_map()->levels()));
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
  cmd->add_option("FILE", o->file, "scenario file (YAML or JSON, see interface.md)")->required();
  cmd->add_flag("--json", o->json, "machine output on stdout");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
