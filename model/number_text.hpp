#pragma once
// One reading of numbers written as text, for scenario files and command-line flags alike: the
// whole text must be a finite number ("1e-3" yes; "1,5", "inf", "3x" no).
#include <optional>
#include <string>

namespace crawlq::model {

std::optional<double> parse_finite_number(const std::string& text);

}  // namespace crawlq::model
