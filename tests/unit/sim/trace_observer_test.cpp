// A sample path obeys the model's rules row by row: batches add min(k, K - level) pages and lose
// the rest, a completion or an expiry removes one page, and the robots are the policy's at the
// level.
#include "sim/trace_observer.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "sim/simulator.hpp"

using namespace crawlq;

TEST_CASE("a trace follows the model's rules", "[sim][trace]") {
  // Two Poisson robots (rates 1 and 1.5 with batches of 1 or 2), exponential service and clocks.
  const model::Model m{
      .name = "trace",
      .capacity = 3,
      .arrivals = model::ArrivalModes(
          {model::Bmap({model::Matrix::Constant(1, 1, -1), model::Matrix::Constant(1, 1, 1)}),
           model::Bmap({model::Matrix::Constant(1, 1, -2), model::Matrix::Constant(1, 1, 1),
                        model::Matrix::Constant(1, 1, 1)})}),
      .service = model::PhaseType::exponential(1.2),
      .obsolescence = model::PhaseType::exponential(0.5),
      .costs = {},
      .policy = {}};
  const model::Policy levels = model::Policy::from_levels({2, 2, 1, 1}, 2, 3);
  const sim::LevelMapPolicy policy(levels);
  std::stringstream out;
  sim::TraceObserver trace(out);
  sim::Simulator(m, policy).run(3, 0, 0.0, 500.0, {&trace});

  std::string line;
  std::getline(out, line);
  CHECK(line == "time,event,level,robots,lost,expired");
  int level = 0, lost = 0, expired = 0, rows = 0, batches = 0, expiries = 0, completions = 0;
  double time = 0;
  while (std::getline(out, line)) {
    INFO(line);
    std::stringstream row(line);
    std::string field[6];
    for (auto& f : field) std::getline(row, f, ',');
    const double t = std::stod(field[0]);
    const int new_level = std::stoi(field[2]), robots = std::stoi(field[3]);
    const int new_lost = std::stoi(field[4]), new_expired = std::stoi(field[5]);
    CHECK(t >= time);
    if (field[1].rfind("batch of ", 0) == 0) {
      const int k = std::stoi(field[1].substr(9));
      const int accepted = std::min(k, m.capacity - level);
      CHECK(new_level == level + accepted);
      CHECK(new_lost == lost + (k - accepted));
      ++batches;
    } else if (field[1] == "served" || field[1] == "expired") {
      CHECK(new_level == level - 1);
      CHECK(new_expired == expired + (field[1] == "expired" ? 1 : 0));
      (field[1] == "served" ? completions : expiries)++;
    } else {
      CHECK(field[1] == "robots");
      CHECK(new_level == level);
    }
    CHECK(robots == levels.robots(new_level));
    level = new_level;
    lost = new_lost;
    expired = new_expired;
    time = t;
    ++rows;
  }
  CHECK(rows == trace.rows());
  CHECK(batches > 100);
  CHECK(completions > 100);
  CHECK(expiries > 10);
  CHECK(lost > 0);
}
