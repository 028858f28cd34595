// libFuzzer harness of the readers of a value per state as CSV: the policy table
// (scenarios/policy_table.cpp) and the state distribution a transient starts from
// (scenarios/state_distribution.cpp). Any text goes in to both; each gives its column, or a
// model::InputError naming the file (refusal_check.hpp); anything else fails the run.
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenarios/policy_table.hpp"
#include "scenarios/state_distribution.hpp"
#include "tests/fuzz/refusal_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* kLabel = "fuzz.csv";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)crawlq::scenarios::parse_policy_table(text, kLabel);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  try {
    (void)crawlq::scenarios::parse_state_distribution(text, kLabel);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  return 0;
}
