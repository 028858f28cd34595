#include "analytic/stationary/controlled_arrivals.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "model/admission.hpp"
#include "model/input_error.hpp"
#include "model/memory_start.hpp"

namespace crawlq::analytic {

model::Matrix ArrivalRows::d_k(int k) const {
  if (k < 0 || k > max_batch()) return model::Matrix::Zero(phases(), phases());
  return d[static_cast<std::size_t>(k)];
}

namespace {

ArrivalRows rows_of(const model::Bmap& bmap) { return {bmap.matrices()}; }

// Row nu of each D_k from mode robots[nu]'s BMAP.
ArrivalRows mixed_rows(const model::ArrivalModes& arrivals, const std::vector<int>& robots) {
  int longest = 0;
  for (const int r : robots) longest = std::max(longest, arrivals.mode(r).max_batch());
  const int w = arrivals.phases();
  ArrivalRows rows{
      std::vector<model::Matrix>(static_cast<std::size_t>(longest) + 1, model::Matrix::Zero(w, w))};
  for (int nu = 0; nu < w; ++nu) {
    const model::Bmap& bmap = arrivals.mode(robots[static_cast<std::size_t>(nu)]);
    for (int k = 0; k <= bmap.max_batch(); ++k)
      rows.d[static_cast<std::size_t>(k)].row(nu) = bmap.d(k).row(nu);
  }
  return rows;
}

}  // namespace

ControlledArrivals::ControlledArrivals(const model::Model& model,
                                       const model::ControlPolicy& policy)
    : arrival_phases_(model.arrivals.phases()),
      phases_(arrival_phases_),
      admission_(model.admission) {
  const int capacity = model.capacity;
  std::visit(model::Overloaded{
                 [&](const model::Policy& levels) {
                   std::vector<std::vector<int>> robots;
                   for (int level = 0; level <= capacity; ++level)
                     robots.push_back({levels.robots(level)});
                   take_levels(model, robots);
                 },
                 [&](const model::PhaseAwarePolicy& table) { take_levels(model, table.robots); },
                 [&](const model::HysteresisPolicy& h) {
                   take_memory(model, model::as_memory(h, model.modes(), capacity));
                 },
                 [&](const model::MemoryPolicy& memory) { take_memory(model, memory); },
                 [&](const model::TablePolicy&) {
                   throw std::logic_error(
                       "a full-state table has no arrival rows by level: FullStateChain solves it");
                 }},
             policy);
}

void ControlledArrivals::take_levels(const model::Model& model,
                                     const std::vector<std::vector<int>>& robots) {
  for (int r = 1; r <= model.modes(); ++r) rows_.push_back(rows_of(model.arrivals.mode(r)));
  std::map<std::vector<int>, int> mixed;  // a row of robots by phase -> its rows' index
  for (const auto& row : robots) {
    // A row whose phases all run the same robots is that mode's BMAP (and the level map's key).
    const bool uniform =
        std::all_of(row.begin(), row.end(), [&](int r) { return r == row.front(); });
    if (uniform) {
      robots_.push_back({row.front()});
      level_rows_.push_back(row.front() - 1);
      continue;
    }
    robots_.push_back(row);
    auto [it, added] = mixed.try_emplace(row, static_cast<int>(rows_.size()));
    if (added) rows_.push_back(mixed_rows(model.arrivals, row));
    level_rows_.push_back(it->second);
  }
}

void ControlledArrivals::take_memory(const model::Model& model, const model::MemoryPolicy& memory) {
  const int n = model.modes(), w = arrival_phases_;
  phases_ = n * w;
  next_ = memory.next;
  int longest = 0;
  for (int r = 1; r <= n; ++r) longest = std::max(longest, model.arrivals.mode(r).max_batch());
  // Mode r's matrices in mode r's phases: between level changes the mode stays.
  ArrivalRows rows{std::vector<model::Matrix>(static_cast<std::size_t>(longest) + 1,
                                              model::Matrix::Zero(phases_, phases_))};
  for (int r = 1; r <= n; ++r) {
    const model::Bmap& bmap = model.arrivals.mode(r);
    for (int k = 0; k <= bmap.max_batch(); ++k)
      rows.d[static_cast<std::size_t>(k)].block((r - 1) * w, (r - 1) * w, w, w) = bmap.d(k);
  }
  rows_.push_back(std::move(rows));
  level_rows_.assign(memory.next.size(), 0);
  for (const auto& next : memory.next) {
    std::vector<int> entered;
    for (int r = 1; r <= n; ++r)
      for (int nu = 0; nu < w; ++nu)
        entered.push_back((next[static_cast<std::size_t>(r - 1)] - 1) * w + nu);
    entered_.push_back(std::move(entered));
  }
  recurrent_empty_phase_ = environment_phase(model::recurrent_empty_mode(model, memory), 0);
}

std::optional<model::Matrix> ControlledArrivals::on_entering(int level) const {
  if (!remembers()) return std::nullopt;
  model::Matrix jump = model::Matrix::Zero(phases_, phases_);
  for (int phase = 0; phase < phases_; ++phase) jump(phase, entered_phase(level, phase)) = 1;
  return jump;
}

std::vector<model::Matrix> ControlledArrivals::by_admitted(int level) const {
  const ArrivalRows& rows = at_level(level);
  const int w = rows.phases();
  const int most = std::min(capacity() - level, rows.max_batch());
  std::vector<model::Matrix> grouped(static_cast<std::size_t>(most) + 1, model::Matrix::Zero(w, w));
  for (int k = 1; k <= rows.max_batch(); ++k)
    grouped[static_cast<std::size_t>(model::accepted_pages(admission_, level, capacity(), k))] +=
        rows.d_k(k);
  for (int a = 1; a <= most; ++a)
    if (const auto jump = on_entering(level + a)) grouped[static_cast<std::size_t>(a)] *= *jump;
  return grouped;
}

int ControlledArrivals::robots(int level, int phase) const {
  if (remembers()) return phase / arrival_phases_ + 1;
  const auto& row = robots_[static_cast<std::size_t>(level)];
  return row.size() == 1 ? row.front() : row[static_cast<std::size_t>(phase)];
}

std::vector<int> ControlledArrivals::signature(int level) const {
  if (!remembers()) return robots_[static_cast<std::size_t>(level)];
  // The level's own switch (batches that stay at it do not use it, but entering it from above does
  // through the level below's blocks) and the one below (its departures).
  std::vector<int> key{-1};
  for (const int l : {level, level - 1})
    if (l >= 0)
      key.insert(key.end(), next_[static_cast<std::size_t>(l)].begin(),
                 next_[static_cast<std::size_t>(l)].end());
  return key;
}

}  // namespace crawlq::analytic
