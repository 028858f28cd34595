#pragma once
// How every EM fit here runs: an E step (the log-likelihood of the current parameters, and the
// expectations the M step needs), a stop once an iteration gains less than `relative_gain` times
// |log L| (EM never loses: Dempster, Laird, Rubin 1977), else the M step. The trace is what the
// fits report, and what the tests check climbs.
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>
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

// EM's steps shrink as the likelihood flattens: on a log with no regimes to tell apart (a renewal
// log) plain EM crawls for thousands of steps. SQUAREM (Varadhan and Roland 2008, scheme S3) takes
// two EM steps, r = F(x) - x and v = F(F(x)) - 2 F(x) + x, jumps to x - 2 a r + a^2 v with
// a = -|r| / |v| (a = -1 is F(F(x)) itself), and takes one EM step from there, halving the jump
// towards a = -1 while the point leaves the parameters' domain (`valid`) or its likelihood falls
// below F(x)'s. So the likelihood at each cycle's start never falls. `em_map(x)` returns F(x) and
// the log-likelihood of x; `most_maps` bounds the EM steps in all. The trace holds the likelihood
// at each cycle's start.
template <class EmMap, class Valid>
EmTrace iterate_squarem(Eigen::VectorXd& x, EmMap em_map, Valid valid, int most_maps,
                        double relative_gain) {
  EmTrace trace;
  int maps = 0;
  const auto step = [&](const Eigen::VectorXd& from, double& log_likelihood) {
    ++maps;
    std::pair<Eigen::VectorXd, double> mapped = em_map(from);
    log_likelihood = mapped.second;
    return std::move(mapped.first);
  };
  for (;;) {
    double l0 = 0, l1 = 0;
    const Eigen::VectorXd x1 = step(x, l0);
    trace.log_likelihoods.push_back(l0);
    const std::size_t done = trace.log_likelihoods.size();
    if (done >= 2 && trace.log_likelihoods[done - 1] - trace.log_likelihoods[done - 2] <=
                         relative_gain * std::abs(l0)) {
      trace.converged = true;
      return trace;
    }
    if (maps >= most_maps || (em_stop != nullptr && em_stop->load())) return trace;
    Eigen::VectorXd x2 = step(x1, l1);
    const Eigen::VectorXd r = x1 - x, v = x2 - x1 - r;
    double a = v.norm() > 0 ? std::min(-1.0, -r.norm() / v.norm()) : -1.0;
    bool jumped = false;
    for (int halving = 0; halving < 8 && a < -1 && maps < most_maps; ++halving) {
      const Eigen::VectorXd jump = x - 2 * a * r + a * a * v;
      if (valid(jump)) {
        double at_jump = 0;
        Eigen::VectorXd from_jump = step(jump, at_jump);
        if (at_jump >= l1 && valid(from_jump)) {
          x = std::move(from_jump);
          jumped = true;
          break;
        }
      }
      a = (a - 1) / 2;
    }
    if (!jumped) x = std::move(x2);
  }
}

}  // namespace crawlq::fit
