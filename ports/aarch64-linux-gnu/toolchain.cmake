# Jetson-class aarch64 Linux, cross-built with Debian's aarch64-linux-gnu-g++.
# Target libraries (GLPK) come from Debian's arm64 multiarch packages in
# /usr/lib/aarch64-linux-gnu; binaries run under qemu-user with the cross C
# library in /usr/aarch64-linux-gnu, so ctest works on an x86-64 host.
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=ports/aarch64-linux-gnu/toolchain.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Programs (tests, the CLI) run through qemu-user.
find_program(GPUWCET_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${GPUWCET_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)

# Headers and libraries of the target only; programs of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
