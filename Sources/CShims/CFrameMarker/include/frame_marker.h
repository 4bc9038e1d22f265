#ifndef MOTIONKIOSK_FRAME_MARKER_H
#define MOTIONKIOSK_FRAME_MARKER_H

// The benchmark's frame boundary for instruction counting under QEMU: one no-op
// instruction of an encoding compilers never emit (an unallocated hint on AArch64, a NOP-space
// hint on ARMv7), which board/cross/frame-marker.c finds by its bytes and splits the count at.
// Only motionkiosk-bench links this; on other CPUs it does nothing.
// The encodings, shared with the counting plugin:
#define MOTIONKIOSK_FRAME_MARKER_A64 0xd5032f7fu    /* hint #0x7b */
#define MOTIONKIOSK_FRAME_MARKER_A32 0xe320f07bu    /* hint #0x7b (NOP space) */
#define MOTIONKIOSK_FRAME_MARKER_T32_HI 0xf3afu     /* hint.w #0x7b, first halfword */
#define MOTIONKIOSK_FRAME_MARKER_T32_LO 0x807bu     /* second halfword */

void motionkiosk_frame_marker(void);

#endif
