#include "app/runtime_environment.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace crawlq::app {

namespace {
// Whether the settings had to be added (a user's own choice is kept).
bool add_settings() {
  bool added = false;
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
    if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0 || setenv("GOMP_SPINCOUNT", "10000", 1) != 0)
      return false;
    added = true;
  }
  // Tunables the user set are left as they are: glibc 2.36 keeps only the first of several in the
  // variable it passes on, so adding ours could drop theirs.
  if (std::getenv("GLIBC_TUNABLES") == nullptr) {
    if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1) != 0) return added;
    added = true;
  }
  return added;
}
}  // namespace

void start_with_runtime_settings(char** argv) {
  if ((std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) &&
      std::getenv("GLIBC_TUNABLES") != nullptr)
    return;
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
