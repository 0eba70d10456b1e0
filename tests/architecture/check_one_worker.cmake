# Background jobs run on the one Worker (core/common/worker.h): no other file of core/ or app/
# starts a thread of its own or waits on a condition variable, so cancelling, superseding and
# shutting down are written once. Fails naming each file that does.
file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/app/*.h"
     "${SOURCE_DIR}/app/*.cpp")
set(offenders "")
foreach(source IN LISTS sources)
  file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
  if(relative STREQUAL "core/common/worker.h" OR relative STREQUAL "core/common/worker.cpp")
    continue()
  endif()
  file(STRINGS "${source}" lines REGEX "condition_variable|std::j?thread[ ({]|std::async")
  foreach(line IN LISTS lines)
    list(APPEND offenders "${relative}: ${line}")
  endforeach()
endforeach()
if(offenders)
  list(JOIN offenders "\n  " listed)
  message(FATAL_ERROR "a background job outside the one Worker (core/common/worker.h):\n  ${listed}")
endif()
message(STATUS "every background job runs on core/common/worker.h's Worker")
