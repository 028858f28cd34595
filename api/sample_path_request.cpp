#include "api/sample_path_request.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "api/request_checks.hpp"
#include "model/input_error.hpp"
#include "sim/policy.hpp"

namespace crawlq::api {

void check(const SamplePathRequest& request) {
  if (!(request.horizon > 0) || !std::isfinite(request.horizon))
    throw model::InputError(
        std::string(field_name(request.caller, Field::kPathHorizon)),
        fmt::format("{}: give a positive time, the length of the sample path", request.horizon));
}

sim::RunStatistics sample_path(const SamplePathRequest& request, sim::Observer& sink,
                               const std::atomic<bool>* stop) {
  check(request);
  const std::unique_ptr<sim::Policy> policy = sim::make_policy(request.model, request.policy);
  return sim::Simulator(request.model, *policy)
      .run(request.seed, 0, 0.0, request.horizon, {&sink}, sim::RunLimits{.stop = stop});
}

}  // namespace crawlq::api
