#include "app/embedded_files.hpp"

namespace crawlq::app {

const EmbeddedFile* embedded_file(std::string_view name) {
  for (const EmbeddedFile& file : embedded_files())
    if (file.name == name) return &file;
  return nullptr;
}

}  // namespace crawlq::app
