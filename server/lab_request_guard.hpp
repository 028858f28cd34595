#pragma once
// Which requests the lab answers. Any page the user's browser opens can send requests to a server
// on this machine: a cross-site form or `text/plain` POST reaches it without a preflight, and a
// page whose own name is made to resolve to 127.0.0.1 (DNS rebinding) can read the answers. So the
// lab answers only requests addressed to it by an address (Host: an IP literal or `localhost`, with
// its port), coming from its own page when a browser names an origin, and POSTs only as
// application/json (which a foreign page cannot send without a preflight, and the lab answers no
// preflight).
#include <optional>
#include <string>

namespace crawlq::server {

struct GuardedRequest {
  std::string method;                 // "GET", "POST", ...
  std::string host;                   // the Host header, empty when absent
  std::optional<std::string> origin;  // the Origin header, when sent
  std::string content_type;           // the Content-Type header, empty when absent
};

struct GuardRefusal {
  int status = 403;
  std::string message;
};

// Why the lab, listening on `port`, refuses `request`; nothing when it answers it.
std::optional<GuardRefusal> refuse_request(const GuardedRequest& request, int port);

// True when `host` ("name:port", "[v6]:port", or a bare name on port 80) names this server by an
// address or `localhost`, on `port`.
bool is_own_host(const std::string& host, int port);

}  // namespace crawlq::server
