#pragma once
// Who made a request, and how each of them writes its fields: a message names a field in the
// caller's own words (a flag for the command line, a keyword for Python, a JSON key for the lab),
// from the one table in caller_words.cpp, so a request's checks are written once for every front
// end.
#include <string>
#include <string_view>

namespace crawlq::api {

// kDocument: a request document given to the command line (`--request FILE`), whose fields are
// the JSON keys the lab reads.
enum class Caller { kCommandLine, kPython, kLab, kDocument };

enum class Field {
  kClass,
  kSearch,
  kMethod,
  kThreads,
  kStarts,
  kExportPolicy,
  kTransforms,
  kCdf,
  kMaxMaps,
  kParameter,
  kValues,
  kHorizon,
  kSeed,
  kReplications,
  kWarmup,
  kPrecision,
  kTimeLimit,
  kPolicy,
  kSojourn,
  kSensitivity,
  kSensitivityRates,
  kFullChain,
  kThresholds,
  kAxes,
  kPathHorizon,
  kPolicyA,
  kPolicyB,
  kRegimes,
  kPhases,
  kLags,
  kRobots,
  kBatchGap,
  kCensorGap,
  kMean,
  kSections,
  kTimes,
  kFrom,
  kOutage,
  kDrainTo,
  kArrivalsLog,
  kBootstrap,
  kEnsemble
};

// The field as `caller` writes it: "--class", "policy_class", "class".
std::string_view field_name(Caller caller, Field field);
// The field given a value, as `caller` writes it: "--class markov", "policy_class='markov'",
// "\"class\": \"markov\"". `value` is shown as written (a number as text is quoted for Python and
// the lab only when `quoted`).
std::string field_given(Caller caller, Field field, std::string_view value, bool quoted = true);

}  // namespace crawlq::api
