#include "scenarios/state_distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "model/input_error.hpp"
#include "model/number_text.hpp"
#include "model/text_file.hpp"
#include "scenarios/csv_fields.hpp"

namespace crawlq::scenarios {

StateDistribution read_state_distribution(const std::filesystem::path& file) {
  return parse_state_distribution(
      model::read_text_file(file, "a state distribution", model::kMostScenarioBytes),
      file.string());
}

StateDistribution parse_state_distribution(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  StateDistribution d;
  std::vector<std::string> header;
  std::size_t probability_column = 0;
  std::string line;
  double total = 0;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::vector<std::string> row = csv_fields(line);
    const std::string where = fmt::format("{} line {}", label, number);
    if (header.empty()) {
      header = row;
      const auto at = std::find(header.begin(), header.end(), "probability");
      if (at == header.end() || header.front() != "level")
        throw model::InputError(where,
                                "the header needs `level` first and a `probability` column, as "
                                "solve --export writes them");
      probability_column = static_cast<std::size_t>(at - header.begin());
      continue;
    }
    if (row.size() != header.size())
      throw model::InputError(
          where, fmt::format("{} fields, the header has {}", row.size(), header.size()));
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c == probability_column || row[c].empty()) continue;
      const auto value = model::parse_whole_number(row[c], 0, 1'000'000'000);
      if (!value)
        throw model::InputError(
            where, fmt::format("{} '{}': not a whole number of 0 or more", header[c], row[c]));
      const int v = static_cast<int>(*value);
      if (header[c] == "level") d.capacity = std::max(d.capacity, v);
      if (header[c] == "arrival_phase") d.arrival_phases = std::max(d.arrival_phases, v + 1);
      if (header[c] == "service_phase") d.service_phases = std::max(d.service_phases, v + 1);
      if (header[c].starts_with("clock_")) d.clock_phases = std::max(d.clock_phases, v + 1);
    }
    const auto p = model::parse_finite_number(row[probability_column]);
    if (!p || *p < 0 || *p > 1)
      throw model::InputError(where, fmt::format("probability '{}': give a number from 0 to 1",
                                                 row[probability_column]));
    d.probability.push_back(*p);
    total += *p;
  }
  if (d.probability.empty())
    throw model::InputError(label, "no states: give the file solve --export writes");
  if (std::abs(total - 1) > 1e-6)
    throw model::InputError(label, fmt::format("the probabilities sum to {:.9g}, not 1", total));
  return d;
}

}  // namespace crawlq::scenarios
