#include "model/number_text.hpp"

#include <cmath>

namespace crawlq::model {

std::optional<double> parse_finite_number(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace crawlq::model
