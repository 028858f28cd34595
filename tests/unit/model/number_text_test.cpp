#include "model/number_text.hpp"

#include <catch2/catch.hpp>

using crawlq::model::parse_finite_number;
using crawlq::model::parse_whole_number;

TEST_CASE("numbers are read as people write them, in any locale", "[number_text]") {
  CHECK(parse_finite_number("0.3") == 0.3);
  CHECK(parse_finite_number("1e-1") == 0.1);
  CHECK(parse_finite_number("35e-2") == 0.35);
  CHECK(parse_finite_number("+2") == 2.0);
  CHECK(parse_finite_number(".5") == 0.5);
  CHECK(parse_finite_number("5.") == 5.0);
  CHECK(parse_finite_number(" 0.25 ") == 0.25);
  CHECK(parse_finite_number("-0.9") == -0.9);
  CHECK(parse_finite_number("\u22120.9") == -0.9);  // the minus sign of a copy from a PDF
  CHECK(parse_finite_number("1.5E+3") == 1500.0);
}

TEST_CASE("text that is not one finite number is refused", "[number_text]") {
  for (const char* text : {"", " ", "1,5", "inf", "-inf", "nan", ".inf", "0x10", "3x", "1 2", "+-1",
                           "\u2212-1", "--1", "1e400", "e3", "+"}) {
    INFO(text);
    CHECK_FALSE(parse_finite_number(text).has_value());
  }
}

TEST_CASE("whole numbers may be written with a point or an exponent", "[number_text]") {
  CHECK(parse_whole_number("12", 0, 100) == 12);
  CHECK(parse_whole_number("12.0", 0, 100) == 12);
  CHECK(parse_whole_number("1.2e1", 0, 100) == 12);
  CHECK(parse_whole_number("-1", -1, 100) == -1);
  CHECK_FALSE(parse_whole_number("2.5", 0, 100).has_value());
  CHECK_FALSE(parse_whole_number("101", 0, 100).has_value());
  CHECK_FALSE(parse_whole_number("1e300", 0, 100).has_value());
}

TEST_CASE("counted: one of a noun is singular, any other count plural", "[model]") {
  CHECK(crawlq::model::counted(1, "phase") == "1 phase");
  CHECK(crawlq::model::counted(0, "phase") == "0 phases");
  CHECK(crawlq::model::counted(3, "arrival phase") == "3 arrival phases");
  CHECK(crawlq::model::counted(2, "batch", "batches") == "2 batches");
  CHECK(crawlq::model::counted(1, "batch", "batches") == "1 batch");
}
