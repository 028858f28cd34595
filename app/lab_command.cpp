#include "app/lab_command.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "api/json_output.hpp"
#include "api/request_schema.hpp"
#include "app/command_support.hpp"
#include "app/embedded_files.hpp"
#include "model/input_error.hpp"
#include "model/thread_count.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"
#include "server/lab_api.hpp"
#include "server/lab_body.hpp"
#include "server/lab_connections.hpp"
#include "server/lab_request_guard.hpp"
#include "server/lab_work_gate.hpp"

// Last: it brings <resolv.h>, whose `_res` macro breaks Eigen's headers included after it.
#include <httplib.h>

namespace crawlq::app {

// The lab's server lives in server/; this command starts it.
using server::ConnectionWatch;
using server::error_body;
using server::GuardedRequest;
using server::is_own_host;
using server::lab_describe;
using server::lab_landscape;
using server::lab_log_ensemble;
using server::lab_memory_budget;
using server::lab_optimize;
using server::lab_scenario_form;
using server::lab_simulation;
using server::lab_solve;
using server::lab_transient_simulation;
using server::LabBusy;
using server::LabCancelled;
using server::LabEmit;
using server::LabRun;
using server::parse_lab_body;
using server::refuse_request;
using server::safe_dump;
using server::WorkGate;
using server::WorkGateLimits;

namespace {

// Scenarios are a few kilobytes; a body far larger is refused (413) before it is read whole.
constexpr std::size_t kLargestBody = std::size_t{1} << 20;
// Worker threads: enough that slow or waiting clients leave some for the page; each long request
// also needs one of the gate's slots, so they do not all compute at once.
constexpr std::size_t kWorkers = 32;
// A connection that has not sent a whole request this long after its last one is closed.
constexpr std::chrono::seconds kRequestDeadline{10};
// Connections the kernel holds for the lab while every worker is busy (a burst of the page's
// requests, or several pages at once).
constexpr int kListenBacklog = 512;

struct LabOptions {
  std::vector<std::string> files;
  int port = 8080;
  std::string host = "127.0.0.1";
};

// The HTTP library fixes its listen backlog at 5 when it binds: a burst of connections beyond that
// is reset. Listening again on the bound socket sets a larger one.
class LabHttpServer : public httplib::Server {
 public:
  void widen_backlog(int backlog) { ::listen(svr_sock_, backlog); }
};

// Everything a request's handler shares: who is connected, and the admission of work.
struct LabServer {
  ConnectionWatch& connections;
  WorkGate& gate;
};

// The scenarios the page offers: the FILEs given, else the shipped ones built into the binary, the
// paper's first example first. Each in its YAML's JSON form, checked now: a broken FILE is refused
// before the server starts.
nlohmann::json offered_scenarios(const std::vector<std::string>& files) {
  nlohmann::json offered = nlohmann::json::array();
  const auto add = [&](const std::string& name, const std::string& text) {
    nlohmann::json body{{"scenario", scenarios::yaml_to_json(text, name)}, {"name", name}};
    lab_describe(body);   // the same rules as solve: refused here, not on the page
    body["text"] = text;  // the file as written, comments and all, for the page's editor
    offered.push_back(std::move(body));
  };
  if (!files.empty()) {
    for (const auto& file : files)
      add(file, scenarios::read_file(scenarios::locate_scenario(file)));
    return offered;
  }
  for (const char* shipped :
       {"paper-example-1", "teaching-two-robots", "teaching-hysteresis", "paper-real-data"})
    if (const EmbeddedFile* file = embedded_file(fmt::format("scenarios/{}.yaml", shipped)))
      add(shipped, std::string(file->content));
  return offered;
}

// The request's run: cancelled when its client leaves or the lab stops; admitted by the gate.
LabRun run_of(LabServer& lab, const ConnectionWatch::Busy& busy) {
  const api::Cancellation* cancel = busy.cancellation();
  return LabRun{.cancel = cancel,
                .admit =
                    [&lab, cancel](double bytes, bool long_work) {
                      return std::shared_ptr<void>(lab.gate.admit(bytes, long_work, cancel));
                    },
                .borrow_cores = [&lab](int at_most) { return lab.gate.lend_idle_slots(at_most); }};
}

// The status and message of a request that failed; never throws, and a message quoting bytes that
// are not UTF-8 still makes a body.
void refuse(httplib::Response& response, const std::exception_ptr& failure, bool cancelled) {
  int status = 500;
  std::string message;
  try {
    std::rethrow_exception(failure);
  } catch (const model::InputError& e) {
    status = 400, message = e.message();
  } catch (const LabBusy& e) {
    status = 503, message = e.what();
    response.set_header("Retry-After", "5");
  } catch (const LabCancelled& e) {
    status = 503, message = e.what();
  } catch (const api::Cancelled&) {
    status = 503, message = LabCancelled().what();
  } catch (const std::bad_alloc&) {
    status = 503,
    message =
        "the lab ran out of memory for this request beside the others: try again, or give a "
        "smaller capacity";
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "an unexpected failure";
  }
  if (cancelled && status == 500)
    status = 503, message = "cancelled: the client went away or the lab is stopping";
  response.status = status;
  response.set_content(error_body(message), "application/json");
}

// A POST route: the body read as bounded JSON, `answer` run on it with the request's run; every
// failure answered by `refuse`.
template <class Answer>
void post(httplib::Server& server, LabServer& lab, const std::string& path, Answer answer) {
  server.Post(path, [&lab, answer](const httplib::Request& request, httplib::Response& response) {
    const auto busy = lab.connections.busy(request.remote_addr, request.remote_port);
    try {
      const nlohmann::json reply = answer(parse_lab_body(request.body), run_of(lab, *busy));
      response.set_content(safe_dump(reply), "application/json");
    } catch (...) {
      refuse(response, std::current_exception(), *busy->cancellation());
    }
  });
}

// Server-sent events: "event: KIND" and "data: JSON" a message. Bad input is a 400 as for the other
// routes, before anything is sent; a failure after that ends the stream with an "error" event. The
// connection counts as busy until the stream ends, so that a page that leaves stops it.
void stream_simulation(LabServer& lab, const httplib::Request& request,
                       httplib::Response& response) {
  std::shared_ptr<ConnectionWatch::Busy> busy =
      lab.connections.busy(request.remote_addr, request.remote_port);
  std::function<void(const LabEmit&)> run;
  try {
    run = lab_simulation(parse_lab_body(request.body), run_of(lab, *busy));
  } catch (...) {
    refuse(response, std::current_exception(), *busy->cancellation());
    return;
  }
  response.set_header("Cache-Control", "no-store");
  response.set_chunked_content_provider(
      "text/event-stream", [run, busy](std::size_t, httplib::DataSink& sink) {
        const auto send = [&sink, &busy](const std::string& kind, const nlohmann::json& data) {
          const std::string message = fmt::format("event: {}\ndata: {}\n\n", kind, safe_dump(data));
          return !*busy->cancellation() && sink.is_writable() &&
                 sink.write(message.data(), message.size());
        };
        try {
          run(send);
        } catch (const std::exception& e) {
          send("error", {{"error", e.what()}});
        }
        sink.done();
        return true;
      });
}

void serve_file(httplib::Server& server, const std::string& path, const std::string& name,
                const char* type) {
  server.Get(path, [name, type](const httplib::Request&, httplib::Response& response) {
    const EmbeddedFile* file = embedded_file(name);
    if (!file) {
      response.status = 404;
      return;
    }
    response.set_content(std::string(file->content), type);
  });
}

// Host, Origin and Content-Type checked before any route (lab_request_guard.hpp).
void guard_requests(httplib::Server& server, int port) {
  server.set_pre_routing_handler(
      [port](const httplib::Request& request, httplib::Response& response) {
        GuardedRequest guarded{.method = request.method,
                               .host = request.get_header_value("Host"),
                               .origin = std::nullopt,
                               .content_type = request.get_header_value("Content-Type")};
        if (request.has_header("Origin")) guarded.origin = request.get_header_value("Origin");
        const auto refusal = refuse_request(guarded, port);
        if (!refusal) return httplib::Server::HandlerResponse::Unhandled;
        response.status = refusal->status;
        response.set_content(error_body(refusal->message), "application/json");
        return httplib::Server::HandlerResponse::Handled;
      });
  // The library's own refusals (413 for a body too large, 404, 400 for a broken request) with a
  // message, as the routes' own.
  server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
    if (!response.body.empty()) return;
    std::string message = fmt::format("{} {}: no such page or route", request.method, request.path);
    if (response.status == 413)
      message = fmt::format("the request's body is larger than {} KiB: no request needs that",
                            kLargestBody >> 10);
    else if (response.status != 404)
      message = fmt::format("the request could not be read (HTTP {})", response.status);
    response.set_content(error_body(message), "application/json");
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& response, std::exception_ptr failure) {
        refuse(response, failure, false);
      });
}

int run(const LabOptions& o) {
  // Blocked before any thread starts, so that every thread inherits the mask. Ctrl-C and SIGTERM
  // stop the server from a thread that waits for them, not from a handler: every request's work is
  // cancelled, and what has not ended a second later is not waited for.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  const nlohmann::json offered = offered_scenarios(o.files);
  LabHttpServer server;
  server.set_payload_max_length(kLargestBody);
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
  // SO_REUSEADDR alone: httplib's default adds SO_REUSEPORT, with which a second lab would share
  // the port of a running one instead of being refused.
  server.set_socket_options([](socket_t socket) {
    const int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  int port = o.port;
  if (port == 0) {
    port = server.bind_to_any_port(o.host);
  } else if (!server.bind_to_port(o.host, port)) {
    port = -1;
  }
  if (port < 0)
    throw UsageError(
        fmt::format("--port {}: cannot listen on {}:{} (in use, or not an address of this machine)",
                    o.port, o.host, o.port));
  server.widen_backlog(kListenBacklog);
  // Threads' stacks and malloc's arenas count against an address-space limit before any work.
  mallopt(M_ARENA_MAX, 4);
  WorkGate gate({.memory_bytes = lab_memory_budget(kWorkers * 8.0 * (1 << 20)),
                 .long_slots = model::available_cores(),
                 .most_waiting = 16,
                 .longest_wait = std::chrono::seconds(60)});
  ConnectionWatch connections(port, kRequestDeadline);
  LabServer lab{connections, gate};

  guard_requests(server, port);
  serve_file(server, "/", "index.html", "text/html; charset=utf-8");
  // The page's script: lab.js and the ES modules it imports, each built in as lab/NAME.js.
  for (const EmbeddedFile& file : embedded_files())
    if (file.name.ends_with(".js"))
      serve_file(server, "/" + std::string(file.name), std::string(file.name),
                 "text/javascript; charset=utf-8");
  serve_file(server, "/lab.css", "lab.css", "text/css; charset=utf-8");
  server.Get("/api/measures", [](const httplib::Request&, httplib::Response& response) {
    response.set_content(safe_dump(api::measure_list_json()), "application/json");
  });
  server.Get("/api/scenarios", [offered](const httplib::Request&, httplib::Response& response) {
    response.set_content(safe_dump(nlohmann::json{{"scenarios", offered}}), "application/json");
  });
  // The routes of requests read by the schema take their paths from it.
  const auto route = [](api::RequestKind kind) { return std::string(api::lab_route(kind)); };
  post(server, lab, route(api::RequestKind::kSolve),
       [](const nlohmann::json& body, const LabRun& r) { return lab_solve(body, r); });
  post(server, lab, route(api::RequestKind::kTransientSimulation),
       [](const nlohmann::json& body, const LabRun& r) {
         return lab_transient_simulation(body, r);
       });
  post(server, lab, route(api::RequestKind::kOptimize),
       [](const nlohmann::json& body, const LabRun& r) { return lab_optimize(body, r); });
  post(server, lab, "/api/describe",
       [](const nlohmann::json& body, const LabRun&) { return lab_describe(body); });
  post(server, lab, "/api/scenario-form",
       [](const nlohmann::json& body, const LabRun&) { return lab_scenario_form(body); });
  post(server, lab, route(api::RequestKind::kLandscape),
       [](const nlohmann::json& body, const LabRun& r) { return lab_landscape(body, r); });
  post(server, lab, "/api/log-ensemble",
       [](const nlohmann::json& body, const LabRun& r) { return lab_log_ensemble(body, r); });
  server.Post(route(api::RequestKind::kLiveSimulation),
              [&lab](const httplib::Request& request, httplib::Response& response) {
                stream_simulation(lab, request, response);
              });

  std::atomic<bool> served{false};
  std::thread watcher([&] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    if (served) return;  // woken by the main thread: the server stopped some other way
    connections.stop_all();
    gate.wake_all();
    server.stop();
    for (int waited = 0; waited < 100 && !served; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!served) {
      std::fflush(stdout);
      std::_Exit(0);
    }
  });
  const std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  fmt::print("crawlq lab: open http://{}:{}/  ({} scenario{}; Ctrl-C stops it)\n", host, port,
             offered.size(), offered.size() == 1 ? "" : "s");
  std::fflush(stdout);
  server.listen_after_bind();
  served = true;
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  return 0;
}

}  // namespace

std::function<int()> add_lab_command(CLI::App& app) {
  auto o = std::make_shared<LabOptions>();
  CLI::App* cmd =
      app.add_subcommand("lab",
                         "An interactive page for teaching and exploring, served on this machine: "
                         "sliders for the capacity,\n"
                         "the scales and the costs, the policy as bars to drag, the exact measures "
                         "and cost as they change,\n"
                         "the cost landscape over two thresholds, and a guess-the-optimum mode. "
                         "Open the printed address in a\n"
                         "browser. The page's JSON API (POST /api/solve, /api/optimize, "
                         "/api/describe, /api/landscape) answers\n"
                         "what the commands of the same name print with --json; POST /api/simulate "
                         "streams a sample path\n"
                         "and running estimates (server-sent events); POST "
                         "/api/transient-simulation answers simulate --times --json.\n"
                         "Examples: crawlq lab\n"
                         "          crawlq lab paper-example-1 --port 9000");
  add_scenario_argument(cmd, o->files)
      ->description(
          "scenarios to offer, files or shipped names (default: four shipped ones, the paper's first "
          "example first)");
  cmd->add_option("--port", o->port, "port to listen on (0: any free one, printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--host", o->host,
                  "address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)")
      ->capture_default_str();
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
