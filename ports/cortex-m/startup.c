/*
 * Start-up code for a bare-metal Cortex-M4 (no CMSIS): the vector table and
 * the reset handler that builds the C run-time environment before main():
 * FPU on, .data copied from its load address, .bss zeroed, semihosting
 * handles opened, static constructors run. Symbols come from
 * ports/cortex-m/mps2-an386.ld.
 */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t __data_load;
extern uint32_t __data_start;
extern uint32_t __data_end;
extern uint32_t __bss_start__;
extern uint32_t __bss_end__;
extern uint32_t __stack_top;

extern void initialise_monitor_handles(void); /* librdimon */
extern void __libc_init_array(void);           /* newlib */
extern int main(void);

void Reset_Handler(void);
void Fault_Handler(void);

/* -nostartfiles drops crti/crtn; __libc_init_array still calls these. */
void _init(void) {}
void _fini(void) {}

/* Semihosting SYS_EXIT (0x18) with ADP_Stopped_RunTimeErrorUnknown: QEMU
 * exits with a failure status instead of hanging in a fault. */
__attribute__((noreturn)) void Fault_Handler(void) {
  register uint32_t op __asm__("r0") = 0x18u;
  register uint32_t reason __asm__("r1") = 0x20023u;
  for (;;) {
    __asm__ volatile("bkpt 0xab" : : "r"(op), "r"(reason) : "memory");
  }
}

__attribute__((noreturn)) void Reset_Handler(void) {
  /* CPACR: full access to CP10 and CP11 (the FPU), before any FP code. */
  volatile uint32_t* const cpacr = (volatile uint32_t*)0xE000ED88u;
  *cpacr |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");

  const uint32_t* src = &__data_load;
  for (uint32_t* dst = &__data_start; dst < &__data_end;) *dst++ = *src++;
  for (uint32_t* dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;

  initialise_monitor_handles();
  __libc_init_array();
  exit(main());
}

/* Initial stack pointer, reset, then NMI, HardFault, MemManage, BusFault,
 * UsageFault; the rest (SVC, PendSV, SysTick, IRQs) is unused here. */
typedef void (*vector)(void);
__attribute__((section(".isr_vector"), used)) const vector g_vectors[16] = {
    (vector)(uintptr_t)&__stack_top,
    Reset_Handler,
    Fault_Handler, /* NMI */
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage */
    Fault_Handler, /* BusFault */
    Fault_Handler, /* UsageFault */
    0, 0, 0, 0,
    Fault_Handler, /* SVCall */
    Fault_Handler, /* DebugMonitor */
    0,
    Fault_Handler, /* PendSV */
    Fault_Handler, /* SysTick */
};
