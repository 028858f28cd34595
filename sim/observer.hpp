#pragma once
// What the event loop tells the world (OMNeT++ signals, simmer's monitors). Statistics live in
// observers; adding one never touches the loop. Times are absolute simulation times.
namespace crawlq::sim {

class Observer {
 public:
  virtual ~Observer() = default;
  // The state held from `from` to `to`: level and active robots.
  virtual void on_interval(double from, double to, int level, int robots) = 0;
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
