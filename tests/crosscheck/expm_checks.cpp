#include "tests/crosscheck/expm_checks.hpp"

#include <catch2/catch.hpp>
#include <unsupported/Eigen/MatrixFunctions>

namespace crawlq::crosscheck {

Propagation propagate(const Eigen::MatrixXd& q, double t) {
  const Eigen::Index n = q.rows();
  Eigen::MatrixXd block = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  block.topLeftCorner(n, n) = q * t;
  block.topRightCorner(n, n) = Eigen::MatrixXd::Identity(n, n) * t;
  const Eigen::MatrixXd e = block.exp();
  return {e.topLeftCorner(n, n), e.topRightCorner(n, n)};
}

void check_close(const std::string& what, double engine, double brute) {
  constexpr double kRelative = 1e-9, kAbsolute = 1e-11;
  INFO(what << ": engine " << engine << ", brute force " << brute);
  CHECK_THAT(engine, Catch::Matchers::WithinRel(brute, kRelative) ||
                         Catch::Matchers::WithinAbs(brute, kAbsolute));
}

}  // namespace crawlq::crosscheck
