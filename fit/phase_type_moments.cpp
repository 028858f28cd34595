#include "fit/phase_type_moments.hpp"

#include <Eigen/LU>

namespace crawlq::fit {

std::vector<double> phase_type_moments(const model::RowVector& beta, const model::Matrix& s,
                                       int count) {
  const auto lu = (-s).partialPivLu();
  std::vector<double> moments;
  model::Vector x = model::Vector::Ones(s.rows());
  double factorial = 1;
  for (int n = 1; n <= count; ++n) {
    x = lu.solve(x);
    factorial *= n;
    moments.push_back(factorial * beta.dot(x));
  }
  return moments;
}

}  // namespace crawlq::fit
