# Warnings for attnviz's own code only; third-party headers are included as SYSTEM.
function(attnviz_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
  if(ATTNVIZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
