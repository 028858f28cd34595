#include "validation/reproduction.hpp"

#include <cmath>

#include "validation/printed_tables.hpp"

namespace crawlq::validation {

bool agrees_with_printed(const std::string& printed, double computed, double half_width) {
  return std::abs(std::stod(printed) - computed) <= print_unit(printed) * (1 + 1e-9) + half_width;
}

}  // namespace crawlq::validation
