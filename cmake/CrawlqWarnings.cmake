# Warnings as the style guide asks, and the sanitizer build the test suite must pass.
add_library(crawlq_warnings INTERFACE)
target_compile_options(crawlq_warnings INTERFACE -Wall -Wextra -Wpedantic)

if(CRAWLQ_FUZZ)
  # libFuzzer ships with clang only (-fsanitize=fuzzer); g++ has no equivalent.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR
      "CRAWLQ_FUZZ=ON needs clang, which ships libFuzzer, but this build directory uses "
      "${CMAKE_CXX_COMPILER_ID} (${CMAKE_CXX_COMPILER}). Configure a fresh directory with clang:\n"
      "  cmake -S . -B build-fuzz -DCRAWLQ_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ "
      "-DCMAKE_BUILD_TYPE=RelWithDebInfo\n"
      "(Debian: apt-get install clang libomp-dev)")
  endif()
  # Every library gets coverage edges for libFuzzer to follow (only the harness links its main), and
  # assertions stay on whatever the build type: Eigen's index checks catch a coefficient read out of
  # a matrix's shape but inside its memory, which ASan cannot see.
  add_compile_options(-fsanitize=fuzzer-no-link -UNDEBUG)
endif()
if(CRAWLQ_SANITIZE OR CRAWLQ_FUZZ)
  # -g1 keeps the line tables a report's stack needs and drops the types and locals that made the
  # sanitizer build's objects 8 GB and half its time (compiled one source at a time, CI's longest stage).
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
                      -g1)
  add_link_options(-fsanitize=address,undefined)
endif()

# Helper: one library per part, with a crawlq:: alias.
# A part's headers are reachable only through its target: its include directory is a view holding
# one link, <folder> -> the part's sources, so `#include "analytic/..."` compiles in sim/ only if sim
# linked analytic (the layering of style.md, enforced; tests/layering checks it).
function(crawlq_part name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(crawlq_${name} ${ARG_SOURCES})
  add_library(crawlq::${name} ALIAS crawlq_${name})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(view ${PROJECT_BINARY_DIR}/part_headers/${folder})
  file(MAKE_DIRECTORY ${view})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${view}/${folder} SYMBOLIC)
  target_include_directories(crawlq_${name} PUBLIC ${view})
  set_property(GLOBAL PROPERTY crawlq_part_view_${folder} ${view})
  target_link_libraries(crawlq_${name} PUBLIC ${ARG_DEPENDS} PRIVATE crawlq_warnings)
  # Compiled a batch of sources at a time: CLI11, Eigen and nlohmann::json are header-only, and their
  # inline code compiled once per source was most of a build (README's first command: 3 min 15 s to
  # build the program on two cores, 1 min 45 s so). The price: names in one file's anonymous namespace
  # must differ from those of the other files of its part (the compiler says when they do not).
  # -DCRAWLQ_UNITY_BUILD=OFF compiles every source alone, which proves it has the includes it needs
  # (README, Build options); CI no longer does, for its time.
  set_target_properties(crawlq_${name} PROPERTIES UNITY_BUILD ${CRAWLQ_UNITY_BUILD})
endfunction()
