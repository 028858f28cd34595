#pragma once
// The flags of every command that runs the simulator (simulate, validate, reproduce): one spelling,
// one check of each value, one default; and --threads, which every command that spreads its work
// takes.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/transient_flags.hpp"
#include "model/model.hpp"
#include "sim/horizon.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::app {

struct SimulationFlags {
  std::string seed = "1";  // text, so that "-1" is refused rather than wrapped to 2^64 - 1
  int replications = 10;
  bool replications_given = false;
  std::optional<double> horizon;
  std::optional<double> warmup;
  int threads = 0;
  // Unless the user fixes --replications, a run goes on until the headline half-widths are within
  // 1% of their estimates: an interval too wide to decide anything is no default.
  double precision = 0.01;
  bool precision_given = false;
  double time_limit = 50;
  std::string arrivals_log;  // --arrivals-log (simulate, validate): a log replayed; empty: none
  std::optional<double> batch_gap, censor_gap;  // how it is cut; none: fit arrivals' defaults
};

// --threads of every command that takes it: 0 (every core) to model::kMostThreads, refused naming
// the flag otherwise (thousands of threads fail to start, and buy nothing).
CLI::Option* add_threads_option(CLI::App* command, int& threads, const std::string& help);

// Adds --seed, --replications, --horizon, --warmup, --threads, --precision and --time-limit.
void add_simulation_flags(CLI::App* command, SimulationFlags& flags);

// Adds --arrivals-log (simulate and validate): a crawler's log replayed in place of the arrival
// law, with --batch-gap and --censor-gap, which cut it as fit arrivals' flags do.
void add_arrivals_log_flag(CLI::App* command, SimulationFlags& flags);

// The checked settings (UsageError naming the flag and the value otherwise), with a transient's
// times, start and outage when the command takes them.
validation::SimulationSettings simulation_settings(const SimulationFlags& flags,
                                                   const TransientFlags* transient = nullptr);

}  // namespace crawlq::app
