#include "model/message_text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace crawlq::model {

namespace {
bool continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }
}  // namespace

std::size_t utf8_character_bytes(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  // RFC 3629's table: the second byte's range depends on the lead (no overlong forms, no
  // surrogates, nothing past U+10FFFF); every later byte is 80..BF.
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - at < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (!continuation(byte(i))) return 0;
  return length;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = utf8_character_bytes(text, at);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[at]));
      ++at;
    } else {
      out.append(text.substr(at, n));
      at += n;
    }
  }
  return out;
}

std::size_t character_boundary(std::string_view text, std::size_t bytes) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t n =
        std::max<std::size_t>(1, utf8_character_bytes(text, at));  // a stray byte: alone
    if (at + n > bytes) break;
    at += n;
  }
  return at;
}

}  // namespace crawlq::model
