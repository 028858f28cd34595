// A request read from a document is the request the document describes: every field of the schema
// arrives (its example read back unchanged), an empty document gives the schema's defaults, and
// every wrong document is refused naming the field in the caller's own words.
#include "api/request_documents.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

const scenarios::Scenario& paper() {
  static const scenarios::Scenario scenario = scenarios::load_scenario(
      std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/paper-example-1.yaml");
  return scenario;
}

api::DocumentScenario on_paper(std::optional<std::filesystem::path> directory = ".") {
  return {.source = "paper.yaml",
          .model = paper().model,
          .policy_directory = std::move(directory),
          .how_to_give_policy = "give one"};
}

// The document the request read from `document` writes back.
nlohmann::json read_back(api::RequestKind kind, const nlohmann::json& document,
                         api::Caller caller = api::Caller::kDocument) {
  // The lab reads no file a request names.
  const api::DocumentScenario scenario = on_paper(
      caller == api::Caller::kLab ? std::nullopt : std::optional<std::filesystem::path>("."));
  switch (kind) {
    case api::RequestKind::kSolve:
      return api::to_document(api::solve_request(document, scenario, caller));
    case api::RequestKind::kOptimize:
      return api::to_document(api::optimize_request(document, scenario, caller));
    case api::RequestKind::kSweep:
      return api::to_document(api::sweep_request(document, scenario, caller));
    case api::RequestKind::kLandscape:
      return api::to_document(api::landscape_request(document, scenario, caller));
    case api::RequestKind::kLiveSimulation:
      return api::to_document(api::live_simulation_request(document, scenario, caller));
    case api::RequestKind::kCompare:
      return api::to_document(api::compare_request(document, scenario, caller));
    case api::RequestKind::kTransientSimulation:
      return api::to_document(api::transient_simulation_request(document, scenario, caller));
    case api::RequestKind::kSimulate:
    case api::RequestKind::kValidate:
      return api::to_document(api::simulation_choices(document, kind, caller),
                              api::document_policy(document, kind, scenario, caller), kind);
  }
  return nullptr;
}

// A document holding each required field at its example (a sweep needs its parameter and values).
nlohmann::json required_fields(api::RequestKind kind, api::Caller caller) {
  nlohmann::json document = nlohmann::json::object();
  for (const api::RequestField& f : api::request_fields(kind))
    if (f.fallback.empty())
      document[std::string(api::field_name(caller, f.field))] = nlohmann::json::parse(f.example);
  return document;
}

std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const model::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("request documents: every field's example arrives in the request and reads back",
          "[api]") {
  for (const api::RequestKind kind : api::request_kinds()) {
    for (const api::RequestField& f : api::request_fields(kind)) {
      // A caller that takes the field (the landscape is the lab's alone).
      api::Caller caller = api::Caller::kDocument;
      for (const api::Caller c : {api::Caller::kDocument, api::Caller::kPython, api::Caller::kLab})
        if (!api::takes(caller, f) && api::takes(c, f)) caller = c;
      const std::string key(api::field_name(caller, f.field));
      INFO(api::request_kind_name(kind) << "." << key);
      nlohmann::json document = required_fields(kind, caller);
      // A field it means nothing without (a transient's start, its times) at its example too.
      if (f.needs)
        for (const api::RequestField& needed : api::request_fields(kind))
          if (needed.field == *f.needs)
            document[std::string(api::field_name(caller, needed.field))] =
                nlohmann::json::parse(needed.example);
      const nlohmann::json example = nlohmann::json::parse(f.example);
      document[key] = example;
      const nlohmann::json back = read_back(kind, document, caller);
      CHECK(back.at(std::string(api::field_name(api::Caller::kDocument, f.field))) == example);
      // The example differs from the default, so that its arrival shows.
      if (!f.fallback.empty()) CHECK(nlohmann::json::parse(f.fallback) != example);
      // What was written reads back to the same request.
      // What was written (in the lab's keys) reads back, in the caller's words, to the same
      // request.
      nlohmann::json again = nlohmann::json::object();
      for (const api::RequestField& g : api::request_fields(kind))
        if (back.contains(std::string(api::field_name(api::Caller::kDocument, g.field))))
          again[std::string(api::field_name(caller, g.field))] =
              back.at(std::string(api::field_name(api::Caller::kDocument, g.field)));
      CHECK(read_back(kind, again, caller) == back);
    }
  }
}

TEST_CASE("request documents: an empty document gives every default of the schema", "[api]") {
  for (const api::RequestKind kind : api::request_kinds()) {
    const api::Caller caller = kind == api::RequestKind::kLandscape ||
                                       kind == api::RequestKind::kLiveSimulation ||
                                       kind == api::RequestKind::kTransientSimulation
                                   ? api::Caller::kLab
                               : kind == api::RequestKind::kCompare ? api::Caller::kPython
                                                                    : api::Caller::kDocument;
    const nlohmann::json back = read_back(kind, required_fields(kind, caller), caller);
    for (const api::RequestField& f : api::request_fields(kind)) {
      if (f.fallback.empty() || f.field == api::Field::kPolicy) continue;
      const std::string key(api::field_name(api::Caller::kDocument, f.field));
      INFO(api::request_kind_name(kind) << "." << key);
      CHECK(back.at(key) == nlohmann::json::parse(f.fallback));
    }
  }
  // No policy: the scenario's own (the paper's file holds thresholds -1, 2, 2).
  CHECK(read_back(api::RequestKind::kSolve, nlohmann::json::object()).at("policy") ==
        nlohmann::json::parse(R"({"thresholds": [-1, 2, 2]})"));
}

TEST_CASE("request documents: Python's keywords and the lab's keys name the same fields", "[api]") {
  const nlohmann::json python{{"policy_class", "markov"}, {"max_maps", 7}};
  const nlohmann::json lab{{"class", "markov"}, {"max_maps", 7}};
  CHECK(read_back(api::RequestKind::kOptimize, python, api::Caller::kPython) ==
        read_back(api::RequestKind::kOptimize, lab, api::Caller::kLab));
  // Each caller's words only: Python's keyword is not a lab key, nor the reverse.
  CHECK(refusal([&] { read_back(api::RequestKind::kOptimize, python, api::Caller::kLab); }) ==
        "policy_class: not a field of a optimize request (known: class, search, method, "
        "max_maps, starts, full_chain)");
  CHECK(refusal([&] {
          read_back(api::RequestKind::kOptimize, lab, api::Caller::kPython);
        }).starts_with("class: not a keyword of optimize() (known: policy_class, search, "));
}

TEST_CASE("request documents: wrong documents are refused naming the field", "[api]") {
  using Kind = api::RequestKind;
  const auto refused = [](Kind kind, const char* text, api::Caller caller = api::Caller::kLab) {
    return refusal([&] { read_back(kind, nlohmann::json::parse(text), caller); });
  };
  CHECK(refused(Kind::kSolve, "[1, 2]") ==
        "a solve request is a JSON object of its fields (policy, method, sojourn, sensitivity, "
        "sensitivity_rates, full_chain, "
        "transforms, cdf, times, from, outage, drain_to), not [1,2]");
  CHECK(refused(Kind::kSolve, R"({"sojourn": 1})") == "sojourn: 1: give true or false");
  CHECK(refused(Kind::kSolve, R"({"sojourn": null})") == "sojourn: null: give true or false");
  CHECK(refused(Kind::kSolve, R"({"transforms": [1, "a"]})") ==
        R"(transforms: [1,"a"]: give a list of numbers)");
  CHECK(refused(Kind::kSolve, R"({"transforms": 0.5})") ==
        "transforms: 0.5: give a list of numbers");
  CHECK(refused(Kind::kSolve, R"({"method": "fast"})") ==
        "method: unknown method 'fast' (known: auto, block-recursion, qbd, sparse-lu, iterative)");
  CHECK(refused(Kind::kSolve, R"({"method": 3})") ==
        "method: 3: give one of auto, block-recursion, qbd, sparse-lu, iterative");
  CHECK(refused(Kind::kSolve, R"({"policy": 3})") ==
        "policy: 3: give any form of a scenario's policy section, as an object");
  // The lab reads no file a request names; the command line and Python do.
  CHECK(refused(Kind::kSolve, R"({"policy": "/etc/passwd"})")
            .starts_with("policy: the lab reads no file a request names"));
  CHECK(refused(Kind::kSolve, R"({"policy": {"table": "x.csv"}})")
            .starts_with("policy.table: the lab reads no file a request names"));
  CHECK(refused(Kind::kSolve, R"({"policy": "no-such-policy.yaml"})", api::Caller::kDocument)
            .find("no-such-policy.yaml") != std::string::npos);
  // Fields the lab does not take: threads, and a file to write.
  CHECK(refused(Kind::kSolve, R"({"threads": 2})")
            .starts_with("threads: the lab does not take this field"));
  CHECK(refused(Kind::kOptimize, R"({"export_policy": "x.yaml"})")
            .starts_with("export_policy: the lab does not take this field"));
  CHECK(refused(Kind::kOptimize, R"({"threads": 2})", api::Caller::kDocument) == "(accepted)");
  // Whole numbers: in range, whole, and threads within what any door takes.
  CHECK(refused(Kind::kOptimize, R"({"max_maps": 1.5})") == "max_maps: 1.5: give a whole number");
  CHECK(refused(Kind::kOptimize, R"({"starts": 1e10})") ==
        "starts: 10000000000.0: give a whole number");
  CHECK(refused(Kind::kOptimize, R"({"threads": 1025})", api::Caller::kPython) ==
        "threads: 1025: give a whole number from 0 (every core) to 1024");
  CHECK(refused(Kind::kOptimize, R"({"threads": -1})", api::Caller::kPython) ==
        "threads: -1: give a whole number from 0 (every core) to 1024");
  CHECK(refused(Kind::kOptimize, R"({"threads": 1024})", api::Caller::kPython) == "(accepted)");
  CHECK(refused(Kind::kSimulate, R"({"seed": -1})", api::Caller::kPython) ==
        "seed: -1: give a whole number");
  CHECK(refused(Kind::kSimulate, R"({"replications": null, "horizon": null})",
                api::Caller::kPython) == "(accepted)");
  CHECK(refused(Kind::kSimulate, R"({"time_limit": null})", api::Caller::kPython) ==
        "time_limit: null: give a number");
  CHECK(refused(Kind::kLandscape, R"({"axes": [0, 1.5]})") ==
        "axes: [0,1.5]: give a list of whole numbers");
  // Required fields, and the unknown.
  CHECK(refused(Kind::kSweep, R"({"values": [1]})", api::Caller::kPython) ==
        "param: required: give one of capacity, service-scale, obsolescence-scale, "
        "arrival-scale, costs.loss, costs.obsolescence, costs.sojourn, costs.robot, "
        "costs.starvation, costs.holding, rhythm-amplitude");
  CHECK(refused(Kind::kSweep, R"({"param": "capacity"})", api::Caller::kDocument) ==
        "values: required: give a list of numbers");
  CHECK(refused(Kind::kLandscape, R"({"axis": [0, 1]})") ==
        "axis: not a field of a landscape request (known: thresholds, axes)");
}

TEST_CASE("request documents: any document of any values is read or refused as bad input",
          "[api]") {
  // Values at every type's edges, under every key of every kind (and some no kind has): each
  // document is read or refused with model::InputError, never another exception (the sanitizer
  // build runs this too: no cast out of range, no read past a list).
  const std::vector<nlohmann::json> values{
      nullptr,
      true,
      -1,
      0,
      7,
      1.5,
      1e300,
      -1e300,
      std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity(),
      9223372036854775807LL,
      18446744073709551615ULL,
      "",
      "auto",
      "levels",
      "capacity",
      "x.yaml",
      nlohmann::json::array(),
      {1, 2},
      {-1, 2, 2},
      {{1, 2}},
      nlohmann::json::object(),
      {{"thresholds", {-1, 2, 2}}},
      {{"table", "x.csv"}},
      {{"levels", {1e300}}},
  };
  std::vector<std::string> keys{"nothing", "class", "policy_class", ""};
  for (const api::RequestKind kind : api::request_kinds())
    for (const api::RequestField& f : api::request_fields(kind))
      for (const api::Caller caller : {api::Caller::kPython, api::Caller::kLab})
        keys.emplace_back(api::field_name(caller, f.field));
  std::mt19937_64 random(29);
  int read = 0, refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const auto kind = api::request_kinds()[random() % api::request_kinds().size()];
    const auto caller =
        std::array{api::Caller::kPython, api::Caller::kLab, api::Caller::kDocument}[random() % 3];
    nlohmann::json document = nlohmann::json::object();
    for (std::uint64_t n = random() % 4; n > 0; --n)
      document[keys[random() % keys.size()]] = values[random() % values.size()];
    if (random() % 2) document.update(required_fields(kind, caller));
    INFO(api::request_kind_name(kind) << " " << document.dump());
    try {
      read_back(kind, document, caller);
      ++read;
    } catch (const model::InputError&) {
      ++refused;
    }
  }
  // Both outcomes are reached: the values are not all refused.
  CHECK(read > 100);
  CHECK(refused > 100);
}
