#include "app/lab_command.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/command_support.hpp"
#include "app/embedded_files.hpp"
#include "app/lab_api.hpp"
#include "model/input_error.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"

// Last: it brings <resolv.h>, whose `_res` macro breaks Eigen's headers included after it.
#include <httplib.h>

namespace crawlq::app {

namespace {

// Scenarios are a few kilobytes; a body far larger is refused (413) before it is read whole.
constexpr std::size_t kLargestBody = std::size_t{1} << 20;

struct LabOptions {
  std::vector<std::string> files;
  int port = 8080;
  std::string host = "127.0.0.1";
};

// The scenarios the page offers: the FILEs given, else the shipped ones built into the binary, the
// paper's first example first. Each in its YAML's JSON form, checked now: a broken FILE is refused
// before the server starts.
nlohmann::json offered_scenarios(const std::vector<std::string>& files) {
  nlohmann::json offered = nlohmann::json::array();
  const auto add = [&](const std::string& name, const std::string& text) {
    nlohmann::json body{{"scenario", scenarios::yaml_to_json(text, name)}, {"name", name}};
    lab_describe(body);  // the same rules as solve: refused here, not on the page
    offered.push_back(std::move(body));
  };
  if (!files.empty()) {
    for (const auto& file : files) add(file, scenarios::read_file(scenarios::locate_scenario(file)));
    return offered;
  }
  for (const char* shipped :
       {"paper-example-1", "teaching-two-robots", "teaching-hysteresis", "paper-real-data"})
    if (const EmbeddedFile* file = embedded_file(fmt::format("scenarios/{}.yaml", shipped)))
      add(shipped, std::string(file->content));
  return offered;
}

// The request's body as JSON; bad input (InputError) when it is not.
nlohmann::json body_of(const httplib::Request& request) {
  try {
    return nlohmann::json::parse(request.body);
  } catch (const nlohmann::json::parse_error& e) {
    throw model::InputError(fmt::format("the request's body is not JSON: {}", e.what()));
  }
}

// A POST route: the body read as JSON, `answer` run on it; bad input 400, anything else 500, each
// with {"error": message}.
template <class Answer>
void post(httplib::Server& server, const std::string& path, Answer answer) {
  server.Post(path, [answer](const httplib::Request& request, httplib::Response& response) {
    nlohmann::json reply;
    try {
      reply = answer(body_of(request));
    } catch (const model::InputError& e) {
      response.status = 400;
      reply = {{"error", e.message()}};
    } catch (const std::exception& e) {
      response.status = 500;
      reply = {{"error", e.what()}};
    }
    response.set_content(reply.dump(), "application/json");
  });
}

// Server-sent events: "event: KIND" and "data: JSON" a message. Bad input is a 400 as for the other
// routes, before anything is sent; a failure after that ends the stream with an "error" event.
void stream_simulation(const httplib::Request& request, httplib::Response& response) {
  std::function<void(const LabEmit&, const api::Cancellation*)> run;
  try {
    run = lab_simulation(body_of(request));
  } catch (const model::InputError& e) {
    response.status = 400;
    response.set_content(nlohmann::json{{"error", e.message()}}.dump(), "application/json");
    return;
  }
  response.set_header("Cache-Control", "no-store");
  response.set_chunked_content_provider(
      "text/event-stream", [run](std::size_t, httplib::DataSink& sink) {
        const auto send = [&sink](const std::string& kind, const nlohmann::json& data) {
          const std::string message = fmt::format("event: {}\ndata: {}\n\n", kind, data.dump());
          return sink.is_writable() && sink.write(message.data(), message.size());
        };
        try {
          run(send, nullptr);
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

int run(const LabOptions& o) {
  const nlohmann::json offered = offered_scenarios(o.files);
  httplib::Server server;
  server.set_payload_max_length(kLargestBody);
  // SO_REUSEADDR alone: httplib's default adds SO_REUSEPORT, with which a second lab would share
  // the port of a running one instead of being refused.
  server.set_socket_options([](socket_t socket) {
    const int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  serve_file(server, "/", "index.html", "text/html; charset=utf-8");
  serve_file(server, "/lab.js", "lab.js", "text/javascript; charset=utf-8");
  serve_file(server, "/lab.css", "lab.css", "text/css; charset=utf-8");
  server.Get("/api/scenarios", [offered](const httplib::Request&, httplib::Response& response) {
    response.set_content(nlohmann::json{{"scenarios", offered}}.dump(), "application/json");
  });
  post(server, "/api/solve", [](const nlohmann::json& body) { return lab_solve(body); });
  post(server, "/api/optimize", [](const nlohmann::json& body) { return lab_optimize(body); });
  post(server, "/api/describe", [](const nlohmann::json& body) { return lab_describe(body); });
  post(server, "/api/scenario-form",
       [](const nlohmann::json& body) { return lab_scenario_form(body); });
  post(server, "/api/landscape", [](const nlohmann::json& body) { return lab_landscape(body); });
  server.Post("/api/simulate", [](const httplib::Request& request, httplib::Response& response) {
    stream_simulation(request, response);
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
  // Ctrl-C and SIGTERM stop the server from a thread that waits for them, not from a handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::thread watcher([&] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    server.stop();
  });
  const std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  fmt::print("crawlq lab: open http://{}:{}/  ({} scenario{}; Ctrl-C stops it)\n", host, port,
             offered.size(), offered.size() == 1 ? "" : "s");
  std::fflush(stdout);
  server.listen_after_bind();
  pthread_kill(watcher.native_handle(), SIGTERM);  // stopped some other way: end the watcher too
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
                         "and running estimates (server-sent events).\n"
                         "Examples: crawlq lab\n"
                         "          crawlq lab paper-example-1 --port 9000");
  add_scenario_argument(cmd, o->files)
      ->description("scenarios to offer, files or shipped names (default: four shipped ones, the paper's first "
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
