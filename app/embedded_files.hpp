#pragma once
// Files built into the binary (cmake/EmbedFiles.cmake): the lab's page and the shipped scenarios it
// opens on, so that `crawlq lab` serves them from any directory and after installation.
#include <string_view>
#include <vector>

namespace crawlq::app {

struct EmbeddedFile {
  std::string_view name;  // "index.html", "scenarios/paper-example-1.yaml", ...
  std::string_view content;
};

const std::vector<EmbeddedFile>& embedded_files();
// The file of that name, or nullptr.
const EmbeddedFile* embedded_file(std::string_view name);

}  // namespace crawlq::app
