#pragma once
// What the event loop tells the world (OMNeT++ signals, simmer's monitors). Statistics live in
// observers; adding one never touches the loop. Times are absolute simulation times; durations
// (interval lengths, sojourns) are measured where they happen, so they stay exact when the absolute
// time is large (a duration of 1e-6 at time 1e12 is below a double's resolution there).
namespace crawlq::sim {

class Observer {
 public:
  virtual ~Observer() = default;
  // The state held for `length` time units from `from`: level and active robots.
  virtual void on_interval(double from, double length, int level, int robots) = 0;
  // A batch of `batch` pages of which `accepted` entered the system.
  virtual void on_batch(double time, int batch, int accepted) = 0;
  virtual void on_served(double time, double sojourn) = 0;
  virtual void on_expired(double time, double sojourn) = 0;
  // After every event, once the controller has decided: the new level and active robots. Called
  // only for observers whose wants_state() is true (it is a call per event).
  virtual void on_state(double /*time*/, int /*level*/, int /*robots*/) {}
  virtual bool wants_state() const { return false; }
};

}  // namespace crawlq::sim
