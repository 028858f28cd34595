#include "server/lab_body.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"

namespace crawlq::server {

namespace {

// The JSON library's reason without its "[json.exception.parse_error.101] " tag, which means
// nothing to the page's user.
std::string reason(const nlohmann::json::exception& e) {
  const std::string text = e.what();
  const auto tag_end = text.find("] ");
  return text.starts_with("[json.exception.") && tag_end != std::string::npos
             ? text.substr(tag_end + 2)
             : text;
}

}  // namespace

nlohmann::json parse_lab_body(const std::string& text) {
  // The callback parser is iterative, so the depth is seen before anything recursive runs.
  const nlohmann::json::parser_callback_t bounded =
      [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if ((event == nlohmann::json::parse_event_t::object_start ||
             event == nlohmann::json::parse_event_t::array_start) &&
            depth >= kMostBodyNesting)
          throw model::InputError(fmt::format(
              "the request's body nests lists or objects more than {} deep: no request needs that",
              kMostBodyNesting));
        return true;
      };
  try {
    return nlohmann::json::parse(text, bounded);
  } catch (const nlohmann::json::out_of_range& e) {
    // 406: a number such as 1e999 that JSON can write and no double can hold.
    throw model::InputError(
        fmt::format("the request's body holds a number too large for a double: {}", reason(e)));
  } catch (const nlohmann::json::exception& e) {
    throw model::InputError(fmt::format("the request's body is not JSON: {}", reason(e)));
  }
}

std::string safe_dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string error_body(const std::string& message) {
  return safe_dump(nlohmann::json{{"error", message}});
}

}  // namespace crawlq::server
