#include "model/named_laws.hpp"

#include <fmt/format.h>

#include <cmath>

#include "model/input_error.hpp"
#include "model/rate_checks.hpp"

namespace crawlq::model {

namespace {

void check_positive(double value, const std::string& key, const char* what) {
  if (!std::isfinite(value) || value <= 0)
    throw InputError(key, fmt::format("{}: {} must be finite and > 0", value, what));
}

// A rate, or what makes one (a mean time), within the range every rate of a model keeps.
void check_rate(double rate, const std::string& key, const char* what) {
  check_positive(rate, key, what);
  if (rate < kSmallestRate || rate > kLargestRate)
    throw InputError(
        key, fmt::format("{}: {} gives a rate outside {:g}..{:g}: change the time unit", rate, what,
                         kSmallestRate, kLargestRate));
}

// The rate phases / mean of a law given by its mean. The file has no rate key, so a rate out of
// range is reported as the mean written, with the means that are allowed.
double rate_of_mean(int phases, double mean, const std::string& key) {
  check_positive(mean, key, "a mean time");
  const double rate = phases / mean;
  if (!(rate >= kSmallestRate && rate <= kLargestRate))
    throw InputError(
        key, fmt::format("{}: the rate {} / mean = {} is outside {:g}..{:g}: give a mean within "
                         "{:g}..{:g}, or change the time unit",
                         mean, phases, rate, kSmallestRate, kLargestRate, phases / kLargestRate,
                         phases / kSmallestRate));
  return rate;
}

RowVector row_vector(const std::vector<double>& v) {
  return Eigen::Map<const RowVector>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

PhaseType exponential_law(double rate, const std::string& key) {
  check_rate(rate, key + ".rate", "a rate");
  return PhaseType::exponential(rate);
}

PhaseType erlang_law(int phases, double mean, const std::string& key) {
  if (phases < 1 || phases > kMostNamedLawPhases)
    throw InputError(key + ".phases",
                     fmt::format("{}: give 1 to {} phases", phases, kMostNamedLawPhases));
  return PhaseType::erlang(phases, rate_of_mean(phases, mean, key + ".mean"));
}

PhaseType hyperexponential_law(const std::vector<double>& probabilities,
                               const std::vector<double>& rates, const std::string& key) {
  if (probabilities.size() > static_cast<std::size_t>(kMostNamedLawPhases))
    throw InputError(
        key + ".probabilities",
        fmt::format("{} branches: give at most {}", probabilities.size(), kMostNamedLawPhases));
  check_probability_vector(row_vector(probabilities), key + ".probabilities");
  if (rates.size() != probabilities.size())
    throw InputError(key + ".rates", fmt::format("{} rates for {} probabilities", rates.size(),
                                                 probabilities.size()));
  Matrix t = Matrix::Zero(static_cast<Eigen::Index>(rates.size()),
                          static_cast<Eigen::Index>(rates.size()));
  for (std::size_t i = 0; i < rates.size(); ++i) {
    check_rate(rates[i], fmt::format("{}.rates[{}]", key, i), "a rate");
    t(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) = -rates[i];
  }
  return PhaseType(row_vector(probabilities), t, key, "alpha", "T");
}

Bmap poisson_batches(double rate, const std::vector<double>& batch, const std::string& key) {
  check_rate(rate, key + ".rate", "a batch rate");
  check_probability_vector(row_vector(batch), key + ".batch");
  std::vector<Matrix> d{Matrix::Constant(1, 1, -rate)};
  for (double p : batch) d.push_back(Matrix::Constant(1, 1, rate * p));
  return Bmap(std::move(d), key + ".D");  // errors left are those of the D it stands for
}

}  // namespace crawlq::model
