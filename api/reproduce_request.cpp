#include "api/reproduce_request.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "model/input_error.hpp"
#include "output/output_file.hpp"

namespace crawlq::api {

const std::vector<std::string>& reproduce_sections() {
  static const std::vector<std::string> sections{"tables",  "figures", "sample-path",
                                                 "refresh", "control", "fit"};
  return sections;
}

bool ReproduceRequest::is_valid(std::string* why) const {
  std::string problem;
  const auto& known = reproduce_sections();
  for (const auto& section : sections)
    if (problem.empty() && std::find(known.begin(), known.end(), section) == known.end())
      problem = fmt::format("{}: '{}' is not one of {}", field_name(caller, Field::kSections),
                            section, fmt::join(known, ", "));
  if (problem.empty() && threads < 0)
    problem = fmt::format("{}: {}: must be 0 (all cores) or more",
                          field_name(caller, Field::kThreads), threads);
  return model::valid_unless(std::move(problem), why);
}

namespace {

nlohmann::json row_json(const validation::ReproducedRow& r) {
  nlohmann::json j{{"table", r.table},   {"label", r.label},   {"computed", r.computed},
                   {"agrees", r.agrees}, {"source", r.source}, {"half_width", r.half_width},
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

}  // namespace

ReproduceResult reproduce(const ReproduceRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  validation::ReproductionOptions options;
  options.seed = request.seed;
  options.threads = request.threads;
  options.quick = request.quick;
  options.sections = request.sections;
  if (options.sections.empty() && !request.report_directory)
    options.sections = {"tables", "refresh"};
  options.progress = request.progress;
  const std::string label = request.report_directory ? "--out " + *request.report_directory : "";
  // The report's directory is checked before minutes of work, not after.
  if (request.report_directory)
    output::require_writable_directory(*request.report_directory, label);
  ReproduceResult result;
  result.reproduction = validation::reproduce_paper(options);
  if (request.report_directory) {
    try {
      result.report = validation::write_report(result.reproduction, *request.report_directory);
    } catch (const std::runtime_error& e) {
      throw model::InputError(label, e.what());
    }
  }
  for (const auto& row : result.reproduction.rows) result.flagged += !row.agrees;
  return result;
}

nlohmann::json to_json(const ReproduceResult& result) {
  const auto& r = result.reproduction;
  nlohmann::json j{{"rows", nlohmann::json::array()},
                   {"remarks", r.remarks},
                   {"seed", r.options.seed},
                   {"flagged", result.flagged}};
  for (const auto& row : r.rows) j["rows"].push_back(row_json(row));
  for (const auto& f : r.figures) j["figures"].push_back({{"id", f.id}, {"caption", f.caption}});
  if (result.report)
    j["report"] = {{"markdown", result.report->markdown.string()},
                   {"html", result.report->html.string()}};
  return j;
}

}  // namespace crawlq::api
