#pragma once
// Mutants of a scenario file's text for the command-line mutation test: one or two small edits of
// the kinds people and tools make (a line lost or doubled, a number at the edge of double, a list
// emptied, two keys swapped, a file cut short, an indentation off by a level, a huge capacity).
// Deterministic: the same seed and text give the same mutants on every platform (the generator is
// written out here; std::uniform_int_distribution is not specified bit for bit).
#include <cstdint>
#include <string>
#include <vector>

namespace crawlq::cli_test {

struct Mutant {
  std::string text;
  std::vector<std::string> edits;  // one line each, e.g. "line 14: '0.05' -> '1e308'"
};

class ScenarioMutator {
 public:
  explicit ScenarioMutator(std::uint64_t seed) : state_(seed) {}

  // One mutant of `original`: one edit, or two in a fifth of the mutants. Never `original` itself.
  Mutant mutate(const std::string& original);

 private:
  std::uint64_t next();              // splitmix64
  std::size_t below(std::size_t n);  // uniform enough in [0, n) for n far below 2^64
  bool edit(std::string& text, std::vector<std::string>& edits);

  std::uint64_t state_;
};

}  // namespace crawlq::cli_test
