// libFuzzer harness of the two scenario loaders (scenarios/scenario_loader.cpp and
// scenarios/refresh_loader.cpp): any text goes in; a model comes out, or a ScenarioError (the
// documented answer to bad input, which wraps model::InputError) whose message is one line that
// starts with the label, as the command line prints it. Anything else fails the run: another
// exception (uncaught, so std::terminate aborts), a crash, a failed assertion (kept on in this
// build), or an ASan/UBSan report.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"

namespace {

constexpr const char* kLabel = "fuzz.yaml";

// The command line prints the message as the one line of a refusal: the file's name first, and no
// line break (a value shown from the file may hold one: `capacity: "5\nx"`).
void check_message(const crawlq::scenarios::ScenarioError& e) {
  const std::string message = e.what();
  const std::string prefix = std::string(kLabel) + ": ";
  const char* broken = message.compare(0, prefix.size(), prefix) != 0
                           ? "does not start with the file's name"
                       : message.find('\n') != std::string::npos ? "is more than one line"
                                                                 : nullptr;
  if (broken != nullptr) {
    std::fprintf(stderr, "ScenarioError message %s: [%s]\n", broken, message.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)crawlq::scenarios::parse_scenario(text, kLabel);
  } catch (const crawlq::scenarios::ScenarioError& e) {
    check_message(e);
  }
  try {
    (void)crawlq::scenarios::parse_refresh_scenario(text, kLabel);
  } catch (const crawlq::scenarios::ScenarioError& e) {
    check_message(e);
  }
  return 0;
}
