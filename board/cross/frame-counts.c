/* QEMU 7.2 TCG plugin (plugin API version 1): guest instructions between the frame markers
 * motionkiosk-bench executes (Sources/CShims/CFrameMarker: one no-op hint of an encoding
 * compilers never emit), so that each frame's own count is known, not only the average.
 *
 *   gcc -O2 -shared -fPIC -fvisibility=hidden -I Sources/CShims/CFrameMarker/include \
 *       -o frame-counts.so board/cross/frame-counts.c
 *   qemu-aarch64 -plugin ./frame-counts.so -d plugin -L SYSROOT motionkiosk-bench …
 *
 * At exit it writes to QEMU's log (stderr with -d plugin):
 *   insns: <all instructions>
 *   before-first-marker: <set-up>    after-last-marker: <tear-down>
 *   frame: <instructions from one marker to the next>     (one line per frame, in order)
 * Counting: each translated block adds its length when it starts (inline, cheap); the marker
 * instruction gets a callback that takes off the block's instructions after it, so every
 * instruction is counted in the frame it ran in.
 * Only the few plugin-API functions used are declared (QEMU's qemu-plugin.h is not packaged
 * by Debian 12); their signatures are those of QEMU 7.2. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frame_marker.h"

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
/* Only the first field of QEMU's qemu_info_t is read. */
typedef struct { const char *target_name; } qemu_info_head;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, enum qemu_plugin_op, void *, uint64_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *, qemu_plugin_vcpu_udata_cb_t,
                                            enum qemu_plugin_cb_flags, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void *);
void qemu_plugin_outs(const char *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t insns;              /* every guest instruction so far */
static uint64_t at_last_marker;     /* insns when the last marker ran */
static bool seen_marker;
static uint64_t before_first;       /* set-up: up to the first marker */
static uint64_t *frames;            /* instructions of each frame, in order */
static size_t frame_count, frame_capacity;
static bool arm32;                  /* the target: arm (A32/T32) or aarch64 */
static bool out_of_memory;

static bool is_marker(const struct qemu_plugin_insn *insn) {
    if (qemu_plugin_insn_size(insn) != 4) return false;
    const uint8_t *b = qemu_plugin_insn_data(insn);
    uint32_t word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    if (!arm32) return word == MOTIONKIOSK_FRAME_MARKER_A64;
    /* A T32 32-bit instruction is two little-endian halfwords, the first at the lower address. */
    uint16_t hi = (uint16_t)(b[0] | b[1] << 8), lo = (uint16_t)(b[2] | b[3] << 8);
    return word == MOTIONKIOSK_FRAME_MARKER_A32
        || (hi == MOTIONKIOSK_FRAME_MARKER_T32_HI && lo == MOTIONKIOSK_FRAME_MARKER_T32_LO);
}

/* userdata: how many instructions of the marker's block come after it (already counted). */
static void marker(unsigned int vcpu, void *userdata) {
    (void)vcpu;
    uint64_t now = insns - (uint64_t)(uintptr_t)userdata;
    if (!seen_marker) {
        seen_marker = true;
        before_first = now;
    } else if (!out_of_memory) {
        if (frame_count == frame_capacity) {
            size_t capacity = frame_capacity ? frame_capacity * 2 : 4096;
            uint64_t *grown = realloc(frames, capacity * sizeof *frames);
            if (!grown) { out_of_memory = true; at_last_marker = now; return; }
            frames = grown;
            frame_capacity = capacity;
        }
        frames[frame_count++] = now - at_last_marker;
    }
    at_last_marker = now;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (is_marker(insn))
            qemu_plugin_register_vcpu_insn_exec_cb(insn, marker, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)(n - i - 1));
    }
}

static void at_exit(qemu_plugin_id_t id, void *p) {
    (void)id; (void)p;
    char line[128];
    snprintf(line, sizeof line, "insns: %" PRIu64 "\n", insns);
    qemu_plugin_outs(line);
    if (out_of_memory) qemu_plugin_outs("frame-counts: out of memory, frames after the last listed are missing\n");
    if (!seen_marker) { qemu_plugin_outs("frame-counts: no frame marker ran\n"); return; }
    snprintf(line, sizeof line, "before-first-marker: %" PRIu64 "\nafter-last-marker: %" PRIu64 "\n",
             before_first, insns - at_last_marker);
    qemu_plugin_outs(line);
    for (size_t i = 0; i < frame_count; i++) {
        snprintf(line, sizeof line, "frame: %" PRIu64 "\n", frames[i]);
        qemu_plugin_outs(line);
    }
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_head *info, int argc, char **argv) {
    (void)argc; (void)argv;
    if (strcmp(info->target_name, "aarch64") == 0) arm32 = false;
    else if (strcmp(info->target_name, "arm") == 0) arm32 = true;
    else { fprintf(stderr, "frame-counts: target %s has no frame marker (aarch64 and arm do)\n", info->target_name); return -1; }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
