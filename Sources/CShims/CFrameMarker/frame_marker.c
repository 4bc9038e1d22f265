#include "frame_marker.h"

// Not inlined into a caller's loop and never merged away: each call executes the marker once.
__attribute__((noinline)) void motionkiosk_frame_marker(void) {
#if defined(__aarch64__)
    __asm__ volatile(".inst 0xd5032f7f" ::: "memory");
#elif defined(__arm__) && defined(__thumb__)
    __asm__ volatile(".inst.w 0xf3af807b" ::: "memory");
#elif defined(__arm__)
    __asm__ volatile(".inst 0xe320f07b" ::: "memory");
#endif
}
