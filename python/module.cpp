// The extension module under the crawlq package: each function builds a request of the request
// layer (api/), runs it with the GIL released, and hands back the JSON the command of the same name
// prints, as Python objects. The package (crawlq/__init__.py) gives it its shape; nothing here
// parses a flag.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "analytic/stationary/policy_forms.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "api/compare_request.hpp"
#include "api/describe_request.hpp"
#include "api/fit_request.hpp"
#include "api/log_ensemble.hpp"
#include "api/optimize_request.hpp"
#include "api/refresh_request.hpp"
#include "api/reproduce_request.hpp"
#include "api/request_checks.hpp"
#include "api/request_documents.hpp"
#include "api/request_schema.hpp"
#include "api/scenario_source.hpp"
#include "api/shipped_request.hpp"
#include "api/simulate_request.hpp"
#include "api/simulation_choices.hpp"
#include "api/solve_request.hpp"
#include "api/sweep_request.hpp"
#include "api/validate_request.hpp"
#include "api/version.hpp"
#include "fit/em_iterations.hpp"
#include "fit/timestamp_log.hpp"
#include "model/input_error.hpp"
#include "model/message_text.hpp"
#include "model/text_file.hpp"
#include "model/thread_count.hpp"
#include "scenarios/policy_section.hpp"
#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"
#include "validation/parameter_sweep.hpp"

namespace py = pybind11;

namespace crawlq::python {

namespace {

// How often a running request looks for Ctrl-C: well within the second the package promises.
constexpr auto kSignalPoll = std::chrono::milliseconds(100);

py::object to_python(const nlohmann::json& j) {
  using Type = nlohmann::json::value_t;
  switch (j.type()) {
    case Type::boolean:
      return py::bool_(j.get<bool>());
    case Type::number_integer:
      return py::int_(j.get<std::int64_t>());
    case Type::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case Type::number_float:
      return py::float_(j.get<double>());
    case Type::string:
      return py::str(j.get_ref<const std::string&>());
    case Type::array: {
      py::list list;
      for (const auto& item : j) list.append(to_python(item));
      return list;
    }
    case Type::object: {
      py::dict dict;
      for (const auto& [key, value] : j.items()) dict[py::str(key)] = to_python(value);
      return dict;
    }
    default:
      return py::none();
  }
}

// `work(cancel)` on a thread of its own while this one, holding the GIL only to look, waits for it
// and for Ctrl-C: on Ctrl-C the work is told to stop and KeyboardInterrupt is raised once it has,
// or after kGrace at the latest. Requests that take a Cancellation stop within moments; a step that
// does not look (a solve's phases at a capacity of 10^6, sweep, reproduce, refresh) is left to end
// on its own thread and its answer dropped, so that every call honours Ctrl-C within a second. The
// work therefore owns everything it reads (capture by value: the caller's frame is gone by then),
// and shares its result slots with this thread. Other Python threads run meanwhile.
constexpr auto kGrace = std::chrono::milliseconds(500);

// What a long request reports while it runs (its step, the count done of the total), queued by its
// thread and handed to the caller's `progress` in order between the polls for Ctrl-C, on the
// caller's thread with the GIL held. The work's thread holds only the plain shared state: after
// Ctrl-C it may outlive the caller's frame (run_released), and it never touches a Python object.
class ProgressReports {
 public:
  explicit ProgressReports(py::object callback)
      : callback_(std::move(callback)), shared_(std::make_shared<Shared>()) {}
  bool wanted() const { return !callback_.is_none(); }
  // A step begins ("the stationary solve"): the count is unknown until told.
  std::function<void(const std::string&)> step_reporter() const {
    return [shared = shared_](const std::string& text) {
      const std::lock_guard lock(shared->mutex);
      shared->step = text;
      shared->push(0, -1);
    };
  }
  // `done` of `total` (0 or less: unknown).
  std::function<void(int)> count_reporter(double total) const {
    return [shared = shared_, total](int done) {
      const std::lock_guard lock(shared->mutex);
      shared->push(done, total);
    };
  }
  // Calls the callback with each report queued since the last call, in order: {"step", "done",
  // "total" (None: unknown), "seconds"}. A Python exception it raises propagates
  // (py::error_already_set); the reports after it are dropped.
  void deliver() {
    std::vector<Report> reports;
    {
      const std::lock_guard lock(shared_->mutex);
      reports.swap(shared_->queue);
    }
    if (!wanted()) return;
    for (const Report& r : reports) {
      py::dict report;
      report["step"] = r.step;
      report["done"] = r.done;
      report["total"] = r.total > 0 ? py::object(py::float_(r.total)) : py::object(py::none());
      report["seconds"] = r.seconds;
      callback_(report);
    }
  }

 private:
  struct Report {
    std::string step;
    double done = 0, total = -1, seconds = 0;
  };
  // A run of a million replications reports a million counts: past this many waiting, only the
  // newest count is kept, so the queue stays small whatever the caller's pace.
  static constexpr std::size_t kMostWaiting = 10'000;
  struct Shared {
    std::mutex mutex;
    std::string step;
    std::vector<Report> queue;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    void push(double done, double total) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (queue.size() >= kMostWaiting && queue.back().step == step) queue.pop_back();
      queue.push_back({step, done, total, seconds});
    }
  };
  py::object callback_;
  std::shared_ptr<Shared> shared_;
};

template <class Work>
auto run_released(Work work, ProgressReports* reports = nullptr) -> decltype(work(nullptr)) {
  using Result = decltype(work(nullptr));
  struct Run {
    api::Cancellation cancel{false};
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::optional<Result> result;
    std::exception_ptr error;
  };
  const auto run = std::make_shared<Run>();
  auto body = [run, work = std::move(work)]() mutable {
    try {
      run->result.emplace(work(&run->cancel));
    } catch (...) {
      run->error = std::current_exception();
    }
    const std::lock_guard lock(run->mutex);
    run->done = true;
    run->finished.notify_one();
  };
  bool interrupted = false;
  std::exception_ptr callback_error;  // the progress callback raised: the work is stopped
  {
    py::gil_scoped_release release;
    std::thread worker;
    try {
      worker = std::thread(body);
    } catch (const std::exception&) {  // no thread to spare (a pids or memory limit): here, without
                                       // Ctrl-C
      body();
    }
    std::unique_lock lock(run->mutex);
    auto give_up = std::chrono::steady_clock::time_point::max();
    while (!run->finished.wait_for(lock, kSignalPoll, [&] { return run->done; })) {
      if (interrupted) {
        if (std::chrono::steady_clock::now() >= give_up) break;
        continue;
      }
      lock.unlock();
      {
        const py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          interrupted = true;
          run->cancel = true;
          give_up = std::chrono::steady_clock::now() + kGrace;
        } else if (reports) {
          try {
            reports->deliver();
          } catch (const py::error_already_set&) {
            callback_error = std::current_exception();
            interrupted = true;
            run->cancel = true;
            give_up = std::chrono::steady_clock::now() + kGrace;
          }
        }
      }
      lock.lock();
    }
    const bool done = run->done;
    lock.unlock();
    if (worker.joinable()) {
      if (done)
        worker.join();
      else
        worker.detach();  // still in a step that does not look: it ends alone, holding `run`
    }
  }
  if (callback_error) std::rethrow_exception(callback_error);
  if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals set
  if (reports && !run->error) reports->deliver();  // the last count, which came after the last poll
  if (run->error) std::rethrow_exception(run->error);
  return std::move(*run->result);
}

// A named choice's refusal (std::invalid_argument listing the known names) as bad input naming the
// keyword.
template <class Parse>
auto choice(const std::string& keyword, const std::string& value, Parse parse)
    -> decltype(parse(value)) {
  try {
    return parse(value);
  } catch (const std::invalid_argument& e) {
    throw model::InputError(keyword + ": " + e.what());
  }
}

// The EM loops of a fit run on this thread stop soon after `cancel` is set (fit/em_iterations.hpp).
class EmStopScope {
 public:
  explicit EmStopScope(const api::Cancellation* cancel) { fit::em_stop = cancel; }
  ~EmStopScope() { fit::em_stop = nullptr; }
  EmStopScope(const EmStopScope&) = delete;
  EmStopScope& operator=(const EmStopScope&) = delete;
};

// A scenario as the package holds it (api::ScenarioSource), read once, when made: a broken one is
// refused there, and every call after uses the model read.
class Source {
 public:
  Source(std::string text, std::string label, std::string directory,
         std::vector<std::pair<std::string, double>> changes)
      : source_{std::move(text), std::move(label), std::move(directory), std::move(changes)},
        scenario_(std::make_shared<const scenarios::Scenario>(api::read_scenario(source_))) {}
  const scenarios::Scenario& scenario() const { return *scenario_; }
  const api::ScenarioSource& source() const { return source_; }

 private:
  api::ScenarioSource source_;
  std::shared_ptr<const scenarios::Scenario> scenario_;
};

const scenarios::Scenario& load(const Source& s) { return s.scenario(); }

py::object scenario_json(const std::string& text, const std::string& label) {
  return to_python(scenarios::yaml_to_json(text, label));
}

py::object describe(const Source& s) {
  const scenarios::Scenario& scenario = load(s);
  return to_python(api::describe({.model = scenario.model, .repairs = scenario.repairs}));
}

// The package's keywords as a request document: Python's own values, nested no deeper than a
// request needs (a list nested without end would exhaust the stack).
constexpr int kMostNesting = 32;

nlohmann::json from_python(const py::handle& value, const std::string& keyword, int depth = 0) {
  if (depth > kMostNesting)
    throw model::InputError(keyword, fmt::format("nested deeper than {} lists", kMostNesting));
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    int overflow = 0;
    const long long whole = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return static_cast<std::int64_t>(whole);
    return PyLong_AsDouble(value.ptr());  // out of range: the field's check says so
  }
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) throw model::InputError(keyword, "a dict's keys are text");
      object[key.cast<std::string>()] = from_python(item, keyword, depth + 1);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& item : value) list.push_back(from_python(item, keyword, depth + 1));
    return list;
  }
  throw model::InputError(keyword,
                          fmt::format("a {} is not a value a request takes",
                                      std::string(py::str(value.get_type().attr("__name__")))));
}

nlohmann::json document(const py::dict& keywords) {
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& [key, value] : keywords) {
    const std::string keyword = key.cast<std::string>();
    fields[keyword] = from_python(value, keyword);
  }
  return fields;
}

// The scenario a request document runs on: a policy file is read where the package's user names
// one.
api::DocumentScenario document_scenario(const Source& s) {
  return {
      .source = s.source().label,
      .model = load(s).model,
      .policy_directory = s.source().directory,
      .how_to_give_policy =
          "give thresholds=[...], levels=[...] or policy={...} (any form of a scenario's policy)"};
}

py::tuple solve(const Source& s, const py::dict& keywords, const py::object& progress) {
  api::SolveRequest request =
      api::solve_request(document(keywords), document_scenario(s), api::Caller::kPython);
  ProgressReports reports(progress);
  if (reports.wanted()) request.stage = reports.step_reporter();
  // Before minutes of work, a warning a notebook shows (Python's filters may silence it), pointing
  // at the caller's line: four frames up, past the lambda, run_with and Scenario.solve.
  if (const analytic::MemoryEstimate need = api::check(request); need.states > api::kStatesToWarnOf)
    if (PyErr_WarnEx(PyExc_UserWarning, api::large_solve_warning(s.source().label, need).c_str(),
                     4) != 0)
      throw py::error_already_set();
  const api::SolveResult result = run_released(
      [request](const api::Cancellation* cancel) { return api::solve(request, cancel); }, &reports);
  const Eigen::VectorXd& p = result.evaluation.stationary.probabilities;
  py::array_t<double> probabilities(p.size());
  std::copy(p.data(), p.data() + p.size(), probabilities.mutable_data());
  return py::make_tuple(to_python(api::to_json(request, result)), std::move(probabilities));
}

// How sure an answer resting on a crawler's log is (api/log_ensemble.hpp): Python may read files.
py::object log_ensemble(const Source& s, const std::string& log, int bootstrap, std::uint64_t seed,
                        const py::dict& keywords) {
  const std::filesystem::path path = scenarios::locate_log(log);
  api::LogEnsembleRequest request{
      .base = s.source(),
      .policy =
          api::solve_request(document(keywords), document_scenario(s), api::Caller::kPython).policy,
      .log_text = model::read_text_file(path, "a log", model::kMostLogBytes),
      .log_label = log,
      .refits = bootstrap,
      .seed = seed,
      .caller = api::Caller::kPython,
      .most_states = 0};
  return to_python(run_released(
      [request](const api::Cancellation* cancel) { return api::log_ensemble(request, cancel); }));
}

py::object optimize(const Source& s, const py::dict& keywords, const py::object& progress) {
  api::OptimizeRequest request =
      api::optimize_request(document(keywords), document_scenario(s), api::Caller::kPython);
  // The searches report each stage.
  ProgressReports reports(progress);
  if (reports.wanted()) {
    reports.step_reporter()(
        fmt::format("the best {} policy", api::policy_class_name(request.policy_class)));
    request.progress = reports.step_reporter();
  }
  const api::OptimizeResult result = run_released(
      [request](const api::Cancellation* cancel) { return api::optimize(request, cancel); },
      &reports);
  return to_python(api::to_json(request, result));
}

py::object simulate(const Source& s, const py::dict& keywords, const py::object& progress) {
  const nlohmann::json fields = document(keywords);
  api::SimulateRequest request{
      .source = s.source().label,
      .model = load(s).model,
      .policy = api::document_policy(fields, api::RequestKind::kSimulate, document_scenario(s),
                                     api::Caller::kPython),
      .settings = api::simulation_settings(
          api::simulation_choices(fields, api::RequestKind::kSimulate, api::Caller::kPython),
          api::Caller::kPython),
      .caller = api::Caller::kPython};
  // The count is known when `replications` alone fixes it; `precision` adds rounds until it is met.
  ProgressReports reports(progress);
  if (reports.wanted()) {
    reports.step_reporter()(request.settings.precision > 0 ? "replications until the precision"
                                                           : "replications");
    request.progress = reports.count_reporter(
        request.settings.precision > 0 ? 0.0 : static_cast<double>(request.settings.replications));
  }
  const api::SimulateResult result = run_released(
      [request](const api::Cancellation* cancel) { return api::simulate(request, cancel); },
      &reports);
  return to_python(api::to_json(request, result));
}

py::object compare(const Source& s, const py::dict& keywords) {
  const api::CompareRequest request =
      api::compare_request(document(keywords), document_scenario(s), api::Caller::kPython);
  const api::CompareResult result = run_released(
      [request](const api::Cancellation* cancel) { return api::compare(request, cancel); });
  return to_python(api::to_json(request, result));
}

py::object validate(const Source& s, const py::dict& keywords) {
  const nlohmann::json fields = document(keywords);
  const scenarios::Scenario& scenario = load(s);
  const model::ControlPolicy policy = api::document_policy(
      fields, api::RequestKind::kValidate, document_scenario(s), api::Caller::kPython);
  const validation::SimulationSettings settings = api::simulation_settings(
      api::simulation_choices(fields, api::RequestKind::kValidate, api::Caller::kPython),
      api::Caller::kPython);
  const std::string absent = api::exact_engine_absence(scenario.model, policy, settings);
  const api::ValidateRequest request{.source = s.source().label,
                                     .model = scenario.model,
                                     .policy = policy,
                                     .settings = settings,
                                     .simulated_model = std::nullopt,
                                     .exact_absent = absent,
                                     .caller = api::Caller::kPython};
  const auto [resolved, result] =
      run_released([request, label = s.source().label](const api::Cancellation*) {
        api::ValidateRequest with_horizon = request;
        // A transient runs to its last time: it has no horizon.
        if (request.settings.times.empty())
          with_horizon.settings.horizon = api::validation_horizon(
              request.model, request.policy, request.settings, label, api::Caller::kPython);
        api::ValidateResult comparison = api::validate(with_horizon);
        return std::make_pair(std::move(with_horizon), std::move(comparison));
      });
  // As `validate --json` prints one file: its comparison, the summary, the verdict.
  api::ValidateSummary summary;
  summary.count(result);
  return to_python(api::to_json(nlohmann::json::array({api::to_json(resolved, result)}), summary));
}

py::object sweep(const Source& s, const py::dict& keywords) {
  const api::SweepRequest request =
      api::sweep_request(document(keywords), document_scenario(s), api::Caller::kPython);
  const auto rows =
      run_released([request](const api::Cancellation*) { return api::sweep(request); });
  return to_python(api::to_json(request, rows));
}

py::object reproduce(std::uint64_t seed, int threads, bool quick,
                     const std::vector<std::string>& sections,
                     const std::optional<std::string>& out) {
  api::ReproduceRequest request;
  request.seed = seed;
  request.threads = threads;
  request.quick = quick;
  request.sections.insert(sections.begin(), sections.end());
  request.report_directory = out;
  request.caller = api::Caller::kPython;
  const api::ReproduceResult result =
      run_released([request](const api::Cancellation*) { return api::reproduce(request); });
  return to_python(api::to_json(result));
}

py::object refresh(const std::string& text, const std::string& label, bool simulate,
                   std::uint64_t seed, int replications, std::optional<double> horizon,
                   int threads) {
  const scenarios::RefreshScenario scenario = scenarios::parse_refresh_scenario(text, label);
  const api::RefreshRequest request{.source = label,
                                    .model = scenario.model,
                                    .simulate = simulate,
                                    .seed = seed,
                                    .replications = replications,
                                    .horizon = horizon,
                                    .threads = threads,
                                    .caller = api::Caller::kPython};
  const api::RefreshResult result =
      run_released([request](const api::Cancellation*) { return api::refresh(request); });
  return to_python(api::to_json(request, result));
}

py::object fit_arrivals(const std::string& path, const std::string& column,
                        std::optional<double> batch_gap, std::optional<double> censor_gap, int lags,
                        int robots, const std::string& method, int regimes,
                        std::optional<int> phases, int bootstrap, std::uint64_t seed) {
  api::FitArrivalsRequest request{.source = path,
                                  .times = {},
                                  .batch_gap = batch_gap,
                                  .censor_gap = censor_gap,
                                  .lags = lags,
                                  .method = method,
                                  .regimes = regimes,
                                  .phases = phases,
                                  .robots = robots,
                                  .caller = api::Caller::kPython,
                                  .bootstrap = bootstrap,
                                  .seed = seed};
  return to_python(run_released([request, path, column](const api::Cancellation* cancel) mutable {
    const EmStopScope stop(cancel);
    // A log a little out of order is read in time order, as the command line reads it.
    request.times = fit::read_timestamps(crawlq::scenarios::locate_log(path).string(), column,
                                         false, &request.order);
    return api::fit_arrivals(request);
  }));
}

py::object fit_law(const std::optional<std::string>& path, const std::string& column,
                   const std::optional<std::vector<double>>& moments, std::optional<double> mean,
                   const std::string& method, int phases) {
  if (path.has_value() == moments.has_value())
    throw model::InputError("give a sample's path or moments=[m1, m2, m3], one of the two");
  api::FitLawRequest request{.source = path ? *path : "moments",
                             .sample = {},
                             .moments = moments.value_or(std::vector<double>{}),
                             .mean = mean,
                             .method = method,
                             .phases = phases,
                             .caller = api::Caller::kPython};
  return to_python(run_released([request, path, column](const api::Cancellation* cancel) mutable {
    const EmStopScope stop(cancel);
    if (path) request.sample = fit::read_sample(*path, column);
    return api::fit_law(request);
  }));
}

py::object with_fitted_arrivals(const std::string& scenario_json, const std::string& fitted_json) {
  return to_python(api::with_fitted_arrivals(nlohmann::json::parse(scenario_json),
                                             nlohmann::json::parse(fitted_json)));
}

}  // namespace

}  // namespace crawlq::python

PYBIND11_MODULE(_crawlq, m) {
  using namespace crawlq::python;
  using crawlq::python::Source;
  m.doc() =
      "crawlq's engines, one function per command; use the crawlq package, which gives them their "
      "shape.";
  static py::exception<crawlq::model::InputError> input_error(m, "InputError", PyExc_ValueError);
  input_error.attr("__doc__") =
      "Bad input (a ValueError): a scenario that breaks a rule, a policy of the wrong shape, a "
      "value out of range.\n"
      "The message is the command line's: the file, the key and the value.";
  // Every message arrives as text, whatever bytes it quotes: a str made from bytes that are not
  // UTF-8 fails, and the exception would reach Python with no message at all.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const crawlq::model::InputError& e) {
      // The command line's line: Python names the package.
      input_error(crawlq::model::valid_utf8(e.message()).c_str());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(
          PyExc_MemoryError,
          "crawlq: out of memory (the computation needs more than this process may take)");
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own, translated by pybind11
    } catch (const py::error_already_set&) {
      throw;
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, crawlq::model::valid_utf8(e.what()).c_str());
    }
  });
  py::class_<Source>(m, "Source")
      .def(py::init<std::string, std::string, std::string,
                    std::vector<std::pair<std::string, double>>>(),
           py::arg("text"), py::arg("label"), py::arg("directory"), py::arg("changes"))
      .def_property_readonly("text", [](const Source& s) { return s.source().text; })
      .def_property_readonly("label", [](const Source& s) { return s.source().label; })
      .def_property_readonly("directory", [](const Source& s) { return s.source().directory; })
      .def_property_readonly("changes", [](const Source& s) { return s.source().changes; });
  std::vector<std::string> parameters;
  for (const auto parameter : crawlq::validation::sweep_parameters())
    parameters.push_back(crawlq::validation::parameter_name(parameter));
  m.attr("parameters") = parameters;
  m.def("scenario_json", &scenario_json, py::arg("text"), py::arg("label"));
  m.def("describe", &describe, py::arg("source"));
  m.def("solve", &solve, py::arg("source"), py::arg("keywords"), py::arg("progress") = py::none());
  m.def("log_ensemble", &log_ensemble, py::arg("source"), py::arg("log"), py::arg("bootstrap"),
        py::arg("seed"), py::arg("keywords"));
  m.def("optimize", &optimize, py::arg("source"), py::arg("keywords"),
        py::arg("progress") = py::none());
  m.def("request_schema", [] { return to_python(crawlq::api::request_schema()); });
  m.attr("policy_keys") = crawlq::scenarios::policy_keys();
  m.def("simulate", &simulate, py::arg("source"), py::arg("keywords"),
        py::arg("progress") = py::none());
  m.def("compare", &compare, py::arg("source"), py::arg("keywords"));
  m.def("validate", &validate, py::arg("source"), py::arg("keywords"));
  m.def("sweep", &sweep, py::arg("source"), py::arg("keywords"));
  m.def("reproduce", &reproduce, py::arg("seed"), py::arg("threads"), py::arg("quick"),
        py::arg("sections"), py::arg("out"));
  m.def("refresh", &refresh, py::arg("text"), py::arg("label"), py::arg("simulate"),
        py::arg("seed"), py::arg("replications"), py::arg("horizon"), py::arg("threads"));
  m.def("fit_arrivals", &fit_arrivals, py::arg("path"), py::arg("column"), py::arg("batch_gap"),
        py::arg("censor_gap"), py::arg("lags"), py::arg("robots"), py::arg("method"),
        py::arg("regimes"), py::arg("phases"), py::arg("bootstrap"), py::arg("seed"));
  m.def("fit_law", &fit_law, py::arg("path"), py::arg("column"), py::arg("moments"),
        py::arg("mean"), py::arg("method"), py::arg("phases"));
  m.def("with_fitted_arrivals", &with_fitted_arrivals, py::arg("scenario_json"),
        py::arg("fitted_json"));
  m.attr("reproduce_sections") = crawlq::api::reproduce_sections();
  // The solvers' names as the registry has them (auto first): what solve's and optimize's method
  // take.
  std::vector<std::string> methods{"auto"};
  for (const auto& solver : crawlq::analytic::registered_solvers())
    methods.emplace_back(solver.name);
  m.attr("methods") = methods;
  m.attr("most_threads") = crawlq::model::kMostThreads;
  // A scenario file's text through the command line's reader: the same size cap and refusals.
  m.def(
      "read_file",
      [](const std::string& path) {
        std::string text;
        {
          py::gil_scoped_release release;
          text = crawlq::scenarios::read_file(path);
        }
        PyObject* decoded =
            PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict");
        if (decoded == nullptr) {
          PyErr_Clear();
          throw crawlq::model::InputError(path, "not a text file in UTF-8");
        }
        return py::reinterpret_steal<py::str>(decoded);
      },
      py::arg("path"));
  m.attr("version") = std::string(crawlq::api::version());
  m.def("shipped", [] { return to_python(crawlq::api::shipped()); });
  m.def(
      "locate_scenario",
      [](const std::string& as_written) {
        return crawlq::scenarios::locate_scenario(as_written).string();
      },
      py::arg("as_written"));
}
