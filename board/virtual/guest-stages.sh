# Stages of the virtual board after the test pattern, sourced by /init (guest-init.sh, busybox
# sh): step, shot and finish come from there. Results go to /tmp and from there to the share.

# Per-thread context switches of process $1 and its resident size, each line prefixed by $2.
thread_status() {
    for t in /proc/$1/task/*; do
        echo "$2: task ${t##*/} $(grep -E '^(voluntary|nonvoluntary)_ctxt_switches' $t/status | tr -s ' \t\n' ' ')"
    done
    grep VmRSS /proc/$1/status | sed "s/^/$2: /"
}

# Waits up to $3 tenths of a second for text $2 in file $1; gives up early when process $4
# (if given) has gone.
wait_text() {
    i=0
    until grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt "$3" ] || { [ -n "$4" ] && ! kill -0 "$4" 2>/dev/null; }; then return 1; fi
        sleep 0.1
    done
}

# The kiosk as a visitor meets it: the launcher at rest, presses on a tile (touch to
# photon), a tap on the grid-block tile, a tap that starts the block. The host finds the tile in the first screendump (FIND) and checks
# that the block stands still before the second tap and jumps down after it.
kiosk_stage() {
    step "kiosk: motionkiosk run on the launcher"
    motionkiosk run --display drm --frame-file /tmp/run-frame.ppm --seconds 300 > /tmp/run.log 2>&1 &
    KIOSK_PID=$!
    if ! wait_text /tmp/run.log "first frame on screen" 600 $KIOSK_PID; then
        step "kiosk: no first frame"
        kill -TERM $KIOSK_PID 2>/dev/null
        return
    fi
    shot run-first
    # At rest on the launcher: nothing moves, no finger down, no accelerometer on the board yet.
    sleep 1
    thread_status $KIOSK_PID before > /tmp/run-metrics.txt
    sleep 10
    thread_status $KIOSK_PID after >> /tmp/run-metrics.txt
    step "kiosk: rest measured"
    echo "FIND grid-block" >&3
    read -r at x y ix iy pw ph <&3
    step "kiosk: grid-block tile: $at $x $y $ix $iy $pw $ph"
    if [ "$at" != AT ]; then kill -TERM $KIOSK_PID; wait $KIOSK_PID; return; fi
    : > /tmp/kiosk-go.txt
    {
        echo "size $pw $ph"
        echo "plug"
        echo "waitfor /tmp/run.log 1 (touchscreen)"
        # Touch to photon: 100 presses on the tile that stray off it before lifting (the
        # tile darkens on touch-down and comes back when the finger strays; nothing opens).
        i=0
        while [ $i -lt 100 ]; do
            echo "down 0 $x $y"; echo "sync"; echo "sleep 60"
            echo "move 0 $((x + 60)) $y"; echo "sync"; echo "sleep 60"
            echo "up 0"; echo "sync"; echo "sleep 60"
            i=$((i + 1))
        done
        echo "down 0 $x $y"; echo "sync"; echo "sleep 80"; echo "up 0"; echo "sync"
        echo "waitfor /tmp/kiosk-go.txt 1 tap"
        echo "down 0 $ix $iy"; echo "sync"; echo "sleep 80"; echo "up 0"; echo "sync"
        echo "waitfor /tmp/kiosk-go.txt 1 end"
    } > /tmp/kiosk-touch.txt
    guest-touch /tmp/kiosk-touch.txt > /tmp/kiosk-touch.log 2>&1 &
    TOUCH_PID=$!
    if wait_text /tmp/run.log "exhibit grid-block open" 300 $KIOSK_PID; then
        sleep 0.7
        shot block-still
        echo tap >> /tmp/kiosk-go.txt
        sleep 0.5
        shot block-a
        sleep 0.9
        shot block-b
    else
        step "kiosk: grid-block did not open"
    fi
    echo end >> /tmp/kiosk-go.txt
    wait $TOUCH_PID
    echo "touch exit status $?" >> /tmp/kiosk-touch.log
    kill -TERM $KIOSK_PID
    wait $KIOSK_PID
    echo "exit status $?" >> /tmp/run.log
}

# The accelerometer: a LIS3DH preloaded on i2c-stub, read through the kernel's st_accel
# driver (IIO), unplugged and re-plugged under a running reader, then released and read by
# our userspace driver through /dev/i2c-N.
sensors_stage() {
    step "sensors: i2c-stub with a LIS3DH at 0x18"
    modprobe i2c-dev || step "modprobe i2c-dev failed"
    # Debian's arm64 kernel lacks i2c-stub: the board's own smbus-stub stands in there.
    modprobe i2c-stub chip_addr=0x18 2>/dev/null || modprobe smbus-stub chip_addr=0x18 || step "no i2c-stub or smbus-stub module"
    modprobe st_accel_i2c || step "modprobe st_accel_i2c failed"
    BUS=""
    for d in /sys/bus/i2c/devices/i2c-*; do grep -qi stub "$d/name" 2>/dev/null && BUS=${d##*i2c-}; done
    if [ -z "$BUS" ]; then step "sensors: no i2c-stub bus"; return; fi
    echo "$BUS" > /tmp/stub-bus.txt
    # The st_sensors driver sets bit 7 (auto-increment) on every register it reads: WHO_AM_I
    # is read at 0x8F, the data at 0xA8-0xAD. x=-500, y=+800, z=+300 counts, 12 bits
    # left-justified, little-endian. (i2c-stub keeps 16-bit words; a byte write sets the low byte.)
    for rv in 0x0f=0x33 0x8f=0x33 0xa8=0xc0 0xa9=0xe0 0xaa=0x00 0xab=0x32 0xac=0xc0 0xad=0x12; do
        i2cset -y "$BUS" 0x18 ${rv%=*} ${rv#*=} b || step "i2cset ${rv%=*} failed"
    done
    NEW=/sys/bus/i2c/devices/i2c-$BUS/new_device
    DEL=/sys/bus/i2c/devices/i2c-$BUS/delete_device
    echo lis3dh 0x18 > $NEW
    IIO=""
    i=0
    while [ -z "$IIO" ] && [ $i -lt 50 ]; do
        for d in /sys/bus/iio/devices/iio:device*; do [ "$(cat $d/name 2>/dev/null)" = lis3dh ] && IIO=$d; done
        i=$((i + 1))
        [ -z "$IIO" ] && sleep 0.1
    done
    if [ -z "$IIO" ]; then
        step "sensors: lis3dh did not bind"
        dmesg | tail -n 30 > /tmp/sensors-dmesg.txt
        return
    fi
    # One-shot reads sleep 2/ODR: at the power-on rate each takes seconds.
    echo 100 > $IIO/sampling_frequency || step "sensors: cannot set sampling_frequency"
    {
        echo "device: ${IIO##*/}"
        for f in in_accel_x_raw in_accel_y_raw in_accel_z_raw in_accel_x_scale sampling_frequency; do
            echo "$f: $(cat $IIO/$f 2>&1)"
        done
    } > /tmp/iio-sysfs.txt
    step "sensors: kernel driver bound (${IIO##*/})"
    motionkiosk devices > /tmp/devices-iio.txt 2>&1
    for r in 0 90; do
        motionkiosk sensors --accelerometer iio:lis3dh --rotation $r --seconds 2 --stuck-seconds 0 --no-barometer \
            > /tmp/sensors-iio-r$r.txt 2>&1
        echo "exit status $?" >> /tmp/sensors-iio-r$r.txt
    done
    step "sensors: the kiosk at rest with the accelerometer"
    motionkiosk run --display drm --seconds 300 > /tmp/run-accel.log 2>&1 &
    KIOSK_PID=$!
    if wait_text /tmp/run-accel.log "first frame on screen" 600 $KIOSK_PID; then
        # At rest the accelerometer is polled slowly only after 3 s without a change: measure
        # from then on (a window from 2 s counted a second of full-rate polling).
        sleep 5
        thread_status $KIOSK_PID before > /tmp/run-accel-metrics.txt
        sleep 10
        thread_status $KIOSK_PID after >> /tmp/run-accel-metrics.txt
    fi
    kill -TERM $KIOSK_PID
    wait $KIOSK_PID
    echo "exit status $?" >> /tmp/run-accel.log
    step "sensors: hot-plug under a running reader"
    # Log lines apart from the readings: stdout to a file is block-buffered and its blocks
    # would cut reading lines where a log line lands between them.
    motionkiosk sensors --accelerometer iio:lis3dh --seconds 12 --stuck-seconds 0 --no-barometer \
        > /tmp/sensors-hotplug.txt 2> /tmp/sensors-hotplug-log.txt &
    READER=$!
    # Its stdout is a file, so fully buffered: time the unplug by the clock, not by its lines.
    sleep 4
    echo 0x18 > $DEL
    sleep 2
    echo lis3dh 0x18 > $NEW
    wait $READER
    echo "exit status $?" >> /tmp/sensors-hotplug.txt
    step "sensors: our userspace driver on /dev/i2c-$BUS"
    echo 0x18 > $DEL
    motionkiosk sensors --accelerometer i2c:$BUS:0x18:lis3dh --seconds 2 --stuck-seconds 0 --no-barometer \
        > /tmp/sensors-i2c.txt 2>&1
    echo "exit status $?" >> /tmp/sensors-i2c.txt
    motionkiosk sensors --accelerometer auto --seconds 2 --stuck-seconds 0 --no-barometer > /tmp/sensors-auto.txt 2>&1
    echo "exit status $?" >> /tmp/sensors-auto.txt
    motionkiosk devices > /tmp/devices-i2c.txt 2>&1
}

# A screen whose preferred mode has more pixels than [display] max_pixels (a 4K television):
# what the kiosk would use and lists, then the test pattern on the mode it takes, screendumped
# while it shows; the host checks the mode and the picture.
capped_stage() {
    step "capped: motionkiosk devices and pattern"
    motionkiosk devices > /tmp/devices.txt 2>&1
    motionkiosk pattern --display drm --no-input --frame-file /tmp/frame.ppm > /tmp/app.log 2>&1 &
    APP=$!
    if wait_text /tmp/app.log "frame on screen" 600 $APP; then
        shot pattern
    else
        step "capped: no frame on screen"
    fi
    kill -TERM $APP
    wait $APP
    echo "exit status $?" >> /tmp/app.log
}
