#pragma once
// The second paper's model (Coffman, Liu, Weber 1998): one robot re-reads N pages; page i changes
// as a Poisson process of rate mu_i and is out of date from its first change after an access until
// the next access; each access takes a random time X. The policy says in which order pages are
// read.
#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/name_table.hpp"
#include "model/phase_type.hpp"

namespace crawlq::model {

struct DeterministicTime {
  double value = 0;
};

// h = E exp(-mu X) of one page, in the forms the paper's formulas need, none of which underflows,
// overflows or cancels: h itself underflows to 0 from mu X ~ 745 on, and 1 - h rounds to 0 below
// mu X ~ 1e-16. With l = -ln h and q = mu E[X], Jensen's inequality gives 0 < l <= q, so
// kappa = l / q lies in (0, 1]; delta = 1 - kappa is 0 for a constant X.
struct LaplaceValue {
  double ell = 0;      // l = -ln h (+inf only where mu X overflows)
  double log_ell = 0;  // ln l, finite where l under- or overflows
  double kappa = 1;    // l / (mu E[X])
  double delta = 0;    // 1 - kappa, computed without cancellation as mu -> 0

  double h() const { return std::exp(-ell); }
  double one_minus_h() const { return -std::expm1(-ell); }
};

// X: a phase-type law or a constant.
class AccessTime {
 public:
  explicit AccessTime(PhaseType law) : law_(std::move(law)) {}
  explicit AccessTime(DeterministicTime constant) : law_(constant) {}

  double mean() const;
  // h(mu) = E exp(-mu X): alpha (mu I - T)^{-1} t for a phase-type law, exp(-mu x) for a constant.
  double laplace_transform(double mu) const { return laplace_value(mu).h(); }
  LaplaceValue laplace_value(double mu) const;
  const std::variant<PhaseType, DeterministicTime>& law() const { return law_; }

 private:
  std::variant<PhaseType, DeterministicTime> law_;
};

enum class RefreshPolicyKind { kRandomized, kCyclic, kGoldenRatio };
inline constexpr NameTable<RefreshPolicyKind, 3> kRefreshPolicyNames{
    "policy",
    {{{RefreshPolicyKind::kRandomized, "randomized"},
      {RefreshPolicyKind::kGoldenRatio, "golden-ratio"},
      {RefreshPolicyKind::kCyclic, "cyclic"}}}};

struct RefreshPolicySpec {
  RefreshPolicyKind kind = RefreshPolicyKind::kRandomized;
  // Access frequencies (normalised to sum 1); nothing: the optimal ones (randomized: problem
  // CLW (12); golden-ratio: problem CLW (7)). Cyclic policies take theirs from the sequence.
  std::optional<std::vector<double>> frequencies;
  std::vector<int> sequence;  // cyclic: the page indices (from 0) of one cycle
  long cycle = 0;             // golden-ratio: F_k, a Fibonacci number (0: chosen from N)
};

struct RefreshModel {
  std::string name;
  std::vector<double> change_rates;  // mu_i > 0
  std::vector<double> weights;       // c_i > 0 (the file's default: equal to mu_i)
  AccessTime access_time;
  RefreshPolicySpec policy;
  std::string time_unit{};  // the rates' unit of time, singular ("day"); empty: none named

  int pages() const { return static_cast<int>(change_rates.size()); }
  // Whether c_i = c_0 mu_i for one c_0 (relative 1e-12): the closed forms CLW (6), CLW (10) and
  // CLW (16) apply.
  bool weights_proportional_to_rates() const;
  // Throws InputError naming the key under `refresh.` on the first broken rule.
  void validate() const;
};

// Below this mu_i E[X] a page's obsolescence rate (about mu_i E[X] / 2 and less) would leave the
// normal doubles, where its digits and every ratio built on it are lost.
inline constexpr double kSmallestChangePerRead = 1e-300;

// Above this sum c_i a cost (at most sum c_i) is still a double, but a 95% interval around it, up
// to about 6 sum c_i wide, may not be.
inline constexpr double kLargestTotalWeight = 1e307;

// Fibonacci numbers F_1 = 1, F_2 = 2, F_3 = 3, 5, 8, 13, ... (the paper's F_8 = 13), every one a
// long holds (up to F_91 = 7540113804746346429).
const std::vector<long>& fibonacci_numbers();
bool is_fibonacci(long n);

}  // namespace crawlq::model
