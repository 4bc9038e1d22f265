#ifndef MOTIONKIOSK_CSYSTEM_H
#define MOTIONKIOSK_CSYSTEM_H
// Non-variadic wrappers for C calls Swift cannot import directly.
int motionkiosk_ioctl(int fd, unsigned long request, void *arg);
#endif
