#pragma once
// How much of a slow test to run. Under AddressSanitizer and UBSan (-DCRAWLQ_SANITIZE=ON, or the
// clang build of -DCRAWLQ_FUZZ=ON) crawlq runs 2 to 8 times slower, and CI runs that build after
// the normal one: a slow test that would not fit there runs a smaller share of its cases (the first
// ones, the same checks), never none. CRAWLQ_SANITIZED is set for every test target by
// tests/CMakeLists.txt.
namespace crawlq::testing {

inline constexpr bool kSanitized = CRAWLQ_SANITIZED != 0;

// `full` in a normal build, `sanitized` (smaller, never zero) under the sanitizers.
template <class T>
constexpr T budget(T full, T sanitized) {
  return kSanitized ? sanitized : full;
}

}  // namespace crawlq::testing
