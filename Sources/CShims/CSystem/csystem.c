#include "csystem.h"
#include <sys/ioctl.h>

int motionkiosk_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
