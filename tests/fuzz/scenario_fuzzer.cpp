// libFuzzer harness of the two scenario loaders (scenarios/scenario_loader.cpp and
// scenarios/refresh_loader.cpp): any text goes in; a model comes out, or a ScenarioError (the
// documented answer to bad input, which wraps model::InputError) whose message is one line of UTF-8
// that starts with the label, as the command line prints it (refusal_check.hpp). Anything else
// fails the run: another exception (uncaught, so std::terminate aborts), a crash, a failed
// assertion (kept on in this build), or an ASan/UBSan report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/fuzz/refusal_check.hpp"

namespace {
constexpr const char* kLabel = "fuzz.yaml";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)crawlq::scenarios::parse_scenario(text, kLabel);
  } catch (const crawlq::scenarios::ScenarioError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  try {
    (void)crawlq::scenarios::parse_refresh_scenario(text, kLabel);
  } catch (const crawlq::scenarios::ScenarioError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  return 0;
}
