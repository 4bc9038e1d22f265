#include <stdio.h>
#include "csystem.h"
#include <sys/ioctl.h>
#include <malloc.h>
#include <sys/timex.h>
#include <sys/auxv.h>
#include <unistd.h>

int motionkiosk_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

int motionkiosk_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int motionkiosk_flush_stdout(void) { return fflush(stdout) != 0 || ferror(stdout) ? -1 : 0; }

int motionkiosk_clock_status(void) {
    struct timex t = {0};   // modes 0: read only
    return adjtimex(&t) < 0 ? -1 : t.status;
}

#ifndef MOTIONKIOSK_BUILD_EPOCH
#define MOTIONKIOSK_BUILD_EPOCH 0
#endif
long long motionkiosk_build_epoch(void) { return MOTIONKIOSK_BUILD_EPOCH; }

int motionkiosk_sta_unsync(void) { return STA_UNSYNC; }

unsigned long motionkiosk_hwcap(void) { return getauxval(AT_HWCAP); }

#if defined(__arm__) && defined(MOTIONKIOSK_NEEDS_NEON)
// The armhf build is compiled for NEON (board/cross/build.sh defines MOTIONKIOSK_NEEDS_NEON), and the Swift code that runs
// before main's first line (the arguments array) already uses it: on a core without NEON the
// refusal must come before any of it, so it is a constructor, in plain C without vector code.
// Syscalls/ProcessorSupport.swift holds the same rule for Swift (and its tests).
__attribute__((constructor)) static void motionkiosk_refuse_processor_without_neon(void) {
    if (getauxval(AT_HWCAP) & (1UL << 12)) return;      // HWCAP_NEON
    static const char message[] =
        "Error: this board is not supported: its processor has no NEON unit, which this 32-bit (armhf) "
        "build needs (every Raspberry Pi from the Pi 2 on has one)\n";
    ssize_t written = write(2, message, sizeof message - 1);
    (void)written;
    _exit(1);
}
#endif
