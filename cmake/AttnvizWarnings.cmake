# Warnings for attnviz's own code only; third-party headers are included as SYSTEM.
function(attnviz_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
  # GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string operator+ at -O2
  # and above (GCC bug 105329); the warning stays on for other compilers.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(ATTNVIZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Sources that compile Eigen's vector kernels. With -march=native on an AVX-512 machine, GCC 12
# reports the deliberately undefined vectors inside its own AVX-512 intrinsics as
# (maybe-)uninitialized once they are inlined (GCC bug 105593, fixed in 13): those two
# warnings are off for these files only, and stay on everywhere else.
function(attnviz_eigen_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  if(ATTNVIZ_NATIVE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "-Wno-uninitialized;-Wno-maybe-uninitialized")
  endif()
endfunction()

# attnviz_layer(<name> DEPENDS <targets>... SOURCES <files>...): one layer of the window
# (app/<folder>) as its own static library attnviz_<name>, linking only the layers below it:
# a call into a layer above is a link error, and tests/architecture checks the includes.
function(attnviz_layer name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;SOURCES" ${ARGN})
  add_library(attnviz_${name} STATIC ${ARG_SOURCES})
  target_include_directories(attnviz_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(attnviz_${name} PUBLIC ${ARG_DEPENDS})
  attnviz_set_warnings(attnviz_${name})
  set_property(GLOBAL APPEND PROPERTY ATTNVIZ_LAYERS "app/${name}=attnviz_${name}")
endfunction()
