#include "app/simulation_flags.hpp"

#include <fmt/format.h>

#include "api/simulation_choices.hpp"
#include "app/command_support.hpp"
#include "model/number_text.hpp"
#include "model/thread_count.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::app {

CLI::Option* add_threads_option(CLI::App* command, int& threads, const std::string& help) {
  return command->add_option("--threads", threads, help)
      ->capture_default_str()
      ->check(
          [](const std::string& text) {
            if (model::parse_whole_number(text, 0, model::kMostThreads)) return std::string();
            return fmt::format("{}: give a whole number from 0 (every core) to {}",
                               scenarios::shortened(text), model::kMostThreads);
          },
          "", "");
}

void add_simulation_flags(CLI::App* command, SimulationFlags& flags) {
  command->add_option("--seed", flags.seed, "seed of every random stream")->capture_default_str();
  command
      ->add_option(
          "--replications", flags.replications,
          "independent replications (>= 2); given alone, a run of exactly this many (without it: the "
          "first batch of the sequential mode)")
      ->capture_default_str()
      ->each([&flags](const std::string&) { flags.replications_given = true; });
  command->add_option(
      "--horizon", flags.horizon,
      "observed time per replication (default: about a million offered pages at the pace the "
      "policy keeps, measured on a pilot run)");
  command->add_option(
      "--warmup", flags.warmup,
      "time simulated and discarded first (default: chosen by MSER-5 on a pilot run of a quarter of "
      "the horizon)");
  add_threads_option(
      command, flags.threads,
      "replications run at once by each process (0: all cores); same numbers for any count");
  command
      ->add_option(
          "--precision", flags.precision,
          "sequential mode: add replications until the half-widths of P_loss, P_success, cost and V(1) "
          "are within this fraction of their estimates; the default unless --replications is given (0: off)")
      ->capture_default_str()
      ->each([&flags](const std::string&) { flags.precision_given = true; });
  command
      ->add_option(
          "--time-limit", flags.time_limit,
          "seconds the run may take: the sequential mode stops there (within a replication), and a run that could not finish in it is refused at once")
      ->capture_default_str();
}

void add_arrivals_log_flag(CLI::App* command, SimulationFlags& flags) {
  command->add_option(
      "--arrivals-log", flags.arrivals_log,
      "LOG: replay a crawler's own deliveries (one timestamp a line, or a shipped log's name) in "
      "place of the scenario's arrival law, cut into batches as fit arrivals cuts it; r robots "
      "replay it r times as fast, as a fitted scenario's mode r is r D, each replication from its "
      "own point of the log, looped");
  command->add_option("--batch-gap", flags.batch_gap,
                      "with --arrivals-log: deliveries closer than this are one batch (default: as "
                      "fit arrivals chooses it)");
  command->add_option("--censor-gap", flags.censor_gap,
                      "with --arrivals-log: gaps between batches longer than this are left out "
                      "(default: as fit arrivals chooses it)");
}

validation::SimulationSettings simulation_settings(const SimulationFlags& f,
                                                   const TransientFlags* transient) {
  api::SimulationChoices choices{
      .seed = parse_seed(f.seed),
      .replications = f.replications_given ? std::optional<int>(f.replications) : std::nullopt,
      .horizon = f.horizon,
      .warmup = f.warmup,
      .threads = f.threads,
      .precision = f.precision_given ? std::optional<double>(f.precision) : std::nullopt,
      .time_limit = f.time_limit,
      .arrivals_log = f.arrivals_log,
      .batch_gap = f.batch_gap,
      .censor_gap = f.censor_gap};
  if (transient) {
    choices.times = transient_times(*transient);
    choices.from = transient->from;
    choices.outage = transient->outage;
  }
  try {
    return api::simulation_settings(choices);
  } catch (const model::InputError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace crawlq::app
