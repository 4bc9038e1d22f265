#!/bin/sh
# /init of the virtual board's initramfs (busybox sh). Runs the kiosk's test pattern on the
# real virtio-gpu DRM device, plays touches through a uinput touchscreen, udevd and libinput,
# unplugs and re-plugs it, then sends SIGTERM. With mk.kiosk=1 and mk.sensors=1 it goes on
# with the stages in guest-stages.sh (the kiosk itself; the accelerometer); with mk.capped=1
# it runs only the capped-mode stage there (a 4K screen). Results go to the
# 9p share /host; the host (board.py) takes screendumps when asked on the second serial port
# and does the checks.
/bin/busybox --install -s /bin
export PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /run /tmp /host
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp

step() { echo "board: $*"; echo "board: $*" >> /tmp/steps.txt; }
finish() {
    cp /tmp/*.txt /tmp/*.log /tmp/*.ppm /host/ 2>/dev/null
    sync
    echo "DONE" >&3
    poweroff -f
}

# x86_64: a PS/2 keyboard and mouse, the control channel on the second UART. arm64 (QEMU
# virt): virtio keyboard and mouse, the control channel on a virtio console.
case $(uname -m) in
    aarch64) MODULES="virtio_pci virtio_gpu virtio_input virtio_console evdev uinput 9pnet_virtio 9p" CTL=/dev/hvc0 ;;
    *) MODULES="virtio_pci virtio_gpu evdev uinput psmouse 9pnet_virtio 9p" CTL=/dev/ttyS1 ;;
esac
for m in $MODULES; do modprobe $m || step "modprobe $m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L host /host || { echo "board: no 9p share"; poweroff -f; }

MEASURE=0 KIOSK=0 SENSORS=0 CAPPED=0
PATTERN_ARGS=""
for arg in $(cat /proc/cmdline); do
    case $arg in
        mk.measure=1) MEASURE=1 ;;
        mk.kiosk=1) KIOSK=1 ;;
        mk.sensors=1) SENSORS=1 ;;
        mk.capped=1) CAPPED=1 ;;
        mk.legacy=1) PATTERN_ARGS="--legacy-modeset" ;;
    esac
done

# The serial control channel: lines, no echo, kept open (input that arrives while the
# port is closed is lost).
i=0
while [ ! -e $CTL ] && [ $i -lt 50 ]; do i=$((i + 1)); sleep 0.1; done
exec 3<>$CTL
stty raw -echo 115200 <&3
shot() {
    echo "SHOT $1" >&3
    read -r reply <&3
    step "screendump $1: $reply"
}
# The host types on the emulated keyboard and moves the emulated mouse.
bench_input() {
    echo "INPUT bench" >&3
    read -r reply <&3
    step "keyboard and mouse: $reply"
}
waitlog() {
    echo "waitfor /tmp/app.log $1 $2" > /tmp/wait.txt
    guest-touch /tmp/wait.txt || step "gave up waiting for '$2' in the app log"
}

step "udevd"
/usr/lib/systemd/systemd-udevd --daemon --resolve-names=never
udevadm trigger --action=add --type=subsystems
udevadm trigger --action=add --type=devices
udevadm settle --timeout=30

# A screen whose preferred mode is above [display] max_pixels: only the mode the kiosk takes.
if [ $CAPPED = 1 ]; then
    . /guest-stages.sh
    capped_stage
    step "done"
    finish
fi

step "kdmode before: $(guest-touch kdmode)"
echo "kdmode before: $(guest-touch kdmode)" > /tmp/kdmode.txt
motionkiosk devices > /tmp/devices.txt 2>&1
# A user outside the video and input groups gets told which group is missing.
su -s /bin/sh -c "motionkiosk devices" nobody > /tmp/devices-nobody.txt 2>&1
# RGB565: shown where the primary plane scans it out, otherwise refused in plain words.
motionkiosk pattern --display drm --format rgb565 --seconds 1 --no-input > /tmp/rgb565.log 2>&1
echo "exit status $?" >> /tmp/rgb565.log

step "starting motionkiosk pattern"
motionkiosk pattern $PATTERN_ARGS --frame-file /tmp/frame.ppm > /tmp/app.log 2>&1 &
APP=$!
i=0
until grep -q "frame on screen" /tmp/app.log; do
    i=$((i + 1))
    if [ $i -gt 600 ] || ! kill -0 $APP 2>/dev/null; then step "no frame on screen"; cat /tmp/app.log; finish; fi
    sleep 0.1
done
step "frame on screen"
shot pattern
# A second kiosk while the first owns the display: told so plainly, or (auto) the virtual panel.
motionkiosk pattern --display drm --seconds 1 --no-input > /tmp/second-drm.log 2>&1
echo "exit status $?" >> /tmp/second-drm.log
motionkiosk pattern --seconds 1 --no-input > /tmp/second-auto.log 2>&1
echo "exit status $?" >> /tmp/second-auto.log
echo "kdmode during: $(guest-touch kdmode)" >> /tmp/kdmode.txt

if [ $MEASURE = 1 ]; then
    # At rest: nothing moves, so the process should not wake up at all.
    sleep 1
    grep -E "ctxt_switches|VmRSS" /proc/$APP/status | sed 's/^/before: /' > /tmp/metrics.txt
    sleep 10
    grep -E "ctxt_switches|VmRSS" /proc/$APP/status | sed 's/^/after: /' >> /tmp/metrics.txt
    step "rest measured"
fi

step "touch: tap, pinch, hold and unplug"
guest-touch /host/touch1.txt || step "guest-touch touch1 failed"
step "touch: re-plug and tap"
guest-touch /host/touch2.txt || step "guest-touch touch2 failed"

if kill -0 $APP 2>/dev/null; then echo "alive after replug" > /tmp/alive.txt; fi
step "keyboard and mouse"
bench_input
waitlog 1 "key tiltUp"
waitlog 1 "touch up id=1000000"
step "SIGTERM"
kill -TERM $APP
wait $APP
echo "exit status $?" >> /tmp/alive.txt
echo "kdmode after: $(guest-touch kdmode)" >> /tmp/kdmode.txt
shot after
. /guest-stages.sh
[ $KIOSK = 1 ] && kiosk_stage
[ $SENSORS = 1 ] && sensors_stage
step "done"
finish
