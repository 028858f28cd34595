#include "api/scenario_source.hpp"

#include <stdexcept>

#include "model/input_error.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::api {

scenarios::Scenario read_scenario(const ScenarioSource& source) {
  scenarios::Scenario read = scenarios::parse_scenario(source.text, source.label, source.directory);
  for (const auto& [name, value] : source.changes) {
    try {
      const validation::SweepParameter parameter = validation::parse_sweep_parameter(name);
      validation::require_applicable(read.model, parameter);
      read.model = validation::with_parameter(read.model, parameter, value);
    } catch (const std::invalid_argument& e) {
      throw model::InputError(source.label, e.what());
    }
  }
  return read;
}

}  // namespace crawlq::api
