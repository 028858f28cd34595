#pragma once
// The `time_unit` key both kinds of scenario file take (model/time_unit.hpp says what it does).
#include <string>

#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

// The unit under `root`'s `time_unit`, in the singular; "" when the file names none. Throws
// model::InputError naming the key and the value when it is no word of letters.
std::string time_unit_key(const YamlReader& root);

}  // namespace crawlq::scenarios
