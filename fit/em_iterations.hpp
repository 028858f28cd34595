#pragma once
// How every EM fit here runs: an E step (the log-likelihood of the current parameters, and the
// expectations the M step needs), a stop once an iteration gains less than `relative_gain` times
// |log L| (EM never loses: Dempster, Laird, Rubin 1977), else the M step. The trace is what the
// fits report, and what the tests check climbs.
#include <atomic>
#include <cmath>
#include <vector>

namespace crawlq::fit {

struct EmTrace {
  std::vector<double> log_likelihoods;  // after each E step, the start's first
  bool converged = false;               // false: stopped by most_iterations (or by em_stop)
};

// Set by a caller that may be cancelled (the Python package's Ctrl-C) for the EM loops that run on
// its thread: each stops after its next E step, as if out of iterations, and the caller drops what
// comes back. Per thread, so that the fits keep their signatures and one thread's stop never ends
// another's fit.
inline thread_local const std::atomic<bool>* em_stop = nullptr;

template <class EStep, class MStep>
EmTrace iterate_em(EStep e_step, MStep m_step, int most_iterations, double relative_gain) {
  EmTrace trace;
  for (int iteration = 0; iteration <= most_iterations; ++iteration) {
    const double log_likelihood = e_step();
    trace.log_likelihoods.push_back(log_likelihood);
    const std::size_t done = trace.log_likelihoods.size();
    if (done >= 2 && trace.log_likelihoods[done - 1] - trace.log_likelihoods[done - 2] <=
                         relative_gain * std::abs(log_likelihood)) {
      trace.converged = true;
      break;
    }
    if (iteration == most_iterations || (em_stop != nullptr && em_stop->load())) break;
    m_step();
  }
  return trace;
}

}  // namespace crawlq::fit
