#include "fit/timestamp_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "model/input_error.hpp"
#include "model/message_text.hpp"
#include "model/text_file.hpp"

namespace crawlq::fit {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// A long value's start, cut between characters: a cut inside one would show as broken bytes.
std::string shown(std::string_view text) {
  return text.size() > 40 ? std::string(text.substr(0, model::character_boundary(text, 40))) + "..."
                          : std::string(text);
}

// Which field of a CSV line holds the time: from the header's names, or a 1-based number.
std::size_t column_index(std::string_view header, const std::string& column,
                         const std::string& label) {
  std::size_t number = 0;
  if (const auto [end, error] =
          std::from_chars(column.data(), column.data() + column.size(), number);
      error == std::errc() && end == column.data() + column.size() && number >= 1)
    return number - 1;
  std::size_t index = 0;
  std::string names;
  for (std::size_t start = 0;; ++index) {
    const std::size_t comma = header.find(',', start);
    const std::string_view name =
        trimmed(header.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (name == column) return index;
    names += (names.empty() ? "" : ", ") + std::string(name);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  throw model::InputError(
      fmt::format("{}: line 1: no column '{}' (the header names: {})", label, column, names));
}

std::string_view field(std::string_view line, std::size_t index) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < index; ++i) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) return {};
    start = comma + 1;
  }
  const std::size_t comma = line.find(',', start);
  return trimmed(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
}

}  // namespace

namespace {

// One number a line; `sample`: any order and every value > 0, else a log read in time order (out of
// order refused when `strict`, sorted and counted in `order` otherwise).
std::vector<double> parse_values(const std::string& text, const std::string& label,
                                 const std::string& column, bool sample, bool strict = false,
                                 LogOrder* order = nullptr) {
  LogOrder found;
  double latest = -INFINITY;
  std::vector<double> times;
  times.reserve(text.size() / 12);
  std::size_t line_number = 0, previous_line = 0;
  std::optional<std::size_t> csv_column;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = trimmed(std::string_view(text).substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    if (!column.empty() && !csv_column) {
      csv_column = column_index(line, column, label);
      continue;
    }
    const std::string_view value = csv_column ? field(line, *csv_column) : line;
    double time = 0;
    const auto [stop, error] = std::from_chars(value.data(), value.data() + value.size(), time);
    if (error != std::errc() || stop != value.data() + value.size() || !std::isfinite(time))
      throw model::InputError(fmt::format(
          "{}: line {}: '{}' is not a time (a number{})", label, line_number, shown(value),
          column.empty() ? ", one a line; --column NAME reads a CSV file" : ""));
    if (sample && !(time > 0))
      throw model::InputError(
          fmt::format("{}: line {}: {} is not a time > 0", label, line_number, time));
    if (!sample && !times.empty() && time < times.back() && strict)
      throw model::InputError(fmt::format(
          "{}: line {}: time {} comes before line {}'s {}: with --strict-order a log must be in "
          "time order",
          label, line_number, time, previous_line, times.back()));
    if (!sample && time < latest) {
      ++found.lines_moved;
      if (latest - time > found.largest_step_back) {
        found.largest_step_back = latest - time;
        found.line_of_largest = line_number;
      }
    }
    latest = std::max(latest, time);
    times.push_back(time);
    previous_line = line_number;
  }
  if (found.lines_moved > 0) std::stable_sort(times.begin(), times.end());
  if (order) *order = found;
  if (times.size() < 2)
    throw model::InputError(fmt::format(
        "{}: {} {}{}: {} needs at least two", label, times.size(), sample ? "value" : "timestamp",
        times.size() == 1 ? "" : "s", sample ? "a sample" : "a log"));
  return times;
}

}  // namespace

std::vector<double> parse_timestamps(const std::string& text, const std::string& label,
                                     const std::string& column, bool strict, LogOrder* order) {
  return parse_values(text, label, column, false, strict, order);
}

std::vector<double> parse_sample(const std::string& text, const std::string& label,
                                 const std::string& column) {
  return parse_values(text, label, column, true);
}

std::vector<double> read_timestamps(const std::string& path, const std::string& column, bool strict,
                                    LogOrder* order) {
  return parse_timestamps(model::read_text_file(path, "a log", model::kMostLogBytes), path, column,
                          strict, order);
}

std::vector<double> read_sample(const std::string& path, const std::string& column) {
  return parse_sample(model::read_text_file(path, "a sample", model::kMostLogBytes), path, column);
}

}  // namespace crawlq::fit
