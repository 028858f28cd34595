#pragma once
// `describe` as a request: the model in numbers (per mode the BMAP's rates, batch and correlation;
// the PH laws as the engines use them; the state count), the JSON of `crawlq describe --json`.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace crawlq::api {

struct DescribeRequest {
  model::Model model;
  std::vector<std::string> repairs;  // what `repair-diagonal` changed, one line each
};

// Counted, never enumerated: answers at once for chains far too large to solve.
nlohmann::json describe(const DescribeRequest& request);

}  // namespace crawlq::api
