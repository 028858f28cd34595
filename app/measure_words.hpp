#pragma once
// One vocabulary for every table: what solve prints for a measure and a policy, validate and
// simulate print too. The JSON keys stay in --json.
#include <string>
#include <string_view>

#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::app {

// A measure by its JSON key, as the tables name it: "lost at a full buffer (P_loss)", "P(level 2)",
// "P(3 robots active)", a transient's "pages lost per minute"; the key itself when unknown.
std::string measure_words(std::string_view key, std::string_view time_unit);

// A policy of any form in one line: "robots per level 4 4 4 1 1 (thresholds 2,2,2)",
// "hysteresis, 2 robots until level 4, then 1 until level 1", ...
std::string policy_words(const model::ControlPolicy& policy);
// The same, or each piece's where the model runs a policy per piece of its rhythm.
std::string policy_words(const model::Model& model, const model::ControlPolicy& policy);

}  // namespace crawlq::app
