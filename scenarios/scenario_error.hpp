#pragma once
// A broken rule of a scenario file, its name first: the one error every reader of scenarios/
// throws, from the YAML parse up to the loaders, so that none of them includes another for it.
#include <string>

#include "model/input_error.hpp"

namespace crawlq::scenarios {

class ScenarioError : public model::InputError {
 public:
  using model::InputError::InputError;
  std::string shown() const override { return what(); }
};

}  // namespace crawlq::scenarios
