#pragma once
// A distribution over the chain's states as a file: the CSV `solve --export` writes (columns level,
// arrival_phase, service_phase, clock_1.., probability; one line per state in the engine's order),
// read back as a transient's start. The state columns give the chain's dimensions, so that a file
// of another chain is refused naming the dimension that differs.
#include <filesystem>
#include <string>
#include <vector>

namespace crawlq::scenarios {

struct StateDistribution {
  std::vector<double> probability;  // in file order
  // The largest level, and how many arrival (environment), service and clock phases the columns
  // name (each the largest value plus one; 1 where no state names one).
  int capacity = 0, arrival_phases = 1, service_phases = 1, clock_phases = 1;
};

// Throws model::InputError naming the file and line for a file that cannot be read, a header
// without `level` or `probability`, a value that is not a number (or a probability below 0 or above
// 1), a state column that is not a whole number, or probabilities that do not sum to 1 within 1e-6.
StateDistribution read_state_distribution(const std::filesystem::path& file);
StateDistribution parse_state_distribution(const std::string& text, const std::string& label);

}  // namespace crawlq::scenarios
