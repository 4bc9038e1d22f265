#ifndef MOTIONKIOSK_CSYSTEM_H
#define MOTIONKIOSK_CSYSTEM_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <linux/kd.h>
#include <linux/vt.h>

// Non-variadic wrappers for C calls Swift cannot import directly.
int motionkiosk_ioctl(int fd, unsigned long request, void *arg);
// mallopt(M_MMAP_THRESHOLD, bytes): <malloc.h> is not part of Swift's Glibc module.
int motionkiosk_set_mmap_threshold(int bytes);
// fflush(stdout), then whether stdout saw an error: 0 when everything printed was written
// (Swift 6 may not touch the C global `stdout` itself).
int motionkiosk_flush_stdout(void);
// adjtimex(2)'s status bits without changing anything (STA_UNSYNC: no time service
// disciplines the clock); -1 when the call fails.
int motionkiosk_clock_status(void);
// The build's date, seconds since 1970: MOTIONKIOSK_BUILD_EPOCH as the build passed it
// (SOURCE_DATE_EPOCH, else the last commit's date, so every build of a commit is the same
// byte for byte); 0 when the build gave none.
long long motionkiosk_build_epoch(void);
// STA_UNSYNC, for Swift.
int motionkiosk_sta_unsync(void);
// getauxval(AT_HWCAP): the processor's features as the kernel tells this process.
unsigned long motionkiosk_hwcap(void);
#endif
