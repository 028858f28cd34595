// The lab's admission: one memory budget for every request in flight, a bounded number of long
// computations, long requests in arrival order, and refusals (never an allocation failure) when
// the lab is full.
#include "server/lab_work_gate.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "analytic/stationary/memory_estimate.hpp"
#include "model/input_error.hpp"

namespace crawlq::server {
namespace {

using namespace std::chrono_literals;

// Long enough for a waiter to be seen waiting on any machine, short enough to keep the test quick:
// no verdict below depends on it being exact.
constexpr auto kSettle = 200ms;

WorkGateLimits limits(double bytes, int slots, int waiting, std::chrono::milliseconds wait) {
  return {
      .memory_bytes = bytes, .long_slots = slots, .most_waiting = waiting, .longest_wait = wait};
}

// A request admitted on another thread, setting `admitted` once it is; its ticket comes with the
// future's value.
std::future<std::unique_ptr<WorkGate::Ticket>> admit_aside(WorkGate& gate, double bytes,
                                                           bool long_work,
                                                           std::atomic<bool>& admitted) {
  return std::async(std::launch::async, [&gate, bytes, long_work, &admitted] {
    auto ticket = gate.admit(bytes, long_work, nullptr);
    admitted = true;
    return ticket;
  });
}

TEST_CASE("requests share one memory budget: one that does not fit beside the others waits",
          "[lab]") {
  WorkGate gate(limits(100, 4, 8, 60s));
  auto first = gate.admit(60, false, nullptr);
  std::atomic<bool> second_admitted{false};
  auto second = admit_aside(gate, 50, false, second_admitted);
  std::this_thread::sleep_for(kSettle);
  CHECK_FALSE(second_admitted);                 // 60 + 50 > 100
  auto small = gate.admit(40, false, nullptr);  // 60 + 40 fits: not held up behind the waiter
  CHECK(small);
  small.reset();
  first.reset();
  CHECK(second.get());
  CHECK(second_admitted);
}

TEST_CASE("a request larger than the whole budget is refused at once with the sizes", "[lab]") {
  WorkGate gate(limits(double(1 << 30), 1, 8, 60s));
  try {
    gate.admit(3.0 * (1 << 30), false, nullptr);
    FAIL("admitted");
  } catch (const model::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("3.00 GiB") && Catch::Contains("1.00 GiB"));
  }
}

TEST_CASE("long requests take a slot each, in arrival order, and short ones never wait for a slot",
          "[lab]") {
  WorkGate gate(limits(1000, 1, 8, 60s));
  auto running = gate.admit(1, true, nullptr);
  std::vector<int> order;
  std::mutex order_mutex;
  const auto queue = [&](int id) {
    return std::async(std::launch::async, [&, id] {
      auto ticket = gate.admit(1, true, nullptr);
      std::lock_guard lock(order_mutex);
      order.push_back(id);
      return ticket;
    });
  };
  auto a = queue(1);
  std::this_thread::sleep_for(kSettle);
  auto b = queue(2);
  std::this_thread::sleep_for(kSettle);
  CHECK(gate.admit(1, false, nullptr));  // a cheap solve passes the queue
  running.reset();
  a.get().reset();
  b.get().reset();
  CHECK(order == std::vector<int>{1, 2});
}

TEST_CASE("too many waiting, or a wait too long, is LabBusy, and a cancelled waiter leaves",
          "[lab]") {
  WorkGate gate(limits(1000, 1, 1, 300ms));
  auto running = gate.admit(1, true, nullptr);
  api::Cancellation cancel{false};
  auto waiter = std::async(std::launch::async, [&] { return gate.admit(1, true, &cancel); });
  std::this_thread::sleep_for(kSettle / 4);
  CHECK_THROWS_AS(gate.admit(1, true, nullptr), LabBusy);  // the one waiting place is taken
  cancel = true;
  CHECK_THROWS_AS(waiter.get(), LabCancelled);
  // The waiter's turn is given up: the next one is not stuck behind it; it times out as busy.
  CHECK_THROWS_AS(gate.admit(1, true, nullptr), LabBusy);
  running.reset();
  CHECK(gate.admit(1, true, nullptr));
}

TEST_CASE("the budget is released whole when the work ends", "[lab]") {
  WorkGate gate(limits(100, 2, 8, 60s));
  for (int round = 0; round < 50; ++round) {
    auto a = gate.admit(70, true, nullptr);
    a.reset();
    auto b = gate.admit(100, true, nullptr);
  }
  CHECK(gate.admit(100, false, nullptr));
}

TEST_CASE("the lab's budget is within what this process may use", "[lab]") {
  const double budget = lab_memory_budget(0);
  CHECK(budget > 0);
  CHECK(budget <= 0.8 * analytic::physical_memory_bytes());
}

TEST_CASE("idle slots are lent to admitted work, none while anyone waits, and come back", "[lab]") {
  WorkGate gate(limits(100, 4, 8, 60s));
  auto first = gate.admit(10, true, nullptr);
  {
    const auto loan = gate.lend_idle_slots(8);
    CHECK(loan->slots() == 3);  // four slots, one held
    CHECK(gate.lend_idle_slots(8)->slots() == 0);
    // A long request now waits for the loan to end.
    std::atomic<bool> admitted{false};
    auto second = admit_aside(gate, 10, true, admitted);
    std::this_thread::sleep_for(kSettle);
    CHECK_FALSE(admitted);
    CHECK(gate.lend_idle_slots(8)->slots() == 0);  // someone waits: nothing lent
    first.reset();  // its own slot frees and goes to the waiter, not to a loan
    CHECK(second.get());
    CHECK(admitted);
  }
  // Everything given back (the second's ticket went with the value its future gave): four idle.
  CHECK(gate.lend_idle_slots(2)->slots() == 2);
  CHECK(gate.lend_idle_slots(8)->slots() == 4);
  // A request waiting for memory, not a slot: the idle slots are not lent either, since the work
  // lent them would hold on to memory it is waiting for.
  auto large = gate.admit(90, false, nullptr);
  std::atomic<bool> waited_in{false};
  auto waiting = admit_aside(gate, 50, false, waited_in);
  std::this_thread::sleep_for(kSettle);
  REQUIRE_FALSE(waited_in);
  CHECK(gate.lend_idle_slots(8)->slots() == 0);
  large.reset();
  CHECK(waiting.get());
}

}  // namespace
}  // namespace crawlq::server
