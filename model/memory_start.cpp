#include "model/memory_start.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "model/admission.hpp"
#include "model/input_error.hpp"

namespace crawlq::model {

namespace {
// The levels a batch can reach from `level` in `mode` (by model.admission), 0 excluded.
std::vector<int> admitted_counts(const Model& model, int mode, int level) {
  const Bmap& bmap = model.arrivals.mode(mode);
  std::vector<int> counts;
  for (int k = 1; k <= bmap.max_batch(); ++k) {
    if (bmap.d(k).isZero(0)) continue;
    const int a = accepted_pages(model.admission, level, model.capacity, k);
    if (a > 0 && std::find(counts.begin(), counts.end(), a) == counts.end()) counts.push_back(a);
  }
  return counts;
}
}  // namespace

int recurrent_empty_mode(const Model& model, const MemoryPolicy& memory) {
  const int n = model.modes(), k = model.capacity;
  const auto node = [n](int level, int mode) {
    return static_cast<std::size_t>(level) * n + (mode - 1);
  };
  std::vector<std::vector<int>> up(static_cast<std::size_t>(n) * (k + 1));
  for (int level = 0; level <= k; ++level)
    for (int mode = 1; mode <= n; ++mode)
      up[node(level, mode)] = admitted_counts(model, mode, level);
  // reach[m-1][m'-1]: from (0, m), the chain can be at level 0 with mode m'.
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (int start = 1; start <= n; ++start) {
    std::vector<char> seen(up.size(), 0);
    std::vector<std::pair<int, int>> stack{{0, start}};
    seen[node(0, start)] = 1;
    while (!stack.empty()) {
      // Plain copies: clang 14 cannot capture a structured binding in the lambda below.
      const int level = stack.back().first;
      const int mode = stack.back().second;
      stack.pop_back();
      if (level == 0) reach[start - 1][mode - 1] = 1;
      const auto visit = [&](int to) {
        const int next_mode =
            memory.next[static_cast<std::size_t>(to)][static_cast<std::size_t>(mode - 1)];
        if (!seen[node(to, next_mode)]) {
          seen[node(to, next_mode)] = 1;
          stack.emplace_back(to, next_mode);
        }
      };
      if (level > 0) visit(level - 1);
      for (const int a : up[node(level, mode)]) visit(level + a);
    }
  }
  std::vector<int> recurrent;
  for (int m = 1; m <= n; ++m) {
    bool returns = true;
    for (int other = 1; other <= n; ++other)
      if (reach[m - 1][other - 1] && !reach[other - 1][m - 1]) returns = false;
    if (returns) recurrent.push_back(m);
  }
  for (const int m : recurrent)
    for (const int other : recurrent)
      if (!reach[m - 1][other - 1])
        throw InputError(
            "policy.memory",
            fmt::format(
                "the empty system with mode {} in force never comes to mode {} and back: the long run "
                "depends on the mode the crawl starts in (let some level pick one mode whatever is in force)",
                m, other));
  return recurrent.front();
}

}  // namespace crawlq::model
