// An enum's one table of names: each value's name parses back to it, a refusal lists every name in
// the table's order, and the tables the program keeps hold no name twice.
#include "model/name_table.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "tests/unit/model/name_table_checks.hpp"

using namespace crawlq;

namespace {

enum class Colour { kRed, kGreen, kBlue };
constexpr model::NameTable<Colour, 3> kColours{
    "colour", {{{Colour::kGreen, "green"}, {Colour::kRed, "red"}, {Colour::kBlue, "blue"}}}};

}  // namespace

TEST_CASE("name table: names, parses and lists in the table's order", "[model]") {
  CHECK(kColours.name(Colour::kBlue) == "blue");
  CHECK(kColours.parse("red") == Colour::kRed);
  CHECK(kColours.known() == "green, red, blue");
  CHECK(kColours.known(" | ") == "green | red | blue");
  CHECK_FALSE(kColours.contains("Red"));
  CHECK_THROWS_WITH(kColours.parse("Red"), "unknown colour 'Red' (known: green, red, blue)");
  CHECK_THROWS_WITH(kColours.parse(""), "unknown colour '' (known: green, red, blue)");
  testing::check_round_trip(kColours);
}
