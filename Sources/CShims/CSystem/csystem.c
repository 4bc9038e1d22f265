#include <stdio.h>
#include "csystem.h"
#include <sys/ioctl.h>
#include <malloc.h>

int motionkiosk_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

int motionkiosk_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int motionkiosk_flush_stdout(void) { return fflush(stdout) != 0 || ferror(stdout) ? -1 : 0; }
