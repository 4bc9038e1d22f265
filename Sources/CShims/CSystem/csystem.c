#include <stdio.h>
#include "csystem.h"
#include <sys/ioctl.h>
#include <malloc.h>
#include <sys/timex.h>
#include <sys/auxv.h>

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
