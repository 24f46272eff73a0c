# lockwright_generate(TARGET t [ARCH auto|NAME | SPEC FILE] [CPU NAME] [PREFIX P] [LOCKS piece...]
#                     [DEFAULT_LOCK tas|ticket|mcs] [HASH_SIZE N] [HASH_DIVISOR l1|smp]
#                     [HASH_UNPADDED] [COUNTER_STRIPES N] [ASM] [OUTPUT_DIR dir])
#
# Generates lockwright's headers for t at build time into the build tree and
# adds their directory to t's include path. ARCH auto (the default) picks the
# spec from the target triple of t's C compiler, so cross builds get their
# target's code. ASM also compiles the out-of-line .S routines into t. LOCKS
# takes `lockwright gen --locks` names (tas ticket mcs clh rwlock hash counter).
# SPEC names a spec file instead of an architecture: an overlay lockwright_tune()
# wrote and the project committed (a change of it regenerates).
#
# The rule re-runs only when the specs, the templates, the tool or the options
# change; the tool itself leaves unchanged headers untouched, so regenerating
# with the same result rebuilds nothing.
function(lockwright_generate)
  cmake_parse_arguments(LW "HASH_UNPADDED;ASM"
                        "TARGET;ARCH;SPEC;CPU;PREFIX;DEFAULT_LOCK;HASH_SIZE;HASH_DIVISOR;COUNTER_STRIPES;OUTPUT_DIR"
                        "LOCKS" ${ARGN})
  if(NOT LW_TARGET)
    message(FATAL_ERROR "lockwright_generate: TARGET is required")
  endif()
  if(NOT TARGET ${LW_TARGET})
    message(FATAL_ERROR "lockwright_generate: '${LW_TARGET}' is not a target")
  endif()
  if(LW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lockwright_generate: unknown arguments ${LW_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT LW_PREFIX)
    set(LW_PREFIX lw)
  endif()
  if(NOT LW_OUTPUT_DIR)
    set(LW_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/lockwright/${LW_TARGET}")
  endif()

  set(args --prefix ${LW_PREFIX})
  set(spec_file "")
  if(LW_SPEC)
    if(LW_ARCH)
      message(FATAL_ERROR "lockwright_generate: give ARCH or SPEC, not both")
    endif()
    get_filename_component(spec_file "${LW_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --spec "${spec_file}")
  elseif(NOT LW_ARCH OR LW_ARCH STREQUAL "auto")
    set(compiler "${CMAKE_C_COMPILER}")
    if(NOT compiler)
      set(compiler "${CMAKE_CXX_COMPILER}")
    endif()
    set(triple "${CMAKE_C_COMPILER_TARGET}")
    if(NOT triple)
      execute_process(COMMAND "${compiler}" -dumpmachine OUTPUT_VARIABLE triple
                      OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0 OR NOT triple)
        message(FATAL_ERROR "lockwright_generate: cannot ask ${compiler} for its target triple; pass ARCH")
      endif()
    endif()
    list(APPEND args --triple ${triple})
  else()
    list(APPEND args --arch ${LW_ARCH})
  endif()
  if(LW_CPU)
    list(APPEND args --cpu ${LW_CPU})
  endif()
  if(LW_LOCKS)
    string(REPLACE ";" "," locks "${LW_LOCKS}")
    list(APPEND args --locks ${locks})
  endif()
  foreach(opt DEFAULT_LOCK HASH_SIZE HASH_DIVISOR COUNTER_STRIPES)
    if(LW_${opt})
      string(TOLOWER "${opt}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND args --${flag} ${LW_${opt}})
    endif()
  endforeach()
  if(LW_HASH_UNPADDED)
    list(APPEND args --hash-unpadded)
  endif()
  list(APPEND args --spec-dir "${LOCKWRIGHT_SPEC_DIR}" --template-dir "${LOCKWRIGHT_TEMPLATE_DIR}")

  # Ask the tool now what it will write: a bad spec or option fails at
  # configure time, and the outputs are known to the build system.
  execute_process(COMMAND "${LOCKWRIGHT_EXECUTABLE}" gen ${args} -o "${LW_OUTPUT_DIR}" --print-outputs
                  OUTPUT_VARIABLE outputs ERROR_VARIABLE errors RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lockwright_generate(${LW_TARGET}): lockwright gen failed:\n${errors}")
  endif()
  string(REPLACE "\n" ";" outputs "${outputs}")

  # The options as a file, rewritten only when they change: it makes an option
  # change a dependency under every generator, not just those that track commands.
  set(options_file "${LW_OUTPUT_DIR}/.lockwright-options")
  set(options_text "${args}\n")
  if(EXISTS "${options_file}")
    file(READ "${options_file}" old_options)
  endif()
  if(NOT old_options STREQUAL options_text)
    file(MAKE_DIRECTORY "${LW_OUTPUT_DIR}")
    file(WRITE "${options_file}" "${options_text}")
  endif()

  file(GLOB_RECURSE data_files CONFIGURE_DEPENDS
       "${LOCKWRIGHT_SPEC_DIR}/*.yaml" "${LOCKWRIGHT_TEMPLATE_DIR}/*.mustache")
  set(stamp "${LW_OUTPUT_DIR}/.lockwright-stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${outputs}
    COMMAND "${LOCKWRIGHT_EXECUTABLE}" gen ${args} -o "${LW_OUTPUT_DIR}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS "${LOCKWRIGHT_EXECUTABLE}" "${options_file}" ${data_files} ${spec_file}
    COMMENT "lockwright: generating ${LW_PREFIX}_* for ${LW_TARGET}"
    VERBATIM)
  add_custom_target(${LW_TARGET}_lockwright DEPENDS "${stamp}")
  add_dependencies(${LW_TARGET} ${LW_TARGET}_lockwright)
  target_include_directories(${LW_TARGET} PRIVATE "${LW_OUTPUT_DIR}")

  if(LW_ASM)
    set(asm_sources ${outputs})
    list(FILTER asm_sources INCLUDE REGEX "\\.S$")
    if(NOT asm_sources)
      message(FATAL_ERROR "lockwright_generate(${LW_TARGET}): ASM asked for, but no .S routines for this architecture")
    endif()
    set_source_files_properties(${asm_sources} PROPERTIES GENERATED TRUE LANGUAGE ASM)
    target_sources(${LW_TARGET} PRIVATE ${asm_sources})
  endif()
  set(${LW_TARGET}_LOCKWRIGHT_OUTPUTS ${outputs} PARENT_SCOPE)
endfunction()
