#pragma once
// A scenario's time unit (`time_unit: minute`): its rates are per that unit and its times in it, so
// every table that prints a time or a rate names it. A scenario without one speaks of "time units".
#include <optional>
#include <string>
#include <string_view>

namespace crawlq::model {

// The unit as a scenario writes it, in the singular and lower case ("Minutes" reads as "minute"):
// a word of 1 to 24 letters. Nothing when `written` is no such word.
std::optional<std::string> read_time_unit(std::string_view written);

// "minutes", or "time units" for a scenario that names none (`unit` empty); an abbreviation ("s",
// "ms", "min", "hr") stays as it is.
std::string time_unit_plural(std::string_view unit);
// "per minute", or "per unit time".
std::string per_time_unit(std::string_view unit);
// "1 minute" and "2.5 minutes": a duration with its unit, the number as {:.6g} writes it.
std::string duration_text(double value, std::string_view unit);

// What a printed measure is measured in, so a table can name the unit beside its value.
enum class MeasureUnit { kNone, kPagesPerTime, kTime };
// "pages per minute", "minutes", or "" for kNone.
std::string measure_unit_words(MeasureUnit measure, std::string_view unit);

}  // namespace crawlq::model
