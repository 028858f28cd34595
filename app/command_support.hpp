#pragma once
// What every crawlq command shares: exit codes, loading a scenario (repairs noted on stderr), the
// policy flags, and the one way bad input is reported.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analytic/stationary/stationary_solver.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"
#include "model/model.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::app {

enum class ExitCode : int { kOk = 0, kFailed = 1, kBadInput = 2 };

// Bad input from the command line; main prints it and exits 2.
class UsageError : public model::InputError {
 public:
  using model::InputError::InputError;
};

// Loads the file. What `repair-diagonal` changed is kept as a note for stderr (never stdout),
// printed by print_notes once the command has run: a refused input keeps its one line of error
// alone.
scenarios::Scenario load(const std::string& file);
void print_notes();
// A note of the command's own for stderr, printed with the others after the output.
void add_note(std::string note);

// Every option of `app` and its commands: a number-typed one reads its value as scenario files do
// (parse_finite_number: "1e3" and "2.0" are whole numbers where CLI11 alone would refuse them), and
// an empty value (`--export ""`) is refused rather than taken for "not given".
void read_option_values_as_written(CLI::App& app);

// --seed's value: a non-negative integer below 10^19 (or a whole number such as 1e6 up to 2^53);
// UsageError naming the flag otherwise.
std::uint64_t parse_seed(const std::string& text);

// A named choice's value read by `parse` (analytic::parse_method, parse_search, ...): its refusal
// (std::invalid_argument listing the known names) becomes bad input naming the flag.
template <class Parse>
auto flag_choice(const std::string& flag, const std::string& value, Parse parse)
    -> decltype(parse(value)) {
  try {
    return parse(value);
  } catch (const std::invalid_argument& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

// --method's value; UsageError naming the known methods otherwise.
analytic::Method method_option(const std::string& name);

// "a,b,c" as integers or numbers (commas or spaces between, optional surrounding brackets, as a
// YAML list is written); the flag is named in errors.
std::vector<int> parse_integers(const std::string& text, const std::string& flag);
std::vector<double> parse_numbers(const std::string& text, const std::string& flag);

// Robots per level as a terminal line: every value while short, runs ("3 x3, 1 x997") when long.
std::string levels_text(const std::vector<int>& levels);

struct PolicyFlags {
  std::string thresholds;  // "--thresholds a,b,c", empty when not given
  std::string levels;      // "--levels m0,m1,..."
  std::string file;        // "--policy FILE": any form, as `optimize --export-policy` writes it
};
// Whether the flags name a policy (else the scenario's own, by piece where it has them).
inline bool policy_given(const PolicyFlags& flags) {
  return !flags.thresholds.empty() || !flags.levels.empty() || !flags.file.empty();
}
// The FILE argument of a command that reads scenarios: a file, or a shipped scenario's name (one
// help text for every command, so each says that a name works).
CLI::Option* add_scenario_argument(CLI::App* command, std::string& file);
CLI::Option* add_scenario_argument(CLI::App* command, std::vector<std::string>& files);
// Adds --thresholds, --levels and --policy (each excludes the others) to `command`.
void add_policy_flags(CLI::App* command, PolicyFlags& flags);
// The flag's level map, else the file's policy of any form (or the only one of a one-mode model);
// UsageError when there is no policy at all.
model::ControlPolicy chosen_policy(const scenarios::Scenario& scenario, const PolicyFlags& flags,
                                   const std::string& file);

}  // namespace crawlq::app
