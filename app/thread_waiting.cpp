#include "app/thread_waiting.hpp"

#include <unistd.h>

#include <cstdlib>

namespace crawlq::app {

void wait_without_spinning(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
}

}  // namespace crawlq::app
