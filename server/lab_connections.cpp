#include "server/lab_connections.hpp"

#include <dirent.h>
#include <netdb.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <optional>
#include <set>
#include <vector>

namespace crawlq::server {

namespace {

// How often the watch looks: a client's departure is seen within this.
constexpr std::chrono::milliseconds kLookEvery{100};

struct Endpoint {
  std::string ip;
  int port = -1;
};

// Numeric host and port, as the HTTP library writes a request's remote address.
Endpoint endpoint_of(const sockaddr_storage& address, socklen_t length) {
  char host[NI_MAXHOST] = {}, service[NI_MAXSERV] = {};
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, host, sizeof host, service,
                  sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return {};
  return {host, std::atoi(service)};
}

std::string key_of(const std::string& ip, int port) { return ip + " " + std::to_string(port); }

struct Connection {
  int descriptor;
  std::string peer;
};

// The peer ("ip port") of `descriptor` when it is a connection whose local end is on `port`.
std::optional<std::string> peer_on(int descriptor, int port) {
  sockaddr_storage local{}, remote{};
  socklen_t local_length = sizeof local, remote_length = sizeof remote;
  if (getsockname(descriptor, reinterpret_cast<sockaddr*>(&local), &local_length) != 0 ||
      getpeername(descriptor, reinterpret_cast<sockaddr*>(&remote), &remote_length) != 0)
    return std::nullopt;  // the listening socket has no peer
  if (endpoint_of(local, local_length).port != port) return std::nullopt;
  const Endpoint peer = endpoint_of(remote, remote_length);
  if (peer.port < 0) return std::nullopt;
  return key_of(peer.ip, peer.port);
}

// The connected sockets of this process whose local end is on `port`.
std::vector<Connection> connections_on(int port) {
  std::vector<Connection> found;
  DIR* directory = opendir("/proc/self/fd");
  if (!directory) return found;
  while (const dirent* entry = readdir(directory)) {
    char* end = nullptr;
    const long descriptor = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || descriptor == dirfd(directory)) continue;
    const int fd = static_cast<int>(descriptor);
    struct stat status {};
    if (fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode)) continue;
    if (auto peer = peer_on(fd, port)) found.push_back({fd, std::move(*peer)});
  }
  closedir(directory);
  return found;
}

// Bytes have arrived that nobody has read yet: the connection waits for a worker, through no fault
// of its client (a worker reading a slow client takes each byte as it comes).
bool has_unread_input(int descriptor) {
  int unread = 0;
  return ioctl(descriptor, FIONREAD, &unread) == 0 && unread > 0;
}

// The client closed its end (or the connection broke): nothing it sent is left to read, and nobody
// will read the answer.
bool hung_up(int descriptor) {
  pollfd watched{.fd = descriptor, .events = POLLRDHUP, .revents = 0};
  return poll(&watched, 1, 0) > 0 && (watched.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

}  // namespace

ConnectionWatch::ConnectionWatch(int port, std::chrono::milliseconds request_deadline)
    : port_(port), request_deadline_(request_deadline), thread_([this] { watch(); }) {}

ConnectionWatch::~ConnectionWatch() {
  ended_ = true;
  thread_.join();
}

ConnectionWatch::Busy::Busy(ConnectionWatch& watch, std::string peer)
    : watch_(watch), peer_(std::move(peer)) {
  std::lock_guard lock(watch_.mutex_);
  Seen& seen = watch_.connections_[peer_];
  seen.busy = this;
  seen.last_activity = std::chrono::steady_clock::now();
  if (watch_.stopping_) cancel_ = true;
}

ConnectionWatch::Busy::~Busy() {
  std::lock_guard lock(watch_.mutex_);
  const auto seen = watch_.connections_.find(peer_);
  if (seen != watch_.connections_.end() && seen->second.busy == this) {
    seen->second.busy = nullptr;
    seen->second.last_activity = std::chrono::steady_clock::now();
  }
}

std::unique_ptr<ConnectionWatch::Busy> ConnectionWatch::busy(const std::string& peer_ip,
                                                             int peer_port) {
  return std::make_unique<Busy>(*this, key_of(peer_ip, peer_port));
}

void ConnectionWatch::stop_all() {
  stopping_ = true;
  std::lock_guard lock(mutex_);
  for (auto& [peer, seen] : connections_)
    if (seen.busy) seen.busy->cancel_ = true;
}

void ConnectionWatch::watch() {
  while (!ended_) {
    look_once();
    std::this_thread::sleep_for(kLookEvery);
  }
}

void ConnectionWatch::look_once() {
  const auto now = std::chrono::steady_clock::now();
  const std::vector<Connection> open = connections_on(port_);
  std::lock_guard lock(mutex_);
  std::set<std::string> still_open;
  for (const Connection& c : open) {
    still_open.insert(c.peer);
    auto [seen, added] = connections_.try_emplace(c.peer, Seen{now, nullptr});
    if (seen->second.busy) {
      if (hung_up(c.descriptor)) seen->second.busy->cancel_ = true;
    } else if (has_unread_input(c.descriptor)) {
      seen->second.last_activity = now;
    } else if (now - seen->second.last_activity > request_deadline_) {
      // Wakes the worker blocked reading it; the library then closes it. The descriptor is still
      // this connection's: it is closed only by that worker, which is blocked or about to be.
      // Still this connection: its worker may have closed it since, and a new one taken the number.
      if (peer_on(c.descriptor, port_) == c.peer) shutdown(c.descriptor, SHUT_RDWR);
    }
  }
  for (auto seen = connections_.begin(); seen != connections_.end();) {
    if (still_open.count(seen->first)) {
      ++seen;
    } else if (seen->second.busy) {
      // Gone entirely, its answer has nowhere to go; unless it registered after the listing.
      if (seen->second.last_activity < now) seen->second.busy->cancel_ = true;
      ++seen;
    } else {
      seen = connections_.erase(seen);
    }
  }
}

}  // namespace crawlq::server
