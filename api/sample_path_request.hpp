#pragma once
// One sample path of the simulator as a request: the command line's --trace (a CSV) and the lab's
// path (events as JSON) are two sinks of the same run, from an empty system up to a horizon.
#include <atomic>
#include <cstdint>
#include <string>

#include "api/caller_words.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "sim/observer.hpp"
#include "sim/simulator.hpp"

namespace crawlq::api {

struct SamplePathRequest {
  std::string source;  // what messages call the model
  model::Model model;
  model::ControlPolicy policy;
  std::uint64_t seed = 1;
  double horizon = 0;  // > 0: the path's length in time units
  Caller caller = Caller::kCommandLine;
};

// model::InputError naming the horizon (in the caller's words) unless it is a positive time.
void check(const SamplePathRequest& request);
// Tells `sink` every event of the path; stops early when `stop` is set (a sink that has had
// enough): the statistics say how far it went.
sim::RunStatistics sample_path(const SamplePathRequest& request, sim::Observer& sink,
                               const std::atomic<bool>* stop = nullptr);

}  // namespace crawlq::api
