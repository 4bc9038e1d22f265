// guest-touch: a uinput multitouch touchscreen for the virtual board, driven by a script.
//
//   guest-touch SCRIPT     run the script (panel-native pixel coordinates)
//   guest-touch kdmode     print the foreground VT's display and keyboard modes, e.g. "KD_TEXT K_XLATE"
//
// Script lines (blank lines and # comments ignored):
//   size W H          axis ranges 0..W-1, 0..H-1 (before plug)
//   plug              create the device (INPUT_PROP_DIRECT, ABS_MT_SLOT/TRACKING_ID/POSITION_X/Y)
//   unplug            destroy it, fingers still down or not
//   sleep MS
//   down SLOT X Y     finger down in a slot
//   move SLOT X Y
//   up SLOT
//   sync              SYN_REPORT: ends a frame
//   waitfor FILE N TEXT   wait (up to 60 s) until FILE has N lines containing TEXT
//                         (or one of several texts separated by '|')
#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd = -1;
static int width = 480, height = 800;
static int tracking = 100;
static int downCount = 0;
static int slotDown[10];

static void die(const char *what) {
    fprintf(stderr, "guest-touch: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void emit(int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write event");
}

static void absAxis(int code, int max) {
    struct uinput_abs_setup abs;
    memset(&abs, 0, sizeof abs);
    abs.code = code;
    abs.absinfo.minimum = 0;
    abs.absinfo.maximum = max;
    abs.absinfo.resolution = 10; // 10 units/mm: a plausible 48x80 mm panel
    if (ioctl(fd, UI_ABS_SETUP, &abs) < 0) die("UI_ABS_SETUP");
}

static void plug(void) {
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("open /dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) < 0) die("UI_SET_KEYBIT");
    if (ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0) die("UI_SET_EVBIT");
    if (ioctl(fd, UI_SET_ABSBIT, ABS_X) < 0 || ioctl(fd, UI_SET_ABSBIT, ABS_Y) < 0) die("UI_SET_ABSBIT");
    int mt[] = {ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y};
    for (int i = 0; i < 4; i++) if (ioctl(fd, UI_SET_ABSBIT, mt[i]) < 0) die("UI_SET_ABSBIT MT");
    if (ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0) die("UI_SET_PROPBIT");
    absAxis(ABS_X, width - 1);
    absAxis(ABS_Y, height - 1);
    absAxis(ABS_MT_POSITION_X, width - 1);
    absAxis(ABS_MT_POSITION_Y, height - 1);
    absAxis(ABS_MT_SLOT, 9);
    absAxis(ABS_MT_TRACKING_ID, 65535);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x4d4b;  // "MK"
    setup.id.product = 0x0001;
    snprintf(setup.name, sizeof setup.name, "MotionKiosk virtual touchscreen");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    memset(slotDown, 0, sizeof slotDown);
    downCount = 0;
}

static void unplug(void) {
    if (fd < 0) return;
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    fd = -1;
}

static void position(int slot, int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, slot);
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    // Single-touch axes follow the first finger, as real drivers do.
    if (slot == 0) { emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y); }
}

static int countLines(const char *path, const char *text) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[512];
    int count = 0;
    // TEXT may list alternatives separated by '|'.
    while (fgets(buf, sizeof buf, f)) {
        char alternatives[256];
        snprintf(alternatives, sizeof alternatives, "%s", text);
        for (char *save = NULL, *a = strtok_r(alternatives, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
            if (strstr(buf, a)) { count++; break; }
        }
    }
    fclose(f);
    return count;
}

static void waitFor(const char *path, int n, const char *text) {
    for (int i = 0; i < 1200; i++) {
        if (countLines(path, text) >= n) return;
        struct timespec t = {0, 50000000L};
        nanosleep(&t, NULL);
    }
    fprintf(stderr, "guest-touch: gave up waiting for %d lines with '%s' in %s\n", n, text, path);
    exit(3);
}

static int kdmode(void) {
    int tty = open("/dev/tty0", O_RDONLY | O_NOCTTY);
    if (tty < 0) die("open /dev/tty0");
    int mode = -1, keyboard = -1;
    if (ioctl(tty, KDGETMODE, &mode) < 0) die("KDGETMODE");
    if (ioctl(tty, KDGKBMODE, &keyboard) < 0) die("KDGKBMODE");
    printf("%s %s\n", mode == KD_TEXT ? "KD_TEXT" : mode == KD_GRAPHICS ? "KD_GRAPHICS" : "KD_OTHER",
           keyboard == K_OFF ? "K_OFF" : keyboard == K_XLATE ? "K_XLATE" : keyboard == K_UNICODE ? "K_UNICODE" : "K_OTHER");
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: guest-touch SCRIPT | kdmode\n"); return 2; }
    if (strcmp(argv[1], "kdmode") == 0) return kdmode();
    FILE *script = fopen(argv[1], "r");
    if (!script) die(argv[1]);
    char line[256];
    int lineNumber = 0;
    while (fgets(line, sizeof line, script)) {
        lineNumber++;
        char cmd[32];
        int a = 0, b = 0, c = 0;
        int n = sscanf(line, "%31s %d %d %d", cmd, &a, &b, &c);
        if (n < 1 || cmd[0] == '#') continue;
        int needsDevice = !strcmp(cmd, "down") || !strcmp(cmd, "move") || !strcmp(cmd, "up") || !strcmp(cmd, "sync");
        if (needsDevice && fd < 0) {
            fprintf(stderr, "guest-touch: %s:%d: no device plugged\n", argv[1], lineNumber);
            return 2;
        }
        char path[256], text[256];
        if (!strcmp(cmd, "waitfor") && sscanf(line, "%*s %255s %d %255[^\n]", path, &a, text) == 3) waitFor(path, a, text);
        else if (!strcmp(cmd, "size") && n == 3) { width = a; height = b; }
        else if (!strcmp(cmd, "plug")) plug();
        else if (!strcmp(cmd, "unplug")) unplug();
        else if (!strcmp(cmd, "sleep") && n == 2) {
            struct timespec t = {a / 1000, (long)(a % 1000) * 1000000L};
            nanosleep(&t, NULL);
        } else if (!strcmp(cmd, "down") && n == 4 && a >= 0 && a < 10) {
            emit(EV_ABS, ABS_MT_SLOT, a);
            emit(EV_ABS, ABS_MT_TRACKING_ID, tracking++);
            position(a, b, c);
            if (!slotDown[a]) { slotDown[a] = 1; if (downCount++ == 0) emit(EV_KEY, BTN_TOUCH, 1); }
        } else if (!strcmp(cmd, "move") && n == 4 && a >= 0 && a < 10) {
            position(a, b, c);
        } else if (!strcmp(cmd, "up") && n == 2 && a >= 0 && a < 10) {
            emit(EV_ABS, ABS_MT_SLOT, a);
            emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
            if (slotDown[a]) { slotDown[a] = 0; if (--downCount == 0) emit(EV_KEY, BTN_TOUCH, 0); }
        } else if (!strcmp(cmd, "sync")) {
            emit(EV_SYN, SYN_REPORT, 0);
        } else {
            fprintf(stderr, "guest-touch: %s:%d: cannot read '%s'\n", argv[1], lineNumber, strtok(line, "\n"));
            return 2;
        }
    }
    unplug();
    return 0;
}
