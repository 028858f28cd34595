#pragma once
// `--request FILE` (or `-` for stdin): a request's fields as one JSON document, the document the
// lab's routes and the Python package build (`crawlq schema` lists its keys), instead of flags. It
// lets a script make any front end's call from the command line.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "api/request_documents.hpp"
#include "api/request_schema.hpp"
#include "model/input_error.hpp"
#include "model/model.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::app {

CLI::Option* add_request_option(CLI::App* command, std::string& path, api::RequestKind kind);

// The document at `path`; UsageError naming --request when it cannot be read, is not JSON, is too
// large or nests too deep, or when a flag of one of `kind`'s fields was given beside it (the one
// would silently win over the other).
nlohmann::json read_request_document(const std::string& path, const CLI::App& command,
                                     api::RequestKind kind);

// The scenario a document runs on, from the command line: a policy file is read as --policy reads
// it.
api::DocumentScenario document_scenario(const std::string& file, const model::Model& model);

// `read(document)`'s refusal with the document's name first, as a scenario file's errors start
// with the file's.
template <class Read>
auto from_document(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const model::InputError& e) {
    throw model::InputError(fmt::format("{}: {}", path == "-" ? "--request -" : path, e.message()));
  }
}

// A simulate or validate document, read once: its settings, and its policy for each scenario it
// runs on; each refusal names the document first.
class SimulationDocument {
 public:
  SimulationDocument(const std::string& path, const CLI::App& command, api::RequestKind kind);
  validation::SimulationSettings settings() const;
  model::ControlPolicy policy(const std::string& file, const model::Model& model) const;
  // Whether the document names a policy (else each scenario's own, by piece where it has them).
  bool gives_policy() const;

 private:
  std::string path_;
  api::RequestKind kind_;
  nlohmann::json document_;
};

}  // namespace crawlq::app
