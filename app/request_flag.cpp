#include "app/request_flag.hpp"

#include <fmt/format.h>

#include <iostream>
#include <iterator>

#include "app/command_support.hpp"
#include "scenarios/yaml_document.hpp"
#include "server/lab_body.hpp"

namespace crawlq::app {

namespace {

// A request document holds a few fields and perhaps a policy table: far below this.
constexpr std::size_t kMostStdinBytes = 64u << 20;

std::string document_text(const std::string& path) {
  if (path != "-") return scenarios::read_file(path);
  std::string text;
  char buffer[1 << 16];
  while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
    if (text.size() > kMostStdinBytes)
      throw UsageError(
          fmt::format("--request -: more than {} MiB on stdin", kMostStdinBytes >> 20));
  }
  return text;
}

}  // namespace

CLI::Option* add_request_option(CLI::App* command, std::string& path, api::RequestKind kind) {
  return command->add_option(
      "--request", path,
      fmt::format("FILE.json (- for stdin): the {} request's fields as one JSON object, as the lab "
                  "and the Python package send them, instead of their flags (crawlq schema {} "
                  "lists them)",
                  api::request_kind_name(kind), api::request_kind_name(kind)));
}

nlohmann::json read_request_document(const std::string& path, const CLI::App& command,
                                     api::RequestKind kind) {
  for (const api::RequestField& f : api::request_fields(kind)) {
    std::vector<std::string> flags{
        std::string(api::field_name(api::Caller::kCommandLine, f.field))};
    if (f.field == api::Field::kPolicy) flags.insert(flags.end(), {"--thresholds", "--levels"});
    if (f.field == api::Field::kTimes) flags.insert(flags.end(), {"--until", "--points"});
    for (const std::string& flag : flags) {
      const CLI::Option* option = command.get_option_no_throw(flag);
      if (option && option->count() > 0)
        throw UsageError(fmt::format(
            "{}: give each field once, in the --request document or as a flag, not both", flag));
    }
  }
  const std::string text = document_text(path);
  try {
    return server::parse_lab_body(text);
  } catch (const model::InputError& e) {
    throw UsageError(fmt::format("--request {}: {}", path, e.message()));
  }
}

api::DocumentScenario document_scenario(const std::string& file, const model::Model& model) {
  return {.source = file,
          .model = model,
          .policy_directory = ".",
          .how_to_give_policy = "give \"policy\" in the request (any form of a scenario's policy)"};
}

SimulationDocument::SimulationDocument(const std::string& path, const CLI::App& command,
                                       api::RequestKind kind)
    : path_(path), kind_(kind), document_(read_request_document(path, command, kind)) {}

validation::SimulationSettings SimulationDocument::settings() const {
  return from_document(path_, [&] {
    return api::simulation_settings(
        api::simulation_choices(document_, kind_, api::Caller::kDocument), api::Caller::kDocument);
  });
}

model::ControlPolicy SimulationDocument::policy(const std::string& file,
                                                const model::Model& model) const {
  return from_document(path_, [&] {
    return api::document_policy(document_, kind_, document_scenario(file, model),
                                api::Caller::kDocument);
  });
}

bool SimulationDocument::gives_policy() const {
  const std::string key(api::field_name(api::Caller::kLab, api::Field::kPolicy));
  return document_.is_object() && document_.contains(key) && !document_.at(key).is_null();
}

}  // namespace crawlq::app
