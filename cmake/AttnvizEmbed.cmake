# attnviz_embed_files(OUTPUT <file.cpp> BASE_DIR <dir> FILES <f>...)
# Generates, at build time, a C++ source that defines attnviz::assets::embedded_files():
# every file's bytes keyed by its path relative to BASE_DIR, so the binary needs no
# asset lookup at run time. Editing a file regenerates the source.
set(ATTNVIZ_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_files_script.cmake)

function(attnviz_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;BASE_DIR" "FILES" ${ARGN})
  string(REPLACE ";" "|" files_arg "${ARG_FILES}")
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DBASE_DIR=${ARG_BASE_DIR}
            "-DFILES=${files_arg}" -P ${ATTNVIZ_EMBED_SCRIPT}
    DEPENDS ${ARG_FILES} ${ATTNVIZ_EMBED_SCRIPT}
    COMMENT "Embedding ${ARG_BASE_DIR} into ${ARG_OUTPUT}"
    VERBATIM)
endfunction()
