// What the lab reads from a body and writes back: nesting refused while parsing, numbers a double
// cannot hold refused, answers written whatever bytes a message quotes.
#include "server/lab_body.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "model/input_error.hpp"

namespace crawlq::server {
namespace {

std::string refusal_of(const std::string& text) {
  try {
    parse_lab_body(text);
  } catch (const model::InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("nesting beyond the limit is refused while parsing, at any depth up to millions",
          "[lab]") {
  for (const std::size_t depth :
       {std::size_t{kMostBodyNesting + 1}, std::size_t{60'000}, std::size_t{2'000'000}}) {
    const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    CHECK_THAT(refusal_of(arrays), Catch::Contains("nests"));
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += '1';  // "1" + std::string(...) trips g++ 12's -Wrestrict false alarm
    objects.append(depth, '}');
    CHECK_THAT(refusal_of(objects), Catch::Contains("nests"));
  }
  // Deep but within the limit: read whole.
  const std::string within =
      std::string(kMostBodyNesting, '[') + std::string(kMostBodyNesting, ']');
  CHECK(parse_lab_body(within).is_array());
  CHECK(parse_lab_body(R"({"scenario": {"arrivals": {"modes": [{"D": [[[-1]], [[1]]]}]}}})")
            .is_object());
}

TEST_CASE("a number no double holds, and text that is not JSON, are refused with a reason",
          "[lab]") {
  CHECK_THAT(refusal_of(R"({"seed": 1e999})"), Catch::Contains("too large"));
  CHECK_THAT(refusal_of(R"({"seed": -1e400})"), Catch::Contains("too large"));
  CHECK_THAT(refusal_of("{\"name\": \"\xff\"}"), Catch::Contains("not JSON"));
  CHECK_THAT(refusal_of("{\"name\": \"\xe2\x82\"}"),
             Catch::Contains("not JSON"));  // a character cut short
  CHECK_THAT(refusal_of(""), Catch::Contains("not JSON"));
  CHECK_THAT(refusal_of("{} {}"), Catch::Contains("not JSON"));
  CHECK(parse_lab_body(R"({"seed": 1e300})").at("seed").get<double>() == 1e300);
}

TEST_CASE("an answer quoting bytes that are not UTF-8 is still written", "[lab]") {
  const std::string body = error_body("line 1: '\xff\xfe' and a cut \xe2\x82");
  const auto read = nlohmann::json::parse(body);
  CHECK_THAT(read.at("error").get<std::string>(), Catch::StartsWith("line 1: '"));
  CHECK(safe_dump(nlohmann::json("plain")) == "\"plain\"");
}

}  // namespace
}  // namespace crawlq::server
