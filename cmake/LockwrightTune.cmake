# lockwright_tune(OUTPUT file [TARGET name] [CPU NAME] [THREADS N] [QUICK])
#
# Adds a target (default `lockwright_tune`) that measures the machine it runs on with
# `lockwright tune` and writes the spec overlay to OUTPUT. It runs only when asked for
# (`cmake --build . --target lockwright_tune`), never as part of a build: cross builds and
# reproducible builds must not depend on the machine that builds them. Commit the overlay
# and pass it to lockwright_generate(SPEC ...) (docs/tune.md).
function(lockwright_tune)
  cmake_parse_arguments(LW "QUICK" "OUTPUT;TARGET;CPU;THREADS" "" ${ARGN})
  if(NOT LW_OUTPUT)
    message(FATAL_ERROR "lockwright_tune: OUTPUT is required")
  endif()
  if(LW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lockwright_tune: unknown arguments ${LW_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT LW_TARGET)
    set(LW_TARGET lockwright_tune)
  endif()
  get_filename_component(output "${LW_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(args --spec-dir "${LOCKWRIGHT_SPEC_DIR}" --template-dir "${LOCKWRIGHT_TEMPLATE_DIR}")
  if(LW_CPU)
    list(APPEND args --cpu ${LW_CPU})
  endif()
  if(LW_THREADS)
    list(APPEND args --threads ${LW_THREADS})
  endif()
  if(LW_QUICK)
    list(APPEND args --quick)
  endif()
  # The compiler this project builds with builds the probe.
  if(CMAKE_C_COMPILER)
    list(APPEND args --cc "${CMAKE_C_COMPILER}")
  endif()
  add_custom_target(${LW_TARGET}
    COMMAND "${LOCKWRIGHT_EXECUTABLE}" tune ${args} --compare -o "${output}"
    COMMENT "lockwright: measuring this machine into ${output}"
    USES_TERMINAL
    VERBATIM)
endfunction()
