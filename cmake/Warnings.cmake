# gpuwcet_warnings(target): the project's warning set, as errors on request.
function(gpuwcet_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion)
  if(GPUWCET_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Core code is linked into firmware: no exceptions, no RTTI.
function(gpuwcet_core_flags target)
  gpuwcet_warnings(${target})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti>)
endfunction()
