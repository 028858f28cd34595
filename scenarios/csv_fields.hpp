#pragma once
// One line of the project's CSV files (policy tables, state distributions): its fields split at
// commas, each trimmed of spaces, tabs and a carriage return; a trailing comma is an empty field.
#include <string>
#include <vector>

namespace crawlq::scenarios {

std::vector<std::string> csv_fields(const std::string& line);

}  // namespace crawlq::scenarios
