#pragma once
// The paper's first example (scenarios/data/paper-example-1.yaml) at another capacity: the model
// most tests scale, with no policy of its own (the file's thresholds fit K = 5 alone).
#include "model/model.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::test_support {

inline model::Model paper_example_at(int capacity) {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = capacity;
  m.policy.reset();
  return m;
}

}  // namespace crawlq::test_support
