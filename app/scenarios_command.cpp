#include "app/scenarios_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "api/shipped_request.hpp"
#include "app/command_support.hpp"

namespace crawlq::app {

namespace {

struct ScenariosOptions {
  bool json = false;
  bool names = false;
};

// A terminal line stays one line: a long summary is cut at a word and marked.
std::string one_line(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  const std::size_t cut = text.rfind(' ', width - 3);
  return text.substr(0, cut == std::string::npos ? width - 3 : cut) + "...";
}

int run(const ScenariosOptions& o) {
  const nlohmann::json j = api::shipped();
  if (j["directory"].is_null()) {
    fmt::print(
        stderr,
        "crawlq: no shipped scenarios found: crawlq looks for share/crawlq/scenarios above the "
        "directory it runs from\n");
    return static_cast<int>(ExitCode::kFailed);
  }
  if (o.json) {
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  if (o.names) {
    for (const char* group : {"scenarios", "logs"})
      for (const auto& file : j[group]) fmt::print("{}\n", file["name"].get<std::string>());
    return 0;
  }
  const std::string directory = j["directory"];
  for (const auto& [group, heading] :
       {std::pair{"scenarios", "Shipped scenarios"}, {"logs", "Shipped crawler logs"}}) {
    fmt::print("{}{}, in {}/{}\n", group == std::string("logs") ? "\n" : "", heading, directory,
               group);
    for (const auto& file : j[group])
      fmt::print("  {:<22} {:<8} {}\n", file["name"].get<std::string>(),
                 file["kind"].get<std::string>(), one_line(file["summary"], 66));
  }
  fmt::print(
      "\nGive a name where a command takes a FILE: crawlq optimize paper-example-1\n"
      "(a file of that name in the current directory wins).\n");
  return 0;
}

}  // namespace

std::function<int()> add_scenarios_command(CLI::App& app) {
  auto o = std::make_shared<ScenariosOptions>();
  CLI::App* cmd = app.add_subcommand(
      "scenarios",
      "The shipped scenarios (the papers' examples, teaching examples) and crawler logs, one line each.\n"
      "Every command takes a shipped scenario's name where it takes a FILE: `crawlq solve\n"
      "teaching-two-robots`. A real file of that name in the current directory wins.");
  auto* json =
      cmd->add_flag("--json", o->json, "machine output on stdout: directory, scenarios, logs");
  cmd->add_flag("--names", o->names,
                "the names alone, one a line (for scripts and shell completion)")
      ->excludes(json);
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
