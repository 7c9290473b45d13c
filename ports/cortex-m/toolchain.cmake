# Bare-metal Cortex-M4F (no OS, no CMSIS), built with Debian's
# arm-none-eabi-gcc against newlib-nano. Console and exit status go through
# semihosting (librdimon), so a test is a firmware image that QEMU's
# mps2-an386 board runs and whose exit status is the verdict:
#   cmake -S . -B build/cortex-m -DCMAKE_TOOLCHAIN_FILE=ports/cortex-m/toolchain.cmake
# Start-up code and the linker script: ports/cortex-m/CMakeLists.txt.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No start-up files or OS for a test executable of the compiler check.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(GPUWCET_BARE_METAL ON CACHE BOOL "Target has no operating system" FORCE)

# Cortex-M4 with its single-precision FPU, hard-float ABI (the reset handler
# enables the FPU before main). Every function and object in its own section,
# so that the firmware keeps only what it calls.
set(_cpu "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
# Frame sizes and call graphs per object (.su, .ci) for the stack report.
set(_report "-fstack-usage -fcallgraph-info=su")
set(CMAKE_C_FLAGS_INIT "${_cpu} -ffunction-sections -fdata-sections ${_report}")
set(CMAKE_CXX_FLAGS_INIT "${_cpu} -ffunction-sections -fdata-sections ${_report} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
set(CMAKE_ASM_FLAGS_INIT "${_cpu}")
# newlib-nano with semihosting; our own start-up code instead of crt0.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "${_cpu} --specs=nano.specs --specs=rdimon.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Firmware images run on QEMU's MPS2 AN386 board (Cortex-M4). Semihosting
# carries the console and exit(status) back to the host.
find_program(GPUWCET_QEMU_SYSTEM_ARM qemu-system-arm REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${GPUWCET_QEMU_SYSTEM_ARM} -M mps2-an386 -nographic
    -monitor none -serial none -semihosting-config enable=on,target=native -kernel)
