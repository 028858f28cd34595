// A scenario's time unit read and printed: singular in, plural out, abbreviations kept.
#include "model/time_unit.hpp"

#include <catch2/catch.hpp>

namespace crawlq::model {
namespace {

TEST_CASE("time unit: read in the singular and lower case, refused unless one word of letters",
          "[model][time-unit]") {
  CHECK(read_time_unit("minute") == "minute");
  CHECK(read_time_unit("Minutes") == "minute");
  CHECK(read_time_unit("days") == "day");
  CHECK(read_time_unit("ms") == "ms");
  CHECK(read_time_unit("hrs") == "hrs");
  CHECK(read_time_unit("s") == "s");
  for (const char* refused : {"", "min.", "two words", "5", "abcdefghijklmnopqrstuvwxy"}) {
    INFO(refused);
    CHECK_FALSE(read_time_unit(refused));
  }
  CHECK(read_time_unit("abcdefghijklmnopqrstuvwx") == "abcdefghijklmnopqrstuvwx");  // 24 letters
}

TEST_CASE("time unit: plurals, rates and durations in words", "[model][time-unit]") {
  CHECK(time_unit_plural("day") == "days");
  CHECK(time_unit_plural("minute") == "minutes");
  CHECK(time_unit_plural("ms") == "ms");
  CHECK(time_unit_plural("min") == "min");
  CHECK(time_unit_plural("hrs") == "hrs");
  CHECK(time_unit_plural("yrs") == "yrs");  // kept plural by read_time_unit, not "yrss"
  CHECK(time_unit_plural("") == "time units");
  CHECK(per_time_unit("hour") == "per hour");
  CHECK(per_time_unit("") == "per unit time");
  CHECK(duration_text(1, "day") == "1 day");
  CHECK(duration_text(1, "") == "1 time unit");
  CHECK(duration_text(2.5, "day") == "2.5 days");
  CHECK(duration_text(0, "") == "0 time units");
  CHECK(measure_unit_words(MeasureUnit::kPagesPerTime, "second") == "pages per second");
  CHECK(measure_unit_words(MeasureUnit::kTime, "second") == "seconds");
  CHECK(measure_unit_words(MeasureUnit::kNone, "second").empty());
}

}  // namespace
}  // namespace crawlq::model
