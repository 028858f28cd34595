#include "scenarios/csv_fields.hpp"

#include <sstream>

namespace crawlq::scenarios {

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) {
    const auto first = field.find_first_not_of(" \t\r");
    const auto last = field.find_last_not_of(" \t\r");
    out.push_back(first == std::string::npos ? "" : field.substr(first, last - first + 1));
  }
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

}  // namespace crawlq::scenarios
