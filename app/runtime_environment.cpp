#include "app/runtime_environment.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace crawlq::app {

namespace {
// Whether both settings were added.
bool add_settings() {
  return setenv("OMP_WAIT_POLICY", "PASSIVE", 1) == 0 && setenv("GOMP_SPINCOUNT", "10000", 1) == 0;
}
}  // namespace

void start_with_runtime_settings(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  // Started through the dynamic loader (ld-linux-x86-64.so.2 PROGRAM ...), the program is not
  // /proc/self/exe: the loader is, and would not find the program again from argv.
  std::string exe(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (length <= 0) return;
  exe.resize(static_cast<std::size_t>(length));
  if (exe.substr(exe.find_last_of('/') + 1).rfind("ld-", 0) == 0) return;
  if (!add_settings()) return;
  execv(exe.c_str(), argv);
}

}  // namespace crawlq::app
