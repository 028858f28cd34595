// One sample path as a request: the sink sees a path whose books balance (every page accepted is
// served, expires or is still waiting at the end), the same seed gives the same path, a sink that
// has had enough stops it, and the horizon is refused in the caller's words.
#include "api/sample_path_request.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

class Books final : public sim::Observer {
 public:
  explicit Books(long stop_after = -1) : stop_after_(stop_after) {}
  void on_interval(double, double, int level, int) override { last_level = level; }
  void on_batch(double time, int, int accepted) override { note(time), admitted += accepted; }
  void on_served(double time, double) override { note(time), ++left; }
  void on_expired(double time, double) override { note(time), ++left; }
  void on_state(double, int level, int) override { last_level = level; }
  bool wants_state() const override { return true; }
  const std::atomic<bool>& stop() const { return stop_; }

  long admitted = 0, left = 0, events = 0;
  int last_level = 0;
  std::vector<double> times;

 private:
  void note(double time) {
    times.push_back(time);
    if (++events == stop_after_) stop_ = true;
  }
  long stop_after_;
  std::atomic<bool> stop_{false};
};

api::SamplePathRequest paper_path(double horizon) {
  const auto scenario = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                 "/scenarios/data/paper-example-1.yaml");
  return {.source = "paper-example-1.yaml",
          .model = scenario.model,
          .policy = *scenario.model.policy,
          .seed = 7,
          .horizon = horizon};
}

}  // namespace

TEST_CASE("sample path: the books balance, the same seed gives the same path", "[api][sim]") {
  Books books, again;
  const sim::RunStatistics run = api::sample_path(paper_path(200), books);
  CHECK(run.complete);
  CHECK(run.simulated == 200);
  REQUIRE(books.events > 100);
  // Pages in = pages out + pages still there at the end.
  CHECK(books.admitted == books.left + books.last_level);
  CHECK(std::is_sorted(books.times.begin(), books.times.end()));
  CHECK(books.times.back() <= 200);
  api::sample_path(paper_path(200), again);
  CHECK(again.times == books.times);
}

TEST_CASE("sample path: a sink that has had enough stops it, the horizon in the caller's words",
          "[api][sim]") {
  Books books(25);
  const sim::RunStatistics run = api::sample_path(paper_path(1e6), books, &books.stop());
  CHECK_FALSE(run.complete);
  CHECK(run.simulated < 1e6);
  // The simulator looks at the flag now and then, not at every event: it stopped soon after.
  CHECK(books.events >= 25);
  CHECK(books.events < 1e6);
  for (const double horizon : {0.0, -1.0, HUGE_VAL, std::nan("")}) {
    api::SamplePathRequest request = paper_path(horizon);
    CHECK_THROWS_WITH(api::check(request), Catch::StartsWith("--horizon: "));
    request.caller = api::Caller::kLab;
    CHECK_THROWS_WITH(api::sample_path(request, books), Catch::StartsWith("path_horizon: "));
  }
}
