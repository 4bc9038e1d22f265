#ifndef MOTIONKIOSK_CSYSTEM_H
#define MOTIONKIOSK_CSYSTEM_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <linux/kd.h>
#include <linux/vt.h>

// Non-variadic wrappers for C calls Swift cannot import directly.
int motionkiosk_ioctl(int fd, unsigned long request, void *arg);
#endif
