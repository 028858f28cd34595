#pragma once
// What the crosschecks against dense matrix exponentials share: exp(Q t) with its integral, and one
// comparison of an engine's number with the brute force's.
#include <Eigen/Dense>
#include <string>

namespace crawlq::crosscheck {

// exp(Q t) and the integral of exp(Q s) over [0, t], from one exponential of a block matrix.
struct Propagation {
  Eigen::MatrixXd at_end, area;
};
Propagation propagate(const Eigen::MatrixXd& q, double t);

// A Catch check that `engine` is within a relative 1e-9 or an absolute 1e-11 of `brute`, naming
// `what` and both values when it is not.
void check_close(const std::string& what, double engine, double brute);

}  // namespace crawlq::crosscheck
