#pragma once
// The flags of a transient (solve, simulate, validate): --times, or --until T --points n, --from
// and --outage, one spelling and one check for every command that takes them.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace crawlq::app {

struct TransientFlags {
  std::string times;            // --times t1,t2
  std::optional<double> until;  // --until T --points n: n times evenly spaced over (0, T]
  int points = 0;
  std::string from = "empty";
  double outage = 0;
};

// Adds --times, --until, --points, --from (whose help is `from_help`) and --outage.
void add_transient_flags(CLI::App* command, TransientFlags& flags, const std::string& from_help);

// --times, or --until T with --points n: T/n, 2T/n, ..., T; none when neither is given
// (UsageError naming the flag otherwise).
std::vector<double> transient_times(const TransientFlags& flags);

}  // namespace crawlq::app
