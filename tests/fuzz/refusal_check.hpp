#pragma once
// What every harness asks of a refusal: the documented error (model::InputError or a type derived
// from it) with a message the command line prints as its one line, the Python package raises and
// the lab sends as JSON: starting with the input's name, on one line, in valid UTF-8. Anything else
// aborts the run, so that libFuzzer keeps the input.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "model/input_error.hpp"
#include "model/text_file.hpp"

namespace crawlq::fuzz {

// `names`: the input's name, or the flags that may be named instead; the name is followed by ": "
// or by " line N: ". None: a part's own message, which its caller prefixes with the input's name.
inline void check_refusal(const model::InputError& e, std::initializer_list<std::string> names) {
  const std::string message = e.what();
  bool named = names.size() == 0;
  for (const std::string& name : names)
    named =
        named || (message.compare(0, name.size(), name) == 0 && message.size() > name.size() + 1 &&
                  (message[name.size()] == ':' || message.compare(name.size(), 6, " line ") == 0));
  bool utf8 = true;
  try {
    model::require_utf8(message, "the message");
  } catch (const model::InputError&) {
    utf8 = false;
  }
  const char* broken = !named ? "does not start with the input's name"
                       : message.find('\n') != std::string::npos ? "is more than one line"
                       : !utf8                                   ? "is not UTF-8"
                                                                 : nullptr;
  if (broken != nullptr) {
    std::fprintf(stderr, "refusal message %s: [%s]\n", broken, message.c_str());
    std::abort();
  }
}

}  // namespace crawlq::fuzz
