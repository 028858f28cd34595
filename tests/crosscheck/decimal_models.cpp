#include "tests/crosscheck/decimal_models.hpp"

#include <fmt/format.h>

#include <random>
#include <vector>

namespace crawlq::crosscheck {

namespace {

using Counts = std::vector<std::vector<long>>;  // a matrix in units of 10^-decimals

class Writer {
 public:
  Writer(std::uint64_t seed, int decimals) : engine_(seed), decimals_(decimals) {
    for (int i = 0; i < decimals; ++i) unit_ *= 10;
  }
  int integer(int low, int high) { return std::uniform_int_distribution<int>(low, high)(engine_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
  // A positive count of units, most of them with a nonzero last digit.
  long count(long most) { return integer(1, static_cast<int>(most)); }
  long unit() const { return unit_; }

  // The count as the decimal a person writes: "-0.35", "2", "0.1", sometimes "1e-1" or a quoted
  // "0.30" (YAML strings are numbers too).
  std::string text(long n) {
    const bool negative = n < 0;
    const long a = negative ? -n : n;
    std::string digits = fmt::format("{}.{:0{}}", a / unit_, a % unit_, decimals_);
    if (chance(0.5)) {
      while (digits.back() == '0') digits.pop_back();
      if (digits.back() == '.') digits.pop_back();
    }
    if (a != 0 && chance(0.15)) digits = fmt::format("{}e-{}", a, decimals_);  // 0.35 as 35e-2
    std::string out = (negative ? "-" : "") + digits;
    return chance(0.1) ? "'" + out + "'" : out;
  }

  std::string matrix(const Counts& m) {
    std::string s = "[";
    for (std::size_t i = 0; i < m.size(); ++i) {
      s += i == 0 ? "[" : ", [";
      for (std::size_t j = 0; j < m[i].size(); ++j) s += (j == 0 ? "" : ", ") + text(m[i][j]);
      s += "]";
    }
    return s + "]";
  }

 private:
  std::mt19937_64 engine_;
  int decimals_;
  long unit_ = 1;
};

// Counts that add up to one whole (10^decimals units), some zero.
std::vector<long> probabilities(Writer& w, int n) {
  std::vector<long> p(n, 0);
  long left = w.unit();
  for (int i = 0; i + 1 < n && left > 0; ++i)
    if (w.chance(0.7)) {
      p[i] = w.integer(0, static_cast<int>(left));
      left -= p[i];
    }
  p[n - 1] += left;
  return p;
}

// A sub-generator (or, with `exits` all zero, a generator) whose diagonal is minus the rest of its
// row.
std::string phase_type(Writer& w, const char* initial_key, const char* matrix_key, int phases) {
  Counts t(phases, std::vector<long>(phases, 0));
  std::vector<long> exit(phases, 0);
  const int exiting = w.integer(0, phases - 1);
  for (int i = 0; i < phases; ++i) {
    if (i == exiting || w.chance(0.4)) exit[i] = w.count(3 * w.unit());
    for (int j = 0; j < phases; ++j)
      if (i != j && w.chance(0.5)) t[i][j] = w.count(2 * w.unit());
    if (exit[i] == 0 && i != exiting) t[i][exiting] += w.count(w.unit());  // absorption reachable
  }
  for (int i = 0; i < phases; ++i) {
    long others = exit[i];
    for (int j = 0; j < phases; ++j)
      if (j != i) others += t[i][j];
    t[i][i] = -others;
  }
  const std::vector<long> initial = probabilities(w, phases);
  const std::string v = w.matrix(Counts{initial});
  return fmt::format("{{{}: {}, {}: {}}}", initial_key, v.substr(1, v.size() - 2), matrix_key,
                     w.matrix(t));
}

std::string bmap(Writer& w, int phases, int kmax) {
  std::vector<Counts> d(kmax + 1, Counts(phases, std::vector<long>(phases, 0)));
  for (int k = 0; k <= kmax; ++k)
    for (int i = 0; i < phases; ++i)
      for (int j = 0; j < phases; ++j)
        if ((k > 0 || i != j) && w.chance(0.45)) d[k][i][j] = w.count(w.unit() + w.unit() / 2);
  for (int i = 0; i < phases; ++i) {  // a cycle through the phases keeps D(1) irreducible
    const int next = (i + 1) % phases;
    d[next == i ? w.integer(1, kmax) : w.integer(0, kmax)][i][next] += w.count(w.unit());
  }
  d[kmax][w.integer(0, phases - 1)][w.integer(0, phases - 1)] += w.count(w.unit());
  for (int i = 0; i < phases; ++i) {
    long others = 0;
    for (int k = 0; k <= kmax; ++k)
      for (int j = 0; j < phases; ++j)
        if (k > 0 || j != i) others += d[k][i][j];
    d[0][i][i] = -others;
  }
  std::string s = "[";
  for (int k = 0; k <= kmax; ++k) s += (k == 0 ? "" : ", ") + w.matrix(d[k]);
  return s + "]";
}

}  // namespace

DecimalModel decimal_model(std::uint64_t seed) {
  const int decimals = static_cast<int>(seed % 3) + 1;
  Writer w(seed * 7919 + 17, decimals);
  while (true) {
    const int arrival_phases = w.integer(1, 3), service_phases = w.integer(1, 3);
    const int clock_phases = w.integer(0, 2), modes = w.integer(1, 3), capacity = w.integer(1, 4);
    long states = 1, clocks = 1, per_server = 0;
    for (int level = 1; level <= capacity;
         ++level, clocks *= (clock_phases == 0 ? 1 : clock_phases))
      per_server += clocks;
    states = arrival_phases * (1 + service_phases * per_server);
    if (states > 1500) continue;
    std::string yaml = fmt::format(
        "name: decimal-{}\ncapacity: {}\nadmission: {}\narrivals:\n  kind: per-mode\n  modes:\n",
        seed, capacity, w.chance(0.5) ? "partial" : "reject-batch");
    for (int r = 0; r < modes; ++r)
      yaml += fmt::format("    - D: {}\n", bmap(w, arrival_phases, w.integer(1, 3)));
    yaml += fmt::format("service: {}\n", phase_type(w, "beta", "S", service_phases));
    if (clock_phases > 0)
      yaml += fmt::format("obsolescence: {}\n", phase_type(w, "gamma", "Gamma", clock_phases));
    yaml += fmt::format(
        "costs: {{loss: {}, obsolescence: {}, sojourn: {}, robot: {}, starvation: {}}}\n",
        w.text(w.count(9 * w.unit())), w.text(w.count(9 * w.unit())), w.text(w.count(3 * w.unit())),
        w.text(w.count(3 * w.unit())), w.text(w.count(9 * w.unit())));
    std::string levels;
    for (int level = 0; level <= capacity; ++level)
      levels += fmt::format("{}{}", level == 0 ? "" : ", ", w.integer(1, modes));
    yaml += fmt::format("policy: {{levels: [{}]}}\n", levels);
    return {yaml, decimals};
  }
}

}  // namespace crawlq::crosscheck
