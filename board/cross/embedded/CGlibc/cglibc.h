#ifndef MOTIONKIOSK_CGLIBC_H
#define MOTIONKIOSK_CGLIBC_H
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/un.h>

// The process environment (runtime-support.c; the variable itself is not concurrency-safe).
char **motionkiosk_environ(void);

// What Swift cannot import from the headers: errno (a macro), variadic calls, MAP_FAILED.
static inline int *motionkiosk_errno(void) { return &errno; }
static inline int motionkiosk_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int motionkiosk_fcntl(int fd, int cmd, long arg) { return fcntl(fd, cmd, arg); }
static inline int motionkiosk_c_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline void *motionkiosk_map_failed(void) { return MAP_FAILED; }
static inline __sighandler_t motionkiosk_sig_ign(void) { return SIG_IGN; }
#endif
