#include "app/schema_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/request_schema.hpp"
#include "app/command_support.hpp"

namespace crawlq::app {

namespace {

struct SchemaOptions {
  std::string kind;
  bool json = false;
};

// Help under its field, cut at words to fit a terminal of 100 columns.
void print_wrapped(const std::string& text) {
  constexpr std::size_t kIndent = 17, kWidth = 100 - kIndent;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.size();
    if (end - start > kWidth) {
      end = text.rfind(' ', start + kWidth);
      if (end == std::string::npos || end <= start) end = start + kWidth;
    }
    fmt::print("{:{}}{}\n", "", kIndent, text.substr(start, end - start));
    start = text.find_first_not_of(' ', end);
    if (start == std::string::npos) break;
  }
}

int run(const SchemaOptions& o) {
  nlohmann::json schema = api::request_schema();
  if (!o.kind.empty()) {
    if (!schema.contains(o.kind)) {
      std::string known;
      for (const auto& [kind, fields] : schema.items()) known += (known.empty() ? "" : ", ") + kind;
      throw UsageError(fmt::format("schema: no request '{}' (known: {})", o.kind, known));
    }
    schema = nlohmann::json{{o.kind, schema[o.kind]}};
  }
  if (o.json) {
    std::cout << schema.dump(2) << '\n';
    return 0;
  }
  for (const api::RequestKind request : api::request_kinds()) {
    const std::string kind(api::request_kind_name(request));
    if (!schema.contains(kind)) continue;
    unsigned takers = 0;
    for (const api::RequestField& f : api::request_fields(request)) takers |= f.takers;
    std::vector<std::string> where;
    if (takers & api::kCommandLineTakes)
      where.push_back(fmt::format("crawlq {} FILE --request DOC.json", kind));
    if (takers & api::kPythonTakes) where.push_back(fmt::format("Scenario.{}", kind));
    if (takers & api::kLabTakes)
      where.push_back("the lab's " + std::string(api::lab_route(request)));
    fmt::print("{} ({}):\n", kind, fmt::join(where, "; "));
    for (const auto& f : schema[kind]) {
      const std::string fallback =
          f["required"].get<bool>() ? "required" : "default " + f["default"].dump();
      std::vector<std::string> names;
      for (const auto& taker : f["takers"]) {
        if (taker == "command line") names.push_back("flag " + f["flag"].get<std::string>());
        if (taker == "python") names.push_back("Python " + f["python"].get<std::string>());
        if (taker == "lab") names.push_back("lab");
      }
      fmt::print("  {:<14} {:<9} {}; {}\n", f["key"].get<std::string>(),
                 f["type"].get<std::string>(), fallback, fmt::join(names, ", "));
      std::string help = f["help"].get<std::string>();
      if (!f["choices"].empty()) {
        std::vector<std::string> choices;
        for (const auto& name : f["choices"]) choices.push_back(name.get<std::string>());
        help += fmt::format("; one of {}", fmt::join(choices, ", "));
      }
      if (!f["needs"].is_null()) help += fmt::format("; needs {}", f["needs"].get<std::string>());
      print_wrapped(help);
    }
    fmt::print("\n");
  }
  return 0;
}

}  // namespace

std::function<int()> add_schema_command(CLI::App& app) {
  auto o = std::make_shared<SchemaOptions>();
  CLI::App* cmd = app.add_subcommand(
      "schema",
      "The fields of every request: the keys of a --request document and of the lab's requests,\n"
      "Python's keywords and the command line's flags, with their types, defaults and help.\n"
      "Example: crawlq schema solve");
  std::vector<std::string> kinds;
  for (const api::RequestKind kind : api::request_kinds())
    kinds.emplace_back(api::request_kind_name(kind));
  cmd->add_option("KIND", o->kind,
                  fmt::format("one request ({}); none: all", fmt::join(kinds, ", ")));
  cmd->add_flag("--json", o->json, "machine output on stdout: {kind: [field, ...]}");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
