// libFuzzer harness of the policy table reader (scenarios/policy_table.cpp): any text goes in; a
// column of robots values comes out, or a model::InputError naming the table (refusal_check.hpp);
// anything else fails the run.
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenarios/policy_table.hpp"
#include "tests/fuzz/refusal_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* kLabel = "fuzz.csv";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)crawlq::scenarios::parse_policy_table(text, kLabel);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  return 0;
}
