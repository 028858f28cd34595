#pragma once
// The one list of every request's fields: its JSON key, type, default, an example and its help.
// The lab reads its bodies by it, the Python package builds its documents and its methods'
// signatures and help from it, and `crawlq CMD --request FILE` reads a document by it, so a field
// added here reaches every front end. `crawlq schema` prints it.
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/caller_words.hpp"

namespace crawlq::api {

// kLiveSimulation: the lab's simulation, a sample path then estimates round by round.
// kTransientSimulation: the lab's simulated transient, the band beside its exact curves.
enum class RequestKind {
  kSolve,
  kOptimize,
  kSimulate,
  kValidate,
  kSweep,
  kLandscape,
  kLiveSimulation,
  kCompare,
  kTransientSimulation
};

// Which front ends take a field: a lab's request names no file to read or write and runs on one
// thread, so fields that would do either are the command line's and Python's.
enum Takers : unsigned { kCommandLineTakes = 1, kPythonTakes = 2, kLabTakes = 4, kEveryone = 7 };

struct RequestField {
  Field field;                // its names, in each caller's words (caller_words.hpp)
  std::string_view type;      // boolean, integer, number, string, numbers, integers or policy
  std::string_view fallback;  // the default as JSON; "null": the request chooses; "": required
  std::string_view example;   // a value every scenario takes, for the help and the tests
  std::string_view help;
  unsigned takers = kEveryone;
  // A field it means nothing without (a transient's start needs its times): given alone, the
  // request is refused naming that field.
  std::optional<Field> needs = std::nullopt;
};

std::string_view request_kind_name(RequestKind kind);
// The lab's route of a kind the lab serves ("/api/solve"; the live simulation's is
// "/api/simulate"), empty for the others.
std::string_view lab_route(RequestKind kind);
// The kinds, in the order `crawlq schema` lists them.
std::span<const RequestKind> request_kinds();
std::span<const RequestField> request_fields(RequestKind kind);
// Whether requests of `kind` have `field` (validate's full_chain, which simulate's lack).
bool has_field(RequestKind kind, Field field);
bool takes(Caller caller, const RequestField& field);
// The names a choice field takes (methods, classes, searches, parameters), from its enum's own
// list; empty for other fields.
std::vector<std::string> choices_of(RequestKind kind, Field field);

// {"solve": [{"key", "python", "flag", "type", "default", "required", "example", "help",
// "choices", "takers"}], ...}, and "lab_routes": {"solve": "/api/solve", ...}.
nlohmann::json request_schema();

}  // namespace crawlq::api
