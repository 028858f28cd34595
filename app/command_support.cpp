#include "app/command_support.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/policy_forms.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"
#include "model/number_text.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::app {

namespace {
std::vector<std::string>& pending_notes() {
  static std::vector<std::string> notes;
  return notes;
}
}  // namespace

scenarios::Scenario load(const std::string& file) {
  scenarios::Scenario s = scenarios::load_scenario(file);
  for (const auto& repair : s.repairs)
    pending_notes().push_back(fmt::format("{}: repaired {}", file, repair));
  return s;
}

void add_note(std::string note) { pending_notes().push_back(std::move(note)); }

void print_notes() {
  for (const auto& note : pending_notes()) fmt::print(stderr, "{}\n", note);
  pending_notes().clear();
}

void read_option_values_as_written(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    // An empty value would read as "not given": say so instead of ignoring the flag.
    if (option->get_expected_min() > 0 && option->get_name() != "--help")
      option->check(
          [name = option->get_name()](const std::string& text) {
            return text.empty() ? fmt::format("an empty value: give one or leave {} out", name)
                                : std::string();
          },
          "", "");
    // The type's name, then ":" and what each check adds ("INT:NONNEGATIVE").
    const std::string type = option->get_type_name().substr(0, option->get_type_name().find(':'));
    const bool whole = type == "INT" || type == "UINT";
    if (!whole && type != "FLOAT") continue;
    // Text that is no number is left as it is, for CLI11 to refuse with the option's name.
    option->transform(
        [whole](std::string text) {
          if (whole) {
            if (const auto v = model::parse_whole_number(text, INT64_MIN / 2, INT64_MAX / 2))
              return std::to_string(*v);
          } else if (const auto v = model::parse_finite_number(text)) {
            return fmt::format("{}", *v);
          }
          return text;
        },
        "", "");
  }
  for (CLI::App* command : app.get_subcommands({})) read_option_values_as_written(*command);
}

std::uint64_t parse_seed(const std::string& text) {
  // Digits are read as text, so that every seed up to 2^64 - 1 is exact and "-1" is refused rather
  // than wrapped; other spellings of a whole number ("1e6") go through the double reading.
  std::uint64_t seed = 0;
  const char* end = text.data() + text.size();
  if (const auto [stop, error] = std::from_chars(text.data(), end, seed);
      error == std::errc() && stop == end)
    return seed;
  if (const auto v = model::parse_whole_number(text, 0, INT64_MAX / 2))
    return static_cast<std::uint64_t>(*v);
  throw UsageError(fmt::format("--seed: '{}' is not an integer from 0 to 18446744073709551615",
                               scenarios::shortened(text)));
}

namespace {
constexpr const char* kScenarioArgumentHelp =
    "a scenario file (YAML or JSON, see interface.md), or a shipped scenario's name (crawlq scenarios "
    "lists them; a file of that name here wins)";
}  // namespace

CLI::Option* add_scenario_argument(CLI::App* command, std::string& file) {
  return command->add_option("FILE", file, kScenarioArgumentHelp)->required();
}

CLI::Option* add_scenario_argument(CLI::App* command, std::vector<std::string>& files) {
  return command->add_option("FILE", files, kScenarioArgumentHelp);
}

void add_policy_flags(CLI::App* command, PolicyFlags& flags) {
  auto* t = command->add_option(
      "--thresholds", flags.thresholds,
      "j1,...,j(N-1), -1 <= j1 <= ... <= K: levels j(r-1)+1..j(r) run N-r+1 robots "
      "(overrides the file's policy)");
  auto* l = command->add_option(
      "--levels", flags.levels,
      "robots at levels 0..K, e.g. 3,3,3,1,1,1 (any map; overrides the file's policy)");
  auto* f = command->add_option(
      "--policy", flags.file,
      "a policy of any form from FILE: YAML with a `policy:` section (as `optimize "
      "--export-policy` writes) or a CSV table of robots by state (overrides the file's policy)");
  t->excludes(l);
  f->excludes(t);
  f->excludes(l);
}

analytic::Method method_option(const std::string& name) {
  return flag_choice("--method", name, analytic::parse_method);
}

std::vector<double> parse_numbers(const std::string& text, const std::string& flag) {
  std::string list = text;
  const auto first = list.find_first_not_of(" \t");
  const auto last = list.find_last_not_of(" \t");
  if (first != std::string::npos && list[first] == '[' && list[last] == ']')
    list = list.substr(first + 1, last - first - 1);
  // Items are separated by a comma, by spaces, or by both ("1, 2"); two commas leave an empty item.
  for (char& c : list)
    if (c == '\t') c = ' ';
  std::vector<double> values;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t start = list.find_first_not_of(' ', at);
    if (start == std::string::npos) break;
    std::size_t end = list.find_first_of(", ", start);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(start, end - start);
    if (item.empty())
      throw UsageError(
          fmt::format("{}: '' is not a number: nothing between two commas (in '{}')", flag, text));
    const auto v = model::parse_finite_number(item);
    if (!v) throw UsageError(fmt::format("{}: '{}' is not a number (in '{}')", flag, item, text));
    values.push_back(*v);
    at = list.find_first_not_of(' ', end);
    if (at != std::string::npos && list[at] == ',') ++at;
  }
  if (values.empty()) throw UsageError(fmt::format("{}: no values in '{}'", flag, text));
  return values;
}

std::vector<int> parse_integers(const std::string& text, const std::string& flag) {
  std::vector<int> values;
  for (double v : parse_numbers(text, flag)) {
    if (v != std::floor(v) || std::abs(v) > 1e9)
      throw UsageError(fmt::format("{}: {} is not an integer (in '{}')", flag, v, text));
    values.push_back(static_cast<int>(v));
  }
  return values;
}

std::string levels_text(const std::vector<int>& levels) {
  if (levels.size() <= 40) return fmt::format("{}", fmt::join(levels, " "));
  std::string text;
  for (std::size_t start = 0; start < levels.size();) {
    std::size_t end = start;
    while (end < levels.size() && levels[end] == levels[start]) ++end;
    text += fmt::format("{}{} x{}", text.empty() ? "" : ", ", levels[start], end - start);
    start = end;
  }
  return text;
}

model::ControlPolicy chosen_policy(const scenarios::Scenario& scenario, const PolicyFlags& flags,
                                   const std::string& file) {
  const model::Model& m = scenario.model;
  // A broken rule throws model::InputError naming the flag, which main reports as any bad input.
  if (!flags.thresholds.empty()) {
    // No thresholds at all is the one-mode case: "--thresholds ''" cannot express it, so allow
    // "none".
    const std::vector<int> t = flags.thresholds == "none"
                                   ? std::vector<int>{}
                                   : parse_integers(flags.thresholds, "--thresholds");
    return model::Policy::from_thresholds(t, m.modes(), m.capacity, "--thresholds");
  }
  if (!flags.levels.empty())
    return model::Policy::from_levels(parse_integers(flags.levels, "--levels"), m.modes(),
                                      m.capacity, "--levels");
  if (!flags.file.empty()) return scenarios::load_policy(flags.file, m);
  return api::policy_or_default(m, file,
                                fmt::format("give --thresholds j1,...,j{} or --levels m0,...,m{}",
                                            m.modes() - 1, m.capacity));
}

}  // namespace crawlq::app
