#include "model/message_text.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "model/input_error.hpp"

using crawlq::model::character_boundary;
using crawlq::model::utf8_character_bytes;
using crawlq::model::valid_utf8;

TEST_CASE("UTF-8 characters are recognised by RFC 3629's table", "[message_text]") {
  CHECK(utf8_character_bytes("a", 0) == 1);
  CHECK(utf8_character_bytes("\u00e9", 0) == 2);            // é
  CHECK(utf8_character_bytes("\u2212", 0) == 3);            // the minus sign
  CHECK(utf8_character_bytes("\U0001F600", 0) == 4);        // an emoji
  CHECK(utf8_character_bytes("\xc3", 0) == 0);              // cut after its first byte
  CHECK(utf8_character_bytes("\xa9", 0) == 0);              // a continuation byte alone
  CHECK(utf8_character_bytes("\xc0\xaf", 0) == 0);          // overlong '/'
  CHECK(utf8_character_bytes("\xed\xa0\x80", 0) == 0);      // a surrogate
  CHECK(utf8_character_bytes("\xf4\x90\x80\x80", 0) == 0);  // past U+10FFFF
  CHECK(utf8_character_bytes("\xff", 0) == 0);
}

TEST_CASE("a message's text is valid UTF-8: bytes that are no character written in hex",
          "[message_text]") {
  CHECK(valid_utf8("caf\u00e9 \u2212 1") == "caf\u00e9 \u2212 1");
  CHECK(valid_utf8("caf\xc3") == "caf\\xc3");
  CHECK(valid_utf8(std::string("\xff\xfe a \xe2\x88", 7)) == "\\xff\\xfe a \\xe2\\x88");
  // Every door takes the message as text: a scenario's Latin-1 name, quoted.
  const crawlq::model::InputError refused("name", "'caf\xe9' is not known");
  CHECK(std::string(refused.what()) == "name: 'caf\\xe9' is not known");
  CHECK(crawlq::model::InputError("r\xe9sum\xe9.yaml: unreadable").message() ==
        "r\\xe9sum\\xe9.yaml: unreadable");
}

TEST_CASE("a cut falls between characters", "[message_text]") {
  const std::string text = "ab\u00e9\u2212";  // 1 + 1 + 2 + 3 bytes
  CHECK(character_boundary(text, 2) == 2);
  CHECK(character_boundary(text, 3) == 2);  // not inside é
  CHECK(character_boundary(text, 4) == 4);
  CHECK(character_boundary(text, 5) == 4);  // not inside the minus sign
  CHECK(character_boundary(text, 6) == 4);
  CHECK(character_boundary(text, 7) == 7);
  CHECK(character_boundary(text, 100) == 7);
  CHECK(character_boundary("\xff\xff", 1) == 1);  // a byte that is no character stands alone
}
