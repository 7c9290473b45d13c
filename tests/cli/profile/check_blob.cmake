# The checked-in C array of tests/capi/profile_blob.inc must be what
# `gpuwcet compile` makes of examples/kernels/admission.toml today.
execute_process(
  COMMAND ${GPUWCET} compile examples/kernels/admission.toml --emit-c --symbol test_profile
          -o ${OUT}
  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpuwcet compile failed")
endif()
# The comment names the output file, which differs here: compare the rest.
file(STRINGS ${OUT} fresh REGEX "0x|const")
file(STRINGS ${SOURCE_DIR}/tests/capi/profile_blob.inc checked_in REGEX "0x|const")
if(NOT fresh STREQUAL checked_in)
  message(FATAL_ERROR "tests/capi/profile_blob.inc is out of date: rerun the command in its first comment")
endif()
