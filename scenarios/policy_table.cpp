#include "scenarios/policy_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <string>

#include "model/input_error.hpp"
#include "model/number_text.hpp"
#include "model/text_file.hpp"
#include "scenarios/csv_fields.hpp"

namespace crawlq::scenarios {

std::vector<int> read_policy_table(const std::filesystem::path& file) {
  return parse_policy_table(
      model::read_text_file(file, "a policy table", model::kMostScenarioBytes), file.string());
}

std::vector<int> parse_policy_table(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::vector<int> robots;
  std::optional<std::size_t> column;  // of `robots`; a bare list has one column
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::vector<std::string> row = csv_fields(line);
    if (!column) {
      const bool header =
          std::any_of(line.begin(), line.end(), [](unsigned char c) { return std::isalpha(c); });
      if (header) {
        const auto at = std::find(row.begin(), row.end(), "robots");
        if (at == row.end())
          throw model::InputError(fmt::format("{} line {}", label, number),
                                  "the header has no `robots` column");
        column = static_cast<std::size_t>(at - row.begin());
        continue;
      }
      column = row.size() - 1;
    }
    const std::string where = fmt::format("{} line {}", label, number);
    if (*column >= row.size())
      throw model::InputError(where, fmt::format("no robots value (column {})", *column + 1));
    const std::string& text = row[*column];
    const auto value = model::parse_whole_number(text, -1'000'000, 1'000'000);
    if (!value)
      throw model::InputError(where, fmt::format("robots '{}': not a whole number", text));
    robots.push_back(static_cast<int>(*value));
  }
  return robots;
}

}  // namespace crawlq::scenarios
