#pragma once
// What every name table must hold, for the tests of each layer that keeps one: each name parses
// back to its value, and no name is given twice.
#include <catch2/catch.hpp>
#include <set>
#include <string>

namespace crawlq::testing {

template <class Table>
void check_round_trip(const Table& table) {
  const auto names = table.names();
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  const auto values = table.values();
  REQUIRE(values.size() == names.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO(names[i]);
    CHECK(table.name(values[i]) == names[i]);
    CHECK(table.parse(names[i]) == values[i]);
    CHECK(table.contains(names[i]));
  }
}

}  // namespace crawlq::testing
