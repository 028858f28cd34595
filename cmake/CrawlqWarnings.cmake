# Warnings as the style guide asks, and the sanitizer build the test suite must pass.
add_library(crawlq_warnings INTERFACE)
target_compile_options(crawlq_warnings INTERFACE -Wall -Wextra -Wpedantic)

if(CRAWLQ_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Helper: one library per part, with a crawlq:: alias.
function(crawlq_part name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(crawlq_${name} ${ARG_SOURCES})
  add_library(crawlq::${name} ALIAS crawlq_${name})
  target_include_directories(crawlq_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(crawlq_${name} PUBLIC ${ARG_DEPENDS} PRIVATE crawlq_warnings)
endfunction()
