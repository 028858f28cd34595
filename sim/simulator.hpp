#pragma once
// The event-driven simulation of the paper's system: robots emitting BMAP batches by mode, a FIFO
// PH server, and one obsolescence clock per waiting page drawn when the page enters the buffer
// (the page in service never expires). Every law is phase-type, so each pending event is one
// time: the next move of the robots' phase process, the service completion, each page's expiry.
//
// Ties (probability zero with continuous laws, but written down once): at equal times the service
// completion goes first, then expiries in queue order, then the robots' move.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "model/model.hpp"
#include "sim/arrival_sampler.hpp"
#include "sim/observer.hpp"
#include "sim/phase_type_sampler.hpp"
#include "sim/policy.hpp"
#include "sim/run_limits.hpp"
#include "sim/run_setup.hpp"

namespace crawlq::sim {

class Simulator {
 public:
  // `model` and `policy` must outlive the simulator. A replayed log takes no policy by phase (it
  // has none): model::InputError.
  Simulator(const model::Model& model, const Policy& policy);

  // Simulates from the start `setup` describes (by default an empty system) until `until` (or a
  // limit); observers see everything after `observe_from`.
  RunStatistics run(std::uint64_t seed, std::uint64_t replication, double observe_from,
                    double until, const std::vector<Observer*>& observers,
                    const RunLimits& limits = {}, const RunSetup& setup = {}) const;

 private:
  struct Path {
    std::uint64_t seed, replication;
    double observe_from, until;
    RunLimits limits;
    const RunSetup* setup;
  };
  // The event loop, compiled for each pairing of controller and observers it is run with.
  template <class Controller, class Sink>
  RunStatistics run_path(const Path& path, const Controller& controller, Sink& sink) const;

  const model::Model& model_;
  const Policy& policy_;
  ArrivalSampler arrivals_;
  PhaseTypeSampler service_;
  std::optional<PhaseTypeSampler> obsolescence_;
  // A log replayed in place of the arrival law (model/arrival_trace.hpp), and its gaps summed:
  // [i] the log's time at the end of gap i.
  const model::ArrivalTrace* trace_;
  std::vector<double> trace_ends_;
  double rebase_after_;  // local time at which the loop's origin moves up (simulator.cpp)
};

}  // namespace crawlq::sim
