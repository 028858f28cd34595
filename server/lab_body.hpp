#pragma once
// What the lab reads from a request and writes back, bounded so that no body can crash the server:
// JSON nested deeper than any request needs is refused while it is parsed (the recursive dump of a
// deep document would exhaust the stack), numbers that no double holds are refused, and every
// answer serialises whatever bytes a message quotes.
#include <nlohmann/json.hpp>
#include <string>

namespace crawlq::server {

// Objects and arrays nested deeper than this are refused: a scenario needs five.
inline constexpr int kMostBodyNesting = 32;

// The body as JSON; model::InputError saying why when it is not JSON, nests too deep, or holds a
// number out of a double's range.
nlohmann::json parse_lab_body(const std::string& text);

// {"error": message} as text; bytes that are not UTF-8 are replaced, never thrown on.
std::string error_body(const std::string& message);
// `value` as text, with bytes that are not UTF-8 replaced (a message may quote such bytes).
std::string safe_dump(const nlohmann::json& value);

}  // namespace crawlq::server
