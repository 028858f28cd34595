# Run at every build (cmake -P): writes OUTPUT, the definition of crawlq::api::version(), from
# VERSION and the git commit of SOURCE_DIR. The file is replaced only when its text changes, so an
# unchanged checkout rebuilds nothing.
set(text "${VERSION}")
find_program(git_program git)
if(git_program)
  # Only crawlq's own checkout names a commit: sources unpacked inside some other repository do not.
  execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source_real)
  if(top)
    file(REAL_PATH "${top}" top)
  endif()
  if(NOT failed AND commit AND top STREQUAL source_real)
    execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes ERROR_QUIET)
    if(changes)
      set(text "${VERSION} (git ${commit}, changed)")
    else()
      set(text "${VERSION} (git ${commit})")
    endif()
  endif()
endif()
file(WRITE ${OUTPUT}.new "// Written by cmake/VersionFile.cmake at build time.\n#include \"api/version.hpp\"\n\nnamespace crawlq::api {\n\nconst char* version() { return \"${text}\"; }\n\n}  // namespace crawlq::api\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.new ${OUTPUT})
file(REMOVE ${OUTPUT}.new)
