#pragma once
// User text as a message quotes it: always valid UTF-8, shortened only between characters. A
// message is printed by the command line, raised by the Python package and sent by the lab as JSON,
// and each of the three breaks on a byte that is not UTF-8 (a broken glyph, an InputError with an
// empty message, a 500): a file's bytes that are no character, and a long value cut inside a
// two-byte one, are the two ways such a byte got there.
#include <cstddef>
#include <string>
#include <string_view>

namespace crawlq::model {

// The bytes of the UTF-8 character that starts at text[at] (1 to 4), or 0 when none does there (a
// stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF).
std::size_t utf8_character_bytes(std::string_view text, std::size_t at);

// `text` with every byte that is not part of a UTF-8 character written as \xNN.
std::string valid_utf8(std::string_view text);

// The longest start of `text` of at most `bytes` bytes that ends between two characters.
std::size_t character_boundary(std::string_view text, std::size_t bytes);

}  // namespace crawlq::model
