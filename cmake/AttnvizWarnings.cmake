# Warnings for attnviz's own code only; third-party headers are included as SYSTEM.
function(attnviz_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
  # GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string operator+ at -O2
  # and above (GCC bug 105329); the warning stays on for other compilers.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
    # GCC 12's AVX-512 intrinsics (reached through Eigen with -march=native) report their own
    # deliberately undefined vectors as maybe-uninitialized (GCC bug 105593, fixed in 13).
    if(ATTNVIZ_NATIVE)
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
  endif()
  if(ATTNVIZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
