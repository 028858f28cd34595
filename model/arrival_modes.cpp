#include "model/arrival_modes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "model/input_error.hpp"
#include "model/rate_checks.hpp"

namespace crawlq::model {

ArrivalModes::ArrivalModes(std::vector<Bmap> modes, const std::string& key_path)
    : modes_(std::move(modes)) {
  if (modes_.empty()) throw InputError(key_path, "no modes: need at least one");
  for (std::size_t r = 1; r < modes_.size(); ++r)
    if (modes_[r].phases() != modes_[0].phases())
      throw InputError(key_path, fmt::format("mode {} has {} phases but mode 1 has {}", r + 1,
                                             modes_[r].phases(), modes_[0].phases()));
}

int ArrivalModes::max_batch() const {
  int k = 0;
  for (const auto& m : modes_) k = std::max(k, m.max_batch());
  return k;
}

namespace {

int largest_batch(const std::vector<Bmap>& bmaps) {
  int k = 0;
  for (const auto& b : bmaps) k = std::max(k, b.max_batch());
  return k;
}

// row_term_sizes of the robots' own matrices on their product space: a row of A (+) B adds a row
// of A and a row of B.
Vector product_row_sizes(const std::vector<Bmap>& robots) {
  Vector sizes;
  for (std::size_t robot = 0; robot < robots.size(); ++robot) {
    const Vector own = row_term_sizes(robots[robot].matrices());
    sizes =
        robot == 0
            ? own
            : Vector(kron(sizes, Vector::Ones(own.size())) + kron(Vector::Ones(sizes.size()), own));
  }
  return sizes;
}

}  // namespace

ArrivalModes independent_robots(const std::vector<Bmap>& robots) {
  const int n = static_cast<int>(robots.size());
  const int kmax = largest_batch(robots);
  // A mode turns robots off into their generators, whose terms cancel part of the rounding the
  // robots were accepted with: it is judged against the robots' rows as written.
  const Vector written_sizes = product_row_sizes(robots);
  std::vector<Bmap> modes;
  for (int active = 1; active <= n; ++active) {
    std::vector<Matrix> d(kmax + 1);
    // Phase space: robot 1 (x) robot 2 (x) ... (x) robot N, robot 1 the slowest-changing index.
    for (int k = 0; k <= kmax; ++k) {
      Matrix acc = Matrix::Zero(1, 1);
      for (int robot = 0; robot < n; ++robot) {
        const Bmap& b = robots[robot];
        Matrix own;
        if (robot < active)
          own = b.d(k);
        else
          own = k == 0 ? b.generator() : Matrix::Zero(b.phases(), b.phases());
        acc = robot == 0 ? own : kron_sum(acc, own);
      }
      d[k] = acc;
    }
    modes.emplace_back(std::move(d), fmt::format("arrivals.robots (mode {})", active),
                       written_sizes);
  }
  return ArrivalModes(std::move(modes));
}

ArrivalModes thinned(const Bmap& base, const std::vector<double>& accept) {
  // q D_0 + (1 - q) D(1) has smaller terms than the base but all of its rounding.
  const Vector written_sizes = row_term_sizes(base.matrices());
  std::vector<Bmap> modes;
  for (std::size_t r = 0; r < accept.size(); ++r) {
    const double q = accept[r];
    std::vector<Matrix> d(base.max_batch() + 1);
    // A rejected batch is a phase change without arrivals: D_0^(r) = D_0 q + D(1)(1 - q).
    d[0] = base.d(0) * q + base.generator() * (1.0 - q);
    for (int k = 1; k <= base.max_batch(); ++k) d[k] = base.d(k) * q;
    modes.emplace_back(std::move(d), fmt::format("arrivals.accept[{}]", r), written_sizes);
  }
  return ArrivalModes(std::move(modes));
}

ArrivalModes marked(const Matrix& d0, const std::vector<std::vector<Matrix>>& marked_batches) {
  const int n = static_cast<int>(marked_batches.size());
  std::size_t kmax = 0;
  for (const auto& robot : marked_batches) kmax = std::max(kmax, robot.size());
  const auto batch = [&](int robot, std::size_t k) -> Matrix {
    const auto& own = marked_batches[robot];
    return k >= 1 && k <= own.size() ? own[k - 1] : Matrix::Zero(d0.rows(), d0.cols());
  };
  // Batches folded into D_0 cancel part of its diagonal, not of the rounding the file was accepted
  // with: every mode is judged against D_0 and every robot's D as written.
  std::vector<Matrix> written{d0};
  for (const auto& robot : marked_batches)
    written.insert(written.end(), robot.begin(), robot.end());
  const Vector written_sizes = row_term_sizes(written);
  std::vector<Bmap> modes;
  for (int active = 1; active <= n; ++active) {
    std::vector<Matrix> d(kmax + 1, Matrix::Zero(d0.rows(), d0.cols()));
    d[0] = d0;
    for (std::size_t k = 1; k <= kmax; ++k)
      for (int robot = 0; robot < n; ++robot) (robot < active ? d[k] : d[0]) += batch(robot, k);
    modes.emplace_back(std::move(d), fmt::format("arrivals (mode {})", active), written_sizes);
  }
  return ArrivalModes(std::move(modes));
}

ArrivalModes scaled(const Bmap& base, const std::vector<double>& factors) {
  std::vector<Bmap> modes;
  for (std::size_t r = 0; r < factors.size(); ++r) {
    std::vector<Matrix> d;
    for (const auto& m : base.matrices()) d.push_back(factors[r] * m);
    modes.emplace_back(std::move(d), fmt::format("arrivals.factors[{}]", r));
  }
  return ArrivalModes(std::move(modes));
}

}  // namespace crawlq::model
