#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char* argv[]) {
  // A test's threads should not depend on how busy the machine is (analytic/adaptive_threads.hpp):
  // the processes the tests start inherit this too. Tests of the adaptation set their own mode.
  setenv("CRAWLQ_THREAD_ADAPTATION", "off", 0);
  return Catch::Session().run(argc, argv);
}
