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
#endif
