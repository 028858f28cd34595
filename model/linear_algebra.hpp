#pragma once
// The dense vocabulary shared by model/, analytic/ and sim/: small matrices from scenario files.
#include <Eigen/Dense>

namespace crawlq::model {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;        // column vector
using RowVector = Eigen::RowVectorXd;  // probability vectors are rows, as in the papers

// Stationary row vector theta of an irreducible generator: theta Q = 0, theta e = 1.
RowVector stationary_distribution(const Matrix& generator);

// Number of closed communicating classes of the graph of the off-diagonal positive entries:
// exactly one means the stationary distribution is unique.
int closed_class_count(const Matrix& generator);

// Kronecker product and sum of dense matrices (A (+) B = A (x) I + I (x) B).
Matrix kron(const Matrix& a, const Matrix& b);
Matrix kron_sum(const Matrix& a, const Matrix& b);

}  // namespace crawlq::model
