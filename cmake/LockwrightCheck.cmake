# lockwright_check(TARGET t [CHECKS globs] [WARNINGS_AS_ERRORS globs] [ARCH name]
#                  [EXTRA_ARGS arg...] [SUMMARY_DIR dir] [ALL])
#
# Runs `lockwright check` over the C and C++ sources of t as the build's own actions, like
# clang-tidy through a compile database, but whole-program: one map command per source writes
# that file's summary (re-run by the generator only when the source, a header it read or the
# tool changes, through the depfile the tool writes), and the target t_lockwright reads every
# summary of t and prints the findings, judged as one program; it fails on an error (a compiler
# error, or a finding of a check in WARNINGS_AS_ERRORS). With ALL, t_lockwright is part of the
# default build.
#
# The compile commands come from the build's compile_commands.json, so the project must set
# CMAKE_EXPORT_COMPILE_COMMANDS (Makefile and Ninja generators write it).
function(lockwright_check)
  cmake_parse_arguments(LW "ALL" "TARGET;CHECKS;WARNINGS_AS_ERRORS;ARCH;SUMMARY_DIR" "EXTRA_ARGS" ${ARGN})
  if(NOT LW_TARGET)
    message(FATAL_ERROR "lockwright_check: TARGET is required")
  endif()
  if(NOT TARGET ${LW_TARGET})
    message(FATAL_ERROR "lockwright_check: '${LW_TARGET}' is not a target")
  endif()
  if(LW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lockwright_check: unknown arguments ${LW_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    message(FATAL_ERROR "lockwright_check(${LW_TARGET}): set CMAKE_EXPORT_COMPILE_COMMANDS to ON; the checks "
                        "read each source's flags from compile_commands.json")
  endif()
  if(NOT LW_SUMMARY_DIR)
    set(LW_SUMMARY_DIR "${CMAKE_CURRENT_BINARY_DIR}/lockwright/${LW_TARGET}.summaries")
  endif()

  set(args --quiet --no-cache -p "${CMAKE_BINARY_DIR}" --summaries "${LW_SUMMARY_DIR}"
           --spec-dir "${LOCKWRIGHT_SPEC_DIR}")
  if(LW_CHECKS)
    list(APPEND args "--checks=${LW_CHECKS}")
  endif()
  if(LW_WARNINGS_AS_ERRORS)
    list(APPEND args "--warnings-as-errors=${LW_WARNINGS_AS_ERRORS}")
  endif()
  if(LW_ARCH)
    list(APPEND args --arch "${LW_ARCH}")
  endif()
  foreach(extra IN LISTS LW_EXTRA_ARGS)
    list(APPEND args "--extra-arg=${extra}")
  endforeach()

  get_target_property(sources ${LW_TARGET} SOURCES)
  get_target_property(source_dir ${LW_TARGET} SOURCE_DIR)
  set(summaries)
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.(c|cc|cpp|cxx|C)$")
      continue()
    endif()
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    # The name the tool gives the summary (summaryFileName): the path with separators as '_'.
    string(REGEX REPLACE "[/\\\\:]" "_" name "${path}")
    string(REGEX REPLACE "^_+" "" name "${name}")
    if(LW_ARCH)
      string(APPEND name ".${LW_ARCH}")
    endif()
    set(summary "${LW_SUMMARY_DIR}/${name}.lwsum.json")
    add_custom_command(
      OUTPUT "${summary}"
      COMMAND "${LOCKWRIGHT_EXECUTABLE}" check ${args} "${path}"
      DEPENDS "${path}" "${LOCKWRIGHT_EXECUTABLE}"
      DEPFILE "${summary}.d"
      COMMENT "lockwright: summarising ${source}"
      VERBATIM)
    list(APPEND summaries "${summary}")
  endforeach()
  if(NOT summaries)
    message(FATAL_ERROR "lockwright_check: '${LW_TARGET}' has no C or C++ sources")
  endif()
  set(all)
  if(LW_ALL)
    set(all ALL)
  endif()
  add_custom_target(${LW_TARGET}_lockwright ${all}
    COMMAND "${LOCKWRIGHT_EXECUTABLE}" report ${summaries}
    DEPENDS ${summaries}
    COMMENT "lockwright: checking ${LW_TARGET}"
    VERBATIM)
endfunction()
