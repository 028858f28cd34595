// Outputs whole or not at all, also when the user stops the run: SIGTERM or Ctrl-C while a command
// writes its file removes the temporary it was writing (`TARGET.partial-PID`, 150 MB for a long
// `simulate --trace`) and leaves the target as it was; the process still ends by that signal.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

// crawlq started and left running, its output thrown away; the signals it is sent act as they would
// from a terminal, whatever this test inherited (a background job ignores SIGINT).
pid_t start_crawlq(const std::vector<std::string>& args) {
  std::vector<std::string> argv{CRAWLQ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (auto& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::signal(signal, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null_fd = ::open("/dev/null", O_RDWR);
    for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) ::dup2(null_fd, fd);
    ::execv(pointers[0], pointers.data());
    ::_exit(127);
  }
  return pid;
}

// The signal that ended `pid`, or -1 when it exited (its status then in `exit_status`).
int wait_for_end(pid_t pid, int& exit_status) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

struct Interrupted {
  std::vector<std::string> args;  // the command, writing its file into {target}
  int signal;
};

}  // namespace

TEST_CASE("a signal while a file is written removes its temporary and keeps the target as it was",
          "[cli][output][signal]") {
  const auto [args, signal] =
      GENERATE(Interrupted{{"simulate", "paper-example-1", "--trace", "{target}", "--horizon",
                            "1e9", "--time-limit", "1e6"},
                           SIGTERM},
               Interrupted{{"simulate", "paper-example-1", "--trace", "{target}", "--horizon",
                            "1e9", "--time-limit", "1e6"},
                           SIGINT},
               // Seconds a value here: the file is still empty when the signal comes.
               Interrupted{{"sweep", "teaching-two-robots", "--param", "capacity", "--values",
                            "1000,1001,1002,1003,1004,1005", "--threads", "1", "--csv", "{target}"},
                           SIGINT});
  TempDirectory dir;
  const std::string target = dir.write("results.csv", "the previous results\n");
  std::vector<std::string> command = args;
  for (auto& a : command)
    if (a == "{target}") a = target;
  INFO(command.front() << ", then signal " << signal);
  const pid_t pid = start_crawlq(command);
  const std::filesystem::path partial = target + ".partial-" + std::to_string(pid);
  // Polled, not timed: 600 looks 0.1 s apart, for a file made within a second of the start here.
  bool seen = false;
  for (int look = 0; look < 600 && !seen; ++look) {
    seen = std::filesystem::exists(partial);
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid, signal);
  int exit_status = 0;
  const int ended_by = wait_for_end(pid, exit_status);
  REQUIRE(seen);
  CHECK(ended_by == signal);
  CHECK_FALSE(std::filesystem::exists(partial));
  CHECK(read_text(target) == "the previous results\n");
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    left.push_back(entry.path().filename());
  CHECK(left == std::vector<std::string>{"results.csv"});
}

}  // namespace crawlq::cli_test
