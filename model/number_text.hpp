#pragma once
// One reading of numbers written as text, for scenario files and command-line flags alike: the
// whole text must be a finite decimal number, read the same in every locale ("1e-3", "+2", " 0.5 ",
// and "−0.5" with the minus sign a PDF copy gives, yes; "1,5", "inf", "0x10", "3x" no).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace crawlq::model {

std::optional<double> parse_finite_number(const std::string& text);
// Why `text`, a well-formed decimal number, is no double: "too large ..." or "too small ...";
// nullptr when it is one, or no number at all.
const char* parse_out_of_range(const std::string& text);

// A whole number written any way parse_finite_number reads ("12", "12.0", "1.2e1"), within
// [minimum, maximum]; nothing otherwise.
std::optional<std::int64_t> parse_whole_number(const std::string& text, std::int64_t minimum,
                                               std::int64_t maximum);

// "1 phase", "2 phases": a count with its noun, singular for one. `plural` defaults to the noun
// with an s.
std::string counted(long long count, std::string_view noun, std::string_view plural = {});

}  // namespace crawlq::model
