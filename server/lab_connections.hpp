#pragma once
// The lab's view of its clients' connections, which the HTTP library keeps to itself: a thread that
// finds each connection's socket among this process's descriptors (by its two ends) and
//   - cancels the work of a request whose client has gone (a closed tab stops its optimisation),
//   - closes a connection that has sent no whole request for a while (a slow client that trickles
//     bytes would otherwise hold a worker thread for hours),
//   - cancels every request at once when the lab stops.
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/solve_request.hpp"

namespace crawlq::server {

class ConnectionWatch {
 public:
  // Watches the connections accepted on local `port`; one whose request has not arrived whole
  // within `request_deadline` of its last activity is closed. Activity: the end of a request, or
  // input waiting unread (for a worker, while every worker is busy).
  ConnectionWatch(int port, std::chrono::milliseconds request_deadline);
  ~ConnectionWatch();
  ConnectionWatch(const ConnectionWatch&) = delete;
  ConnectionWatch& operator=(const ConnectionWatch&) = delete;

  // The request from `peer_ip`:`peer_port` is being answered while the returned guard lives; its
  // cancellation (owned by the guard) is set when that client hangs up or the lab stops.
  class Busy {
   public:
    Busy(ConnectionWatch& watch, std::string peer);
    ~Busy();
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
    const api::Cancellation* cancellation() const { return &cancel_; }

   private:
    friend class ConnectionWatch;
    ConnectionWatch& watch_;
    std::string peer_;
    api::Cancellation cancel_{false};
  };
  std::unique_ptr<Busy> busy(const std::string& peer_ip, int peer_port);

  // Sets every cancellation, now and for requests that start later.
  void stop_all();
  bool stopping() const { return stopping_; }

 private:
  void watch();
  void look_once();

  struct Seen {
    std::chrono::steady_clock::time_point last_activity;
    Busy* busy = nullptr;
  };
  int port_;
  std::chrono::milliseconds request_deadline_;
  std::mutex mutex_;
  std::map<std::string, Seen> connections_;  // by the peer's "ip port"
  std::atomic<bool> stopping_{false}, ended_{false};
  std::thread thread_;
};

}  // namespace crawlq::server
