#include "api/ensemble.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "api/value_spread.hpp"
#include "model/input_error.hpp"
#include "model/measure_list.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::api {

namespace {

std::vector<std::string> files_named(const std::string& spec, Caller caller) {
  const std::string given = field_given(caller, Field::kEnsemble, spec);
  std::vector<std::string> files;
  std::error_code error;
  if (std::filesystem::is_directory(spec, error)) {
    for (const auto& entry : std::filesystem::directory_iterator(spec, error)) {
      const std::string extension = entry.path().extension().string();
      if (entry.is_regular_file(error) && (extension == ".yaml" || extension == ".yml"))
        files.push_back(entry.path().string());
    }
    if (error)
      throw model::InputError(given,
                              fmt::format("cannot list the directory ({})", error.message()));
    std::sort(files.begin(), files.end());
    if (files.size() < 2)
      throw model::InputError(
          given, fmt::format("the directory holds {} scenario file{} (.yaml or .yml): an ensemble "
                             "needs two or more (fit arrivals --bootstrap B --out DIR writes one)",
                             files.size(), files.size() == 1 ? "" : "s"));
    return files;
  }
  std::stringstream list(spec);
  for (std::string file; std::getline(list, file, ',');)
    if (!file.empty()) files.push_back(file);
  if (files.size() < 2)
    throw model::InputError(
        given, "give a directory of scenarios, or two or more files separated by commas");
  return files;
}

}  // namespace

std::vector<EnsembleMember> read_ensemble(const std::string& spec, Caller caller) {
  const std::vector<std::string> files = files_named(spec, caller);
  if (files.size() > static_cast<std::size_t>(kMostEnsembleMembers))
    throw model::InputError(
        field_given(caller, Field::kEnsemble, spec),
        fmt::format("{} models: give {} at most", files.size(), kMostEnsembleMembers));
  std::vector<EnsembleMember> members;
  members.reserve(files.size());
  for (const std::string& file : files)
    members.push_back({file, scenarios::load_scenario(file).model});
  return members;
}

nlohmann::json spread_json(double point, std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  const auto or_null = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  if (values.empty())
    return {{"point", or_null(point)}, {"mean", nullptr}, {"sd", nullptr}, {"low", nullptr},
            {"high", nullptr},         {"min", nullptr},  {"max", nullptr}};
  const ValueSpread spread = spread_of(std::move(values));
  return {{"point", or_null(point)},
          {"mean", spread.mean},
          {"sd", spread.sd},
          {"low", spread.quantile(0.05)},
          {"high", spread.quantile(0.95)},
          {"min", spread.sorted.front()},
          {"max", spread.sorted.back()}};
}

nlohmann::json measure_spreads(const analytic::Measures& point,
                               const std::vector<analytic::Measures>& members) {
  nlohmann::json spreads;
  for (const auto& measure : model::scalar_measures<double>()) {
    std::vector<double> values;
    for (const analytic::Measures& m : members) values.push_back(m.*measure.field);
    spreads[std::string(measure.name.key)] = spread_json(point.*measure.field, std::move(values));
  }
  return spreads;
}

}  // namespace crawlq::api
