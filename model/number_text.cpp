#include "model/number_text.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

namespace crawlq::model {

namespace {

std::string_view trimmed(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

constexpr std::string_view kUnicodeMinus = "\u2212";

}  // namespace

std::optional<double> parse_finite_number(const std::string& text) {
  std::string_view s = trimmed(text);
  bool negative = false;
  bool signed_here = true;
  if (s.substr(0, kUnicodeMinus.size()) == kUnicodeMinus) {
    negative = true;
    s.remove_prefix(kUnicodeMinus.size());
  } else if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
  } else {
    signed_here = false;
  }
  // from_chars reads a '-' of its own, which after a sign read here would make "+-1" a number.
  if (s.empty() || (signed_here && s.front() == '-')) return std::nullopt;
  double value = 0;
  const auto [end, error] =
      std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general);
  if (error != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
    return std::nullopt;
  return negative ? -value : value;
}

const char* parse_out_of_range(const std::string& text) {
  std::string_view s = trimmed(text);
  if (s.substr(0, kUnicodeMinus.size()) == kUnicodeMinus) s.remove_prefix(kUnicodeMinus.size());
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  double value = 0;
  const auto [end, error] =
      std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general);
  if (error != std::errc::result_out_of_range || end != s.data() + s.size()) return nullptr;
  // from_chars does not say which end: a magnitude exponent decides.
  const auto e = s.find_first_of("eE");
  const bool tiny = e != std::string_view::npos ? s.substr(e + 1, 1) == "-"
                                                : (s.front() == '0' || s.front() == '.');
  return tiny ? "too small for a double (below 4.9e-324); write 0 if that is meant"
              : "too large for a double (above 1.8e308)";
}

std::optional<std::int64_t> parse_whole_number(const std::string& text, std::int64_t minimum,
                                               std::int64_t maximum) {
  const auto value = parse_finite_number(text);
  // Beyond 2^53 a double no longer holds every whole number, so such values are read as written.
  if (!value || *value != std::floor(*value) || std::abs(*value) > 9007199254740992.0)
    return std::nullopt;
  const auto whole = static_cast<std::int64_t>(*value);
  if (whole < minimum || whole > maximum) return std::nullopt;
  return whole;
}

std::string counted(long long count, std::string_view noun, std::string_view plural) {
  if (count == 1) return "1 " + std::string(noun);
  return std::to_string(count) + " " +
         (plural.empty() ? std::string(noun) + "s" : std::string(plural));
}

}  // namespace crawlq::model
