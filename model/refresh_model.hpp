#pragma once
// The second paper's model (Coffman, Liu, Weber 1998): one robot re-reads N pages; page i changes as
// a Poisson process of rate mu_i and is out of date from its first change after an access until the
// next access; each access takes a random time X. The policy says in which order pages are read.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/phase_type.hpp"

namespace crawlq::model {

struct DeterministicTime {
  double value = 0;
};

// X: a phase-type law or a constant.
class AccessTime {
 public:
  explicit AccessTime(PhaseType law) : law_(std::move(law)) {}
  explicit AccessTime(DeterministicTime constant) : law_(constant) {}

  double mean() const;
  // h(mu) = E exp(-mu X): alpha (mu I - T)^{-1} t for a phase-type law, exp(-mu x) for a constant.
  double laplace_transform(double mu) const;
  const std::variant<PhaseType, DeterministicTime>& law() const { return law_; }

 private:
  std::variant<PhaseType, DeterministicTime> law_;
};

enum class RefreshPolicyKind { kRandomized, kCyclic, kGoldenRatio };

struct RefreshPolicySpec {
  RefreshPolicyKind kind = RefreshPolicyKind::kRandomized;
  // Access frequencies (normalised to sum 1); nothing: the optimal ones (randomized: problem (12);
  // golden-ratio: problem (7)). Cyclic policies take theirs from the sequence.
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

  int pages() const { return static_cast<int>(change_rates.size()); }
  // Whether c_i = c_0 mu_i for one c_0 (relative 1e-12): the closed forms (6), (10) and (16) apply.
  bool weights_proportional_to_rates() const;
  // Throws InputError naming the key under `refresh.` on the first broken rule.
  void validate() const;
};

// Fibonacci numbers F_1 = 1, F_2 = 2, F_3 = 3, 5, 8, 13, ... (the paper's F_8 = 13), up to 2^62.
const std::vector<long>& fibonacci_numbers();
bool is_fibonacci(long n);

}  // namespace crawlq::model
