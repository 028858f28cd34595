// Which requests the lab answers: addressed to it by an address or localhost on its port, from its
// own page when an origin is named, POSTs as JSON.
#include "server/lab_request_guard.hpp"

#include <catch2/catch.hpp>

namespace crawlq::server {
namespace {

GuardedRequest post_from_page(std::string host) {
  return {.method = "POST",
          .host = host,
          .origin = "http://" + host,
          .content_type = "application/json"};
}

TEST_CASE("the lab answers its own addresses on its port, and no other name", "[lab]") {
  for (const char* own : {"127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", "[::1]:8123",
                          "192.168.1.7:8123", "[fe80::1]:8123"})
    CHECK(is_own_host(own, 8123));
  for (const char* foreign : {"evil.example:8123", "127.0.0.1.nip.io:8123", "localhost.evil:8123",
                              "127.0.0.1:8124", "127.0.0.1", "localhost:", "[::1", "[::1]x:8123",
                              "", ":8123", "[evil]:8123", "127.0.0.1:8123:8123"})
    CHECK_FALSE(is_own_host(foreign, 8123));
  CHECK(is_own_host("127.0.0.1", 80));  // a browser leaves the default port out
}

TEST_CASE("a foreign Host or Origin is refused with 403, a page of its own is answered", "[lab]") {
  CHECK_FALSE(refuse_request(post_from_page("127.0.0.1:9000"), 9000));
  CHECK_FALSE(refuse_request(
      {.method = "GET", .host = "localhost:9000", .origin = {}, .content_type = ""}, 9000));

  const auto rebound = refuse_request(post_from_page("evil.example:9000"), 9000);
  REQUIRE(rebound);
  CHECK(rebound->status == 403);
  CHECK_THAT(rebound->message,
             Catch::Contains("evil.example") && Catch::Contains("127.0.0.1:9000"));

  GuardedRequest cross_site = post_from_page("127.0.0.1:9000");
  for (const char* origin : {"http://evil.example", "null", "https://127.0.0.1:9000",
                             "http://127.0.0.1:9001", "http://localhost:9000"}) {
    cross_site.origin = origin;
    const auto refusal = refuse_request(cross_site, 9000);
    REQUIRE(refusal);
    CHECK(refusal->status == 403);
  }
}

TEST_CASE("a POST that a foreign page could send without a preflight is refused", "[lab]") {
  GuardedRequest simple = post_from_page("127.0.0.1:9000");
  simple.origin.reset();
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", "", "application/jsonp"}) {
    simple.content_type = type;
    const auto refusal = refuse_request(simple, 9000);
    REQUIRE(refusal);
    CHECK(refusal->status == 400);
    CHECK_THAT(refusal->message, Catch::Contains("application/json"));
  }
  for (const char* type :
       {"application/json", "Application/JSON; charset=utf-8", "application/json ;charset=UTF-8"}) {
    simple.content_type = type;
    CHECK_FALSE(refuse_request(simple, 9000));
  }
  GuardedRequest preflight = post_from_page("127.0.0.1:9000");
  preflight.method = "OPTIONS";
  REQUIRE(refuse_request(preflight, 9000));
  CHECK(refuse_request(preflight, 9000)->status == 405);
}

TEST_CASE("a refusal quotes a hostile header without its control bytes", "[lab]") {
  const auto refusal = refuse_request(post_from_page(std::string("evil\r\nX: \xff:9000")), 9000);
  REQUIRE(refusal);
  CHECK(refusal->message.find('\r') == std::string::npos);
  CHECK(refusal->message.find('\xff') == std::string::npos);
}

}  // namespace
}  // namespace crawlq::server
