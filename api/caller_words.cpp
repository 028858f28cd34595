#include "api/caller_words.hpp"

#include <fmt/format.h>

#include <array>

namespace crawlq::api {

namespace {

struct FieldWords {
  Field field;
  std::string_view command_line, python, lab;
};

// One row per field a message names. Python's keywords are those of crawlq/__init__.py; the lab's
// keys those its routes read (a field the lab does not take is named as its JSON key would be).
constexpr std::array<FieldWords, 42> kWords{{
    {Field::kClass, "--class", "policy_class", "class"},
    {Field::kSearch, "--search", "search", "search"},
    {Field::kMethod, "--method", "method", "method"},
    {Field::kThreads, "--threads", "threads", "threads"},
    {Field::kStarts, "--starts", "starts", "starts"},
    {Field::kExportPolicy, "--export-policy", "export_policy", "export_policy"},
    {Field::kTransforms, "--lst", "transforms", "transforms"},
    {Field::kCdf, "--cdf", "cdf", "cdf"},
    {Field::kMaxMaps, "--max-maps", "max_maps", "max_maps"},
    {Field::kParameter, "--param", "param", "param"},
    {Field::kValues, "--values", "values", "values"},
    {Field::kHorizon, "--horizon", "horizon", "horizon"},
    {Field::kSeed, "--seed", "seed", "seed"},
    {Field::kReplications, "--replications", "replications", "replications"},
    {Field::kWarmup, "--warmup", "warmup", "warmup"},
    {Field::kPrecision, "--precision", "precision", "precision"},
    {Field::kTimeLimit, "--time-limit", "time_limit", "time_limit"},
    // A policy in any form: the command line's file of one (or --thresholds, --levels), Python's
    // and the lab's section as a dict.
    {Field::kPolicy, "--policy", "policy", "policy"},
    {Field::kSojourn, "--sojourn", "sojourn", "sojourn"},
    {Field::kSensitivity, "--sensitivity", "sensitivity", "sensitivity"},
    {Field::kSensitivityRates, "--sensitivity-rates", "sensitivity_rates", "sensitivity_rates"},
    {Field::kFullChain, "--full-chain", "full_chain", "full_chain"},
    // The landscape's plane passes through these thresholds (the lab's only).
    {Field::kThresholds, "--thresholds", "thresholds", "thresholds"},
    {Field::kAxes, "--axes", "axes", "axes"},
    // The lab's sample path has its own horizon beside the replications'.
    {Field::kPathHorizon, "--horizon", "horizon", "path_horizon"},
    // A comparison's two policies: the command line's A is the file's (or the policy flags'), B
    // its --compare.
    {Field::kPolicyA, "--policy", "a", "a"},
    {Field::kPolicyB, "--compare", "b", "b"},
    // The fits' and the reproduction's.
    {Field::kRegimes, "--regimes", "regimes", "regimes"},
    {Field::kPhases, "--phases", "phases", "phases"},
    {Field::kLags, "--lags", "lags", "lags"},
    {Field::kRobots, "--robots", "robots", "robots"},
    {Field::kBatchGap, "--batch-gap", "batch_gap", "batch_gap"},
    {Field::kCensorGap, "--censor-gap", "censor_gap", "censor_gap"},
    {Field::kMean, "--mean", "mean", "mean"},
    {Field::kSections, "--sections", "sections", "sections"},
    // Transients: Python's `from` is a keyword of the language, so it says `start`.
    {Field::kTimes, "--times", "times", "times"},
    {Field::kFrom, "--from", "start", "from"},
    {Field::kOutage, "--outage", "outage", "outage"},
    {Field::kDrainTo, "--drain-to", "drain_to", "drain_to"},
    {Field::kArrivalsLog, "--arrivals-log", "arrivals_log", "arrivals_log"},
    {Field::kBootstrap, "--bootstrap", "bootstrap", "bootstrap"},
    {Field::kEnsemble, "--ensemble", "ensemble", "ensemble"},
}};

}  // namespace

std::string_view field_name(Caller caller, Field field) {
  for (const FieldWords& words : kWords)
    if (words.field == field) {
      switch (caller) {
        case Caller::kCommandLine:
          return words.command_line;
        case Caller::kPython:
          return words.python;
        case Caller::kLab:
        case Caller::kDocument:
          return words.lab;
      }
    }
  return "?";
}

std::string field_given(Caller caller, Field field, std::string_view value, bool quoted) {
  const std::string_view name = field_name(caller, field);
  switch (caller) {
    case Caller::kCommandLine:
      return fmt::format("{} {}", name, value);
    case Caller::kPython:
      return quoted ? fmt::format("{}='{}'", name, value) : fmt::format("{}={}", name, value);
    case Caller::kLab:
    case Caller::kDocument:
      return quoted ? fmt::format("\"{}\": \"{}\"", name, value)
                    : fmt::format("\"{}\": {}", name, value);
  }
  return std::string(value);
}

}  // namespace crawlq::api
