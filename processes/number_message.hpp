#pragma once
// What one process sends another through a ProcessGroup: a flat list of doubles, written and read
// back in the same order. Integers travel as doubles, exact below 2^53.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/measure_list.hpp"

namespace crawlq::processes {

class NumberWriter {
 public:
  void put(double x) { numbers_.push_back(x); }
  // Its length first.
  template <typename T>
  void put(const std::vector<T>& values) {
    put(static_cast<double>(values.size()));
    for (const T& v : values) put(static_cast<double>(v));
  }
  // A flag (0 absent, 1 present), then the value.
  void put(const std::optional<double>& x) {
    put(x ? 1.0 : 0.0);
    if (x) put(*x);
  }
  const std::vector<double>& numbers() const { return numbers_; }

 private:
  std::vector<double> numbers_;
};

class NumberReader {
 public:
  explicit NumberReader(const std::vector<double>& numbers) : numbers_(numbers) {}
  explicit NumberReader(std::vector<double>&&) = delete;  // it reads in place: keep the list alive
  double number() {
    if (next_ >= numbers_.size()) throw std::logic_error("a process's message ended early");
    return numbers_[next_++];
  }
  std::size_t count() { return static_cast<std::size_t>(number()); }
  template <typename T>
  std::vector<T> list() {
    std::vector<T> values(count());
    for (T& v : values) v = static_cast<T>(number());
    return values;
  }
  std::optional<double> optional() {
    if (number() == 0) return std::nullopt;
    return number();
  }
  bool done() const { return next_ == numbers_.size(); }

 private:
  const std::vector<double>& numbers_;
  std::size_t next_ = 0;
};

// Every measure of the list, in its order: the scalars, then each list with its length.
inline void put_measures(NumberWriter& out, const model::MeasureSet<double>& m) {
  for (const auto& measure : model::scalar_measures<double>()) out.put(m.*measure.field);
  for (const auto& measure : model::list_measures<double>()) out.put(m.*measure.field);
}

inline void read_measures(NumberReader& in, model::MeasureSet<double>& m) {
  for (const auto& measure : model::scalar_measures<double>()) m.*measure.field = in.number();
  for (const auto& measure : model::list_measures<double>()) m.*measure.field = in.list<double>();
}

}  // namespace crawlq::processes
