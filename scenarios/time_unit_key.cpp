#include "scenarios/time_unit_key.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"
#include "model/time_unit.hpp"

namespace crawlq::scenarios {

std::string time_unit_key(const YamlReader& root) {
  if (!root.has("time_unit")) return {};
  const YamlReader written = root.at("time_unit");
  const auto unit = model::read_time_unit(written.text());
  if (!unit)
    throw model::InputError(
        written.path(),
        fmt::format(
            "{}: name the unit of time as one word of letters, such as second, minute, hour "
            "or day",
            written.shown()));
  return *unit;
}

}  // namespace crawlq::scenarios
