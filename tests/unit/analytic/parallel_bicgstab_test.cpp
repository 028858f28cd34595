// The fused, thread-shared BiCGSTAB against a sparse LU on random nonsymmetric systems: the answer,
// the same bits for any thread count, warm starts and cancellation.
#include "analytic/stationary/parallel_bicgstab.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "tests/support/scoped_environment.hpp"

namespace {

using crawlq::analytic::KrylovSummary;
using crawlq::analytic::parallel_bicgstab;

// A row-dominant random sparse matrix with a few entries a row near the diagonal (so that a sparse
// LU stays cheap), large enough for many chunks.
Eigen::SparseMatrix<double, Eigen::RowMajor> random_system(Eigen::Index n, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::uniform_int_distribution<Eigen::Index> offset(-40, 40);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i) {
    double off = 0;
    for (int k = 0; k < 4; ++k) {
      const double v = uniform(engine) - 0.3;
      entries.emplace_back(i, std::clamp<Eigen::Index>(i + offset(engine), 0, n - 1), v);
      off += std::abs(v);
    }
    entries.emplace_back(i, i, -(off + 0.5 + uniform(engine)));
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor> a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

struct Solved {
  Eigen::VectorXd x;
  KrylovSummary summary;
  std::vector<int> steps;  // the threads of each product
};

Solved solve(const Eigen::SparseMatrix<double, Eigen::RowMajor>& a, const Eigen::VectorXd& b,
             int threads, const std::atomic<bool>* stop = nullptr,
             const Eigen::VectorXd* guess = nullptr) {
  const Eigen::VectorXd inverse_diagonal = a.diagonal().cwiseInverse();
  Solved s{.x = guess ? *guess : Eigen::VectorXd::Zero(b.size()), .summary = {}, .steps = {}};
  std::vector<int>& steps = s.steps;
  s.summary = parallel_bicgstab(
      [&](const double* x, double* y, int threads_now) {
        CHECK(threads_now >= 1);
        CHECK(threads_now <= std::max(1, threads));
        steps.push_back(threads_now);
        Eigen::Map<Eigen::VectorXd>(y, b.size()) =
            a * Eigen::Map<const Eigen::VectorXd>(x, b.size());
      },
      inverse_diagonal, b, s.x,
      {.tolerance = 1e-13, .max_iterations = 500, .threads = threads, .stop = stop});
  return s;
}

}  // namespace

TEST_CASE("parallel BiCGSTAB: the sparse LU's answer, the same bits on 1, 2 and 3 threads",
          "[analytic][iterative]") {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Eigen::Index n = 100'003;  // not a whole number of chunks
    const auto a = random_system(n, seed);
    std::mt19937_64 engine(seed + 10);
    std::normal_distribution<double> normal;
    Eigen::VectorXd b(n);
    for (double& v : b) v = normal(engine);
    const Eigen::SparseMatrix<double> by_columns = a;
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(by_columns);
    REQUIRE(lu.info() == Eigen::Success);
    const Eigen::VectorXd exact = lu.solve(b);

    const Solved one = solve(a, b, 1);
    REQUIRE(one.summary.converged);
    CHECK(one.summary.iterations > 1);
    CHECK(one.summary.relative_residual <= 1e-13);
    CHECK((one.x - exact).lpNorm<Eigen::Infinity>() <= 1e-11 * exact.lpNorm<Eigen::Infinity>());
    CHECK((a * one.x - b).norm() <= 1e-12 * b.norm());
    for (int threads : {2, 3}) {
      const Solved many = solve(a, b, threads);
      CHECK(many.summary.iterations == one.summary.iterations);
      CHECK((many.x.array() == one.x.array()).all());
    }
    // Threads that change from one iteration to the next (fewer while other programs hold cores)
    // give the same bits too.
    {
      const crawlq::test_support::ScopedEnvironment alternate("CRAWLQ_THREAD_ADAPTATION",
                                                              "alternate");
      const Solved switching = solve(a, b, 2);
      CHECK(std::count(switching.steps.begin(), switching.steps.end(), 1) >= 2);
      CHECK(std::count(switching.steps.begin(), switching.steps.end(), 2) >= 2);
      CHECK((switching.x.array() == one.x.array()).all());
    }
    // From the answer there is nothing left to do.
    const Solved warm = solve(a, b, 2, nullptr, &one.x);
    CHECK(warm.summary.converged);
    CHECK(warm.summary.iterations <= 1);
  }
}

TEST_CASE("parallel BiCGSTAB: a stop request ends the solve as cancelled",
          "[analytic][iterative]") {
  const auto a = random_system(1000, 7);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(1000);
  std::atomic<bool> stop{true};
  const Solved s = solve(a, b, 1, &stop);
  CHECK(s.summary.cancelled);
  CHECK_FALSE(s.summary.converged);
  CHECK(s.summary.iterations == 0);
  CHECK(solve(a, Eigen::VectorXd::Zero(1000), 1).summary.converged);
}

TEST_CASE("parallel_zeros: n zeros for any thread count, across chunk edges",
          "[analytic][iterative]") {
  // 2^14 is a chunk: one short of two chunks, two whole, and a lone entry.
  for (const Eigen::Index n : {Eigen::Index{1}, (Eigen::Index{1} << 15) - 1, Eigen::Index{1} << 15})
    for (const int threads : {1, 2, 3}) {
      INFO("n = " << n << ", threads " << threads);
      const Eigen::VectorXd zeros = crawlq::analytic::parallel_zeros(n, threads);
      REQUIRE(zeros.size() == n);
      CHECK(zeros.cwiseAbs().maxCoeff() == 0.0);
    }
}

TEST_CASE(
    "parallel BiCGSTAB: a right-hand side given by its one nonzero entry is the vector's bits",
    "[analytic][iterative]") {
  const Eigen::Index n = 70'001;
  const auto a = random_system(n, 7);
  const Eigen::VectorXd inverse_diagonal = a.diagonal().cwiseInverse();
  const crawlq::analytic::LinearOperator product = [&](const double* x, double* y, int) {
    Eigen::Map<Eigen::VectorXd>(y, n) = a * Eigen::Map<const Eigen::VectorXd>(x, n);
  };
  const crawlq::analytic::LinearOperator jacobi = [&](const double* in, double* out, int) {
    for (Eigen::Index i = 0; i < n; ++i) out[i] = inverse_diagonal[i] * in[i];
  };
  // An entry inside a chunk past the first, and the last one.
  for (const Eigen::Index index : {Eigen::Index{40'000}, n - 1}) {
    INFO("nonzero at " << index);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
    b[index] = 2.75;
    for (const int threads : {1, 2}) {
      const crawlq::analytic::KrylovOptions options{.tolerance = 1e-13, .threads = threads};
      Eigen::VectorXd from_vector = Eigen::VectorXd::Zero(n), from_entry = from_vector;
      const KrylovSummary vector_summary =
          parallel_bicgstab(product, jacobi, b, from_vector, options);
      const KrylovSummary entry_summary = parallel_bicgstab(
          product, jacobi,
          crawlq::analytic::UnitRightHandSide{.index = index, .value = 2.75, .size = n}, from_entry,
          options);
      REQUIRE(vector_summary.converged);
      CHECK(entry_summary.converged);
      CHECK(entry_summary.iterations == vector_summary.iterations);
      CHECK(entry_summary.relative_residual == vector_summary.relative_residual);
      CHECK(from_entry == from_vector);
      CHECK((a * from_entry - b).norm() < 1e-11 * b.norm());
    }
  }
}
