#include "model/time_unit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace crawlq::model {

namespace {

constexpr std::size_t kLongestUnit = 24;

}  // namespace

std::optional<std::string> read_time_unit(std::string_view written) {
  std::string unit(written);
  // "Minute" is a minute; letters are compared in lower case.
  for (char& c : unit)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (unit.empty() || unit.size() > kLongestUnit ||
      !std::all_of(unit.begin(), unit.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    return std::nullopt;
  // "minutes" and "minute" name one unit; a word of three letters or fewer ("s", "ms") keeps its s.
  if (unit.size() > 3 && unit.back() == 's') unit.pop_back();
  return unit;
}

std::string time_unit_plural(std::string_view unit) {
  if (unit.empty()) return "time units";
  // An abbreviation ("s", "ms", "h", "min", "hrs") has no plural; "day" has. A unit still ending in
  // s is one read_time_unit kept ("hrs", "yrs"): already plural.
  constexpr std::array<std::string_view, 4> kAbbreviations{"min", "sec", "hr", "yr"};
  if (unit.size() <= 2 || unit.back() == 's' ||
      std::find(kAbbreviations.begin(), kAbbreviations.end(), unit) != kAbbreviations.end())
    return std::string(unit);
  return fmt::format("{}s", unit);
}

std::string per_time_unit(std::string_view unit) {
  return unit.empty() ? std::string("per unit time") : fmt::format("per {}", unit);
}

std::string duration_text(double value, std::string_view unit) {
  if (value == 1) return fmt::format("1 {}", unit.empty() ? std::string_view("time unit") : unit);
  return fmt::format("{:.6g} {}", value, time_unit_plural(unit));
}

std::string measure_unit_words(MeasureUnit measure, std::string_view unit) {
  switch (measure) {
    case MeasureUnit::kPagesPerTime:
      return fmt::format("pages {}", per_time_unit(unit));
    case MeasureUnit::kTime:
      return time_unit_plural(unit);
    case MeasureUnit::kNone:
      break;
  }
  return {};
}

}  // namespace crawlq::model
