// The Schur-form solver of -(S (+) G^(+)n) x = b against a sparse LU of the assembled Kronecker
// sum, for generators with real, complex and repeated (defective) eigenvalues.
#include "analytic/stationary/kronecker_sum_solver.hpp"

#include <Eigen/SparseLU>
#include <catch2/catch.hpp>
#include <random>

#include "analytic/stationary/kronecker_terms.hpp"

namespace {

using crawlq::analytic::Sparse;

// The assembled sum, from the Kronecker products of kronecker_terms.hpp.
Sparse kronecker_sum(const Eigen::MatrixXd& first, const Eigen::MatrixXd& repeated, int copies) {
  using crawlq::analytic::identity, crawlq::analytic::kron, crawlq::analytic::to_sparse;
  Sparse sum = to_sparse(first);
  for (int c = 0; c < copies; ++c)
    sum = Sparse(kron(sum, identity(repeated.rows())) +
                 kron(identity(sum.rows()), to_sparse(repeated)));
  return sum;
}

void check_solves(const Eigen::MatrixXd& first, const Eigen::MatrixXd& repeated, int copies,
                  bool real_arithmetic) {
  INFO("first\n" << first << "\nrepeated\n" << repeated << "\ncopies " << copies);
  const Sparse minus_sum = -kronecker_sum(first, repeated, copies);
  Eigen::SparseLU<Sparse> lu(minus_sum);
  REQUIRE(lu.info() == Eigen::Success);
  std::mt19937_64 engine(copies);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::VectorXd b(minus_sum.rows());
  for (double& v : b) v = uniform(engine);
  const crawlq::analytic::KroneckerSumSolver solver(first, repeated, copies);
  REQUIRE(solver.size() == minus_sum.rows());
  CHECK(solver.real_arithmetic() == real_arithmetic);
  const Eigen::VectorXd x = solver.solve(b);
  const Eigen::VectorXd expected = lu.solve(b);
  CHECK((x - expected).lpNorm<Eigen::Infinity>() <= 1e-12 * expected.lpNorm<Eigen::Infinity>());
  CHECK((minus_sum * x - b).lpNorm<Eigen::Infinity>() <= 1e-12 * b.lpNorm<Eigen::Infinity>());
}

}  // namespace

TEST_CASE("Kronecker-sum solver: the paper's service and clock", "[analytic]") {
  Eigen::MatrixXd s(2, 2), gamma(2, 2);
  s << -3, 1, 2, -3;
  gamma << -0.6, 0.4, 0.1, -0.3;
  for (int copies : {1, 2, 5, 9}) check_solves(s, gamma, copies, true);
}

TEST_CASE("Kronecker-sum solver: complex and defective eigenvalues, three phases", "[analytic]") {
  Eigen::MatrixXd rotation(3, 3), erlang(3, 3), service(2, 2);
  rotation << -2, 1.5, 0, 0, -2, 1.5, 1.5, 0, -2;  // a cyclic generator: complex eigenvalues
  erlang << -1, 1, 0, 0, -1, 1, 0, 0, -1;          // Erlang-3: one eigenvalue, a Jordan block
  service << -4, 0, 0, -0.5;
  for (int copies : {1, 3, 6}) {
    check_solves(service, rotation, copies, false);
    check_solves(rotation, erlang, copies, false);
    check_solves(erlang, service, copies, true);  // real but defective: a real Jordan form
  }
  check_solves(Eigen::MatrixXd::Constant(1, 1, -2.0), Eigen::MatrixXd::Constant(1, 1, -0.25), 4,
               true);  // one phase each
}

TEST_CASE("Kronecker-sum solver: long passes on two threads, the same bits as on one",
          "[analytic]") {
  // 3 x 2^15 = 98,304 states: the first factors' passes are long enough to be shared. A server
  // with real eigenvalues (real arithmetic) and a cyclic one (complex), each with three phases
  // (the general mixing path) ahead of two-phase clocks (the paired one).
  Eigen::MatrixXd real_service(3, 3), cyclic_service(3, 3), clock(2, 2);
  real_service << -2.5, 1.0, 0.7, 0.2, -1.1, 0.4, 0.0, 0.9, -3.0;
  cyclic_service << -2.1, 1.6, 0, 0, -1.9, 1.5, 1.7, 0, -2.3;
  clock << -0.7, 0.4, 0.15, -0.35;
  const int copies = 15;
  for (const auto& [service, real] : {std::pair{real_service, true}, {cyclic_service, false}}) {
    const crawlq::analytic::KroneckerSumSolver solver(service, clock, copies);
    CHECK(solver.real_arithmetic() == real);
    std::mt19937_64 engine(7);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Eigen::VectorXd b(solver.size());
    for (double& v : b) v = uniform(engine);
    const Eigen::VectorXd one = solver.solve(b, 0.3, 1), two = solver.solve(b, 0.3, 2);
    CHECK(one == two);
    const Sparse shifted =
        0.3 * crawlq::analytic::identity(solver.size()) - kronecker_sum(service, clock, copies);
    CHECK((shifted * two - b).lpNorm<Eigen::Infinity>() <= 1e-11 * b.lpNorm<Eigen::Infinity>());
  }
}
