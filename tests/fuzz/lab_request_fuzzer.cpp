// libFuzzer harness of what the lab reads from a request before any route runs
// (server/lab_body.cpp, server/lab_request_guard.cpp): the body parsed with its bounds, and the
// Host, Origin and Content-Type headers judged. The input's first three lines are the headers, the
// rest the body. A body comes out as JSON that writes back as JSON, or as a model::InputError whose
// message is one line of UTF-8 (refusal_check.hpp); a refusal of the headers has such a message
// too; an answer quoting any bytes is JSON. Anything else fails the run.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "server/lab_body.hpp"
#include "server/lab_request_guard.hpp"
#include "tests/fuzz/refusal_check.hpp"

namespace {

std::string next_line(std::string& text) {
  const auto end = text.find('\n');
  std::string line = text.substr(0, end);
  text = end == std::string::npos ? "" : text.substr(end + 1);
  return line;
}

void require(bool holds, const char* what, const std::string& text) {
  if (holds) return;
  std::fprintf(stderr, "%s: [%s]\n", what, text.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string rest(reinterpret_cast<const char*>(data), size);
  crawlq::server::GuardedRequest request{.method = "POST",
                                         .host = next_line(rest),
                                         .origin = next_line(rest),
                                         .content_type = next_line(rest)};
  if (request.origin->empty()) request.origin.reset();
  if (const auto refusal = crawlq::server::refuse_request(request, 8080)) {
    require(refusal->status >= 400 && refusal->status < 500, "a refusal that is no 4xx",
            refusal->message);
    crawlq::fuzz::check_refusal(crawlq::model::InputError(refusal->message), {});
  }
  try {
    const nlohmann::json body = crawlq::server::parse_lab_body(rest);
    const std::string written = crawlq::server::safe_dump(body);
    require(nlohmann::json::parse(written) == body, "a body that does not write back as itself",
            written);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {});
  }
  // An answer may quote any bytes of the request: it is JSON whatever they are.
  const std::string answer = crawlq::server::error_body(rest);
  require(nlohmann::json::parse(answer).at("error").is_string(), "an answer that is not JSON",
          answer);
  return 0;
}
