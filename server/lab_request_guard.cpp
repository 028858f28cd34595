#include "server/lab_request_guard.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "scenarios/yaml_reader.hpp"

namespace crawlq::server {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A name made of an address cannot be rebound by DNS; `localhost` resolves on this machine alone.
bool is_address_or_localhost(const std::string& name, bool bracketed) {
  if (bracketed) {
    in6_addr v6{};
    return inet_pton(AF_INET6, name.c_str(), &v6) == 1;
  }
  in_addr v4{};
  return name == "localhost" || inet_pton(AF_INET, name.c_str(), &v4) == 1;
}

}  // namespace

bool is_own_host(const std::string& host_header, int port) {
  const std::string host = lower(host_header);
  std::string name, port_text;
  bool bracketed = false;
  if (host.starts_with("[")) {
    const auto close = host.find(']');
    if (close == std::string::npos) return false;
    name = host.substr(1, close - 1);
    bracketed = true;
    const std::string rest = host.substr(close + 1);
    if (!rest.empty()) {
      if (!rest.starts_with(":")) return false;
      port_text = rest.substr(1);
    }
  } else {
    const auto colon = host.rfind(':');
    name = host.substr(0, colon);
    if (colon != std::string::npos) port_text = host.substr(colon + 1);
  }
  if (!is_address_or_localhost(name, bracketed)) return false;
  if (port_text.empty()) return port == 80;
  return port_text == std::to_string(port);
}

std::optional<GuardRefusal> refuse_request(const GuardedRequest& request, int port) {
  if (!is_own_host(request.host, port))
    return GuardRefusal{403,
                        fmt::format("Host '{}' is not this lab: open it as http://127.0.0.1:{}/ "
                                    "(or localhost); another name could be a foreign page's",
                                    scenarios::shortened(request.host), port)};
  if (request.origin) {
    const std::string origin = lower(*request.origin);
    if (!origin.starts_with("http://") || origin.substr(7) != lower(request.host))
      return GuardRefusal{
          403,
          fmt::format("requests from '{}' are refused: only the lab's own page "
                      "(http://{}) may call its API",
                      scenarios::shortened(*request.origin), scenarios::shortened(request.host))};
  }
  if (request.method == "POST") {
    const std::string type = lower(request.content_type);
    std::string essence = type.substr(0, type.find(';'));
    essence.erase(std::remove_if(essence.begin(), essence.end(),
                                 [](unsigned char c) { return std::isspace(c); }),
                  essence.end());
    if (essence != "application/json")
      return GuardRefusal{400,
                          fmt::format("send the body as Content-Type: application/json (got '{}')",
                                      scenarios::shortened(request.content_type))};
  }
  if (request.method != "GET" && request.method != "POST" && request.method != "HEAD")
    return GuardRefusal{405, fmt::format("{}: the lab answers GET and POST only",
                                         scenarios::shortened(request.method))};
  return std::nullopt;
}

}  // namespace crawlq::server
