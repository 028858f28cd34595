#include "model/linear_algebra.hpp"

#include <unsupported/Eigen/KroneckerProduct>
#include <vector>

namespace crawlq::model {

RowVector stationary_distribution(const Matrix& generator) {
  const Eigen::Index n = generator.rows();
  // Replace one balance equation by the normalisation: the system is then nonsingular.
  Matrix system = generator.transpose();
  system.row(n - 1).setOnes();
  Vector rhs = Vector::Zero(n);
  rhs(n - 1) = 1.0;
  return system.fullPivLu().solve(rhs).transpose();
}

int closed_class_count(const Matrix& generator) {
  const Eigen::Index n = generator.rows();
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (Eigen::Index i = 0; i < n; ++i) {
    reach[i][i] = true;
    for (Eigen::Index j = 0; j < n; ++j)
      if (i != j && generator(i, j) > 0) reach[i][j] = true;
  }
  for (Eigen::Index k = 0; k < n; ++k)
    for (Eigen::Index i = 0; i < n; ++i)
      if (reach[i][k])
        for (Eigen::Index j = 0; j < n; ++j)
          if (reach[k][j]) reach[i][j] = true;
  // A state is in a closed class when everything it reaches reaches it back; count each class once
  // by its smallest member.
  int classes = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    bool closed = true;
    bool smallest = true;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (reach[i][j] && !reach[j][i]) closed = false;
      if (j < i && reach[i][j] && reach[j][i]) smallest = false;
    }
    if (closed && smallest) ++classes;
  }
  return classes;
}

Matrix kron(const Matrix& a, const Matrix& b) { return Eigen::kroneckerProduct(a, b).eval(); }

Matrix kron_sum(const Matrix& a, const Matrix& b) {
  return kron(a, Matrix::Identity(b.rows(), b.cols())) +
         kron(Matrix::Identity(a.rows(), a.cols()), b);
}

}  // namespace crawlq::model
