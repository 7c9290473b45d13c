# A checked-in C array (default tests/capi/profile_blob.inc, symbol
# test_profile) must be what `gpuwcet compile --emit-c` makes of
# examples/kernels/admission.toml today.
if(NOT SYMBOL)
  set(SYMBOL test_profile)
endif()
if(NOT CHECKED_IN)
  set(CHECKED_IN tests/capi/profile_blob.inc)
endif()
execute_process(
  COMMAND ${GPUWCET} compile examples/kernels/admission.toml --emit-c --symbol ${SYMBOL}
          -o ${OUT}
  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpuwcet compile failed")
endif()
# The comment names the output file, which differs here: compare the rest.
file(STRINGS ${OUT} fresh REGEX "0x|const")
file(STRINGS ${SOURCE_DIR}/${CHECKED_IN} checked_in REGEX "0x|const")
if(NOT fresh STREQUAL checked_in)
  message(FATAL_ERROR "${CHECKED_IN} is out of date: rerun the command in its first comment")
endif()
