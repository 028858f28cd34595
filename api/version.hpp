#pragma once
// Which crawlq this is. Defined in a file the build writes (cmake/VersionFile.cmake), in its own
// library (crawlq::version) that only the program and the Python module link, so that a new commit
// relinks those two and nothing else.
namespace crawlq::api {

// "0.1.0 (git 1a2b3c4d5e6f)": the project's version (CMake's) and, built from a git checkout, the
// commit, with ", changed" when the checkout differed from it.
const char* version();

}  // namespace crawlq::api
