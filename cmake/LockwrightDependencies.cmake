# Finds the fixed dependencies: LLVM/Clang 19 (Debian), yaml-cpp, kainjow mustache.

# Debian's ClangConfigVersion.cmake rejects a bare "19" (it compares major.minor
# and patch), so ask without a version and check LLVM_VERSION_MAJOR ourselves.
find_package(Clang CONFIG REQUIRED
             HINTS /usr/lib/llvm-19/lib/cmake/clang /usr/lib/cmake/clang-19)
if(NOT DEFINED LLVM_VERSION_MAJOR)
  message(FATAL_ERROR "ClangConfig.cmake did not bring LLVM_VERSION_MAJOR; "
                      "install llvm-19-dev and libclang-19-dev (scripts/bootstrap)")
endif()
if(LLVM_VERSION_MAJOR LESS 19)
  message(FATAL_ERROR "lockwright needs LLVM/Clang 19 or newer, found ${LLVM_PACKAGE_VERSION} "
                      "at ${LLVM_DIR}; install llvm-19-dev and libclang-19-dev (scripts/bootstrap) "
                      "or point Clang_DIR at a newer ClangConfig.cmake")
endif()
message(STATUS "lockwright: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
set(LOCKWRIGHT_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")

# The shared libraries, not the static component archives: one libLLVM and one
# libclang-cpp keep links fast and the tool small.
add_library(lockwright_llvm INTERFACE)
target_include_directories(lockwright_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(lockwright_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(lockwright_llvm INTERFACE LLVM)

add_library(lockwright_clang INTERFACE)
target_include_directories(lockwright_clang SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})
target_link_libraries(lockwright_clang INTERFACE clang-cpp lockwright_llvm)

find_package(yaml-cpp REQUIRED)
find_path(KAINJOW_MUSTACHE_INCLUDE_DIR kainjow/mustache.hpp)
if(NOT KAINJOW_MUSTACHE_INCLUDE_DIR)
  message(FATAL_ERROR "kainjow/mustache.hpp not found; install libkainjow-mustache-dev (scripts/bootstrap)")
endif()
add_library(lockwright_mustache INTERFACE)
target_include_directories(lockwright_mustache SYSTEM INTERFACE ${KAINJOW_MUSTACHE_INCLUDE_DIR})
