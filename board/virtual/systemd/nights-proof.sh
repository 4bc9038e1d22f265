#!/bin/sh
# The guest side of board/virtual/systemd-nights.sh: a stand's nights. Run at every boot by
# mk-nights.service; says "HELLO <uptime ms>" on the second serial port (/dev/ttyS1) and does
# what the host answers:
#   INSTALL          dpkg -i, metrics and a recording on, enabled; SD writes at rest; power off
#   INSTALL-QUICK    the same without measuring the SD writes
#   CUT              READY, the config's checksum, `motionkiosk stats` on every file, then a
#                    visitor (a touch script) and a restart, until the host cuts the power
#   RO               the root is read-only: the kiosk runs, says what it cannot keep, keeps
#                    metrics in /run; then a state partition (/dev/vdb) keeps the statistics
#   WATCHDOG         the package's hardware-watchdog drop-in enabled, then a kernel crash
#   REPORT           (after the watchdog reset) READY again
#   BOOT             READY, then where the boot's time went (systemd-analyze, the journal) and
#                    the kiosk's own start, stamped, from a cold and a warm page cache
# Results go to the host as "R <name> <text>" lines; "DONE" ends a boot.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
exec 3<>/dev/ttyS1
stty raw -echo 115200 <&3

report() { echo "R $*" >&3; echo "nights: $*"; }
uptime_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
prop() { systemctl show -p "$1" --value motionkiosk.service; }
STATS=/var/lib/motionkiosk/visitors.csv

# Waits up to $1 s for the service to be active/running with READY sent; reports when.
wait_ready() {
    end=$(( $(uptime_ms) + $1 * 1000 ))
    while [ "$(uptime_ms)" -lt $end ]; do
        [ "$(systemctl is-active motionkiosk.service)" = active ] && break
        sleep 0.5
    done
    ready=$(( $(prop ActiveEnterTimestampMonotonic) / 1000 ))
    frame=$(journalctl -u motionkiosk.service -b --no-pager -o short-monotonic | grep -m1 'first frame on screen' \
        | sed -n 's/^\[ *\([0-9]*\)\.\([0-9][0-9][0-9]\).*/\1\2/p')
    report ready "$(prop ActiveState)/$(prop SubState) NRestarts=$(prop NRestarts) ready_ms=$ready first_frame_ms=${frame:-none} system=$(systemctl is-system-running)"
    boot_times
}

# Where this boot's time went, in ms of CLOCK_MONOTONIC (0 = the kernel starts): the kernel
# hands over to /init (the initramfs), systemd starts on the real root, the display's device
# unit appears, the kiosk's process starts, its first frame, READY.
boot_times() {
    mono_ms() { v=$(systemctl show -p "$1" --value $2); echo $(( ${v:-0} / 1000 )); }
    init=$(journalctl -k -b --no-pager -o short-monotonic | grep -m1 'Run /init as init process' \
        | sed -n 's/^\[ *\([0-9]*\)\.\([0-9][0-9][0-9]\).*/\1\2/p')
    said=$(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'first frame on screen' \
        | sed -n 's/.* \([0-9.]*\) ms after process start.*/\1/p')
    report boot "init_ms=${init:-none} systemd_ms=$(mono_ms UserspaceTimestampMonotonic) card_ms=$(mono_ms ActiveEnterTimestampMonotonic dev-dri-card0.device)" \
        "exec_ms=$(mono_ms ExecMainStartTimestampMonotonic motionkiosk.service) frame_ms=${frame:-none} ready_ms=$ready kiosk_frame_ms=${said:-none}"
}

# A visitor: the launcher's tiles (480x800 portrait), three touches in each exhibit, home.
visitor_script() {
    echo "size 480 800"; echo plug; echo "sleep 300"
    for round in 1 2 3 4 5 6 7 8; do
        for y in 145 288 431 574 717; do
            echo "down 0 240 $y"; echo sync; echo "sleep 60"; echo "up 0"; echo sync; echo "sleep 700"
            for x in 120 240 360; do
                echo "down 0 $x 500"; echo sync; echo "sleep 50"; echo "up 0"; echo sync; echo "sleep 150"
            done
            echo "down 0 44 44"; echo sync; echo "sleep 60"; echo "up 0"; echo sync; echo "sleep 500"
        done
    done
}

echo "HELLO $(uptime_ms)" >&3
read -r mode <&3
mode=$(echo "$mode" | tr -d '\r')
echo "nights: mode $mode"

case $mode in
INSTALL|INSTALL-QUICK)
    dpkg -i /root/motionkiosk.deb > /root/dpkg-install.log 2>&1
    report install "dpkg -i exit $?"
    install -d -m 0775 -g motionkiosk /var/lib/prometheus/node-exporter
    # A recording too (what --record writes is kept as statistics are).
    mkdir -p /etc/systemd/system/motionkiosk.service.d
    printf '[Service]\nExecStart=\nExecStart=/usr/bin/motionkiosk run --config /etc/motionkiosk/config.toml --record /var/lib/motionkiosk/record.jsonl --record-limit-mb 1\n' \
        > /etc/systemd/system/motionkiosk.service.d/record.conf
    systemctl daemon-reload
    systemctl restart motionkiosk.service
    wait_ready 90
    report config "$(sha256sum /etc/motionkiosk/config.toml | cut -c1-64)"
    report unit "$(grep -c 'udev-settle' /lib/systemd/system/motionkiosk.service) mentions of udev-settle; $(grep '^After=\|^Wants=' /lib/systemd/system/motionkiosk.service | tr '\n' ' ')"
    # What the card is written at rest (the metrics file every 60 s, nothing else), from
    # ext4's own count: two minutes with the kiosk (two metrics writes: the window is a
    # multiple of the interval), then a minute without it (the rest of the system).
    written() { sync; k0=$(cat /sys/fs/ext4/vda/lifetime_write_kbytes); t0=$(uptime_ms); sleep "$1"; sync
                echo "$(( $(cat /sys/fs/ext4/vda/lifetime_write_kbytes) - k0 )) $(( ($(uptime_ms) - t0) / 1000 ))"; }
    [ "$mode" = INSTALL-QUICK ] && { sync; echo DONE >&3; sleep 1; poweroff -f; }
    sync; sleep 20
    set -- $(written 120)
    systemctl stop motionkiosk.service
    set -- "$@" $(written 60)
    systemctl start motionkiosk.service
    report sd-writes "$1 kB in $2 s at rest with the kiosk, $3 kB in $4 s without it"
    sync
    echo DONE >&3
    sleep 1
    poweroff -f
    ;;
CUT)
    wait_ready 120
    report config "$(sha256sum /etc/motionkiosk/config.toml | cut -c1-64)"
    # stats reads visitors.csv.1 and visitors.csv: exit 0 unless it refuses one.
    out=$(motionkiosk stats --csv --file $STATS 2>/run/stats-err)
    report stats-file "exit $? files $(ls $STATS $STATS.1 2>/dev/null | wc -l) said $(tr '\n' ' ' < /run/stats-err | head -c 300)"
    echo "$out" | tail -n +2 | while read -r row; do [ -n "$row" ] && report stat "$row"; done
    report records "$(ls /var/lib/motionkiosk/ | grep -c '^record')"
    visitor_script > /run/visitor.txt
    guest-touch /run/visitor.txt > /dev/null 2>&1 &
    report touching "$(uptime_ms)"
    # A restart while visitors play: the statistics are written as the kiosk leaves.
    sleep "$(awk -v s="$(date +%N)" 'BEGIN { srand(s); printf "%.1f", 2 + rand() * 4 }')"
    systemctl restart motionkiosk.service
    report restarted "$(uptime_ms)"
    sleep 600
    ;;
RO)
    report root "$(findmnt -n -o OPTIONS / | cut -d, -f1) $(touch /probe 2>&1 | head -c 80)"
    wait_ready 90
    sleep 20
    report ro-service "$(prop ActiveState)/$(prop SubState) NRestarts=$(prop NRestarts) MainPID=$(prop MainPID) Result=$(prop Result)"
    report ro-why "$(journalctl -b --no-pager -o cat -u motionkiosk.service | grep -i -m3 'failed\|error' | tr '\n' '|' | head -c 400)"
    journalctl -u motionkiosk.service -b --no-pager -o cat > /run/kiosk-journal.txt
    report ro-cannot "$(grep -c 'cannot' /run/kiosk-journal.txt) lines: $(grep 'cannot\|kept in' /run/kiosk-journal.txt | sort | uniq -c | sed 's/^ *//' | tr '\n' '|' | head -c 600)"
    report ro-metrics "$(ls /run/motionkiosk/ 2>&1 | tr '\n' ' ') $(grep '^motionkiosk_display_on ' /run/motionkiosk/motionkiosk.prom 2>&1)"
    report ro-frame "$(grep -m1 'first frame on screen' /run/kiosk-journal.txt)"
    echo "SHOT ro" >&3; read -r _ <&3
    # A state partition for what must be kept: /var/lib/motionkiosk on its own file system.
    mount /dev/vdb /var/lib/motionkiosk && chown motionkiosk:motionkiosk /var/lib/motionkiosk
    report state-mount "$(findmnt -n -o SOURCE,OPTIONS /var/lib/motionkiosk)"
    systemctl restart motionkiosk.service
    wait_ready 60
    visitor_script | head -n 60 > /run/visitor.txt
    guest-touch /run/visitor.txt > /dev/null 2>&1
    sleep 2
    systemctl restart motionkiosk.service
    wait_ready 60
    report ro-stats "$(motionkiosk stats --csv --file /var/lib/motionkiosk/visitors.csv 2>&1 | tail -n +2 | tr '\n' ' ')"
    report ro-after "$(prop ActiveState)/$(prop SubState) NRestarts=$(prop NRestarts); root $(findmnt -n -o OPTIONS / | cut -d, -f1)"
    umount /var/lib/motionkiosk 2>/dev/null
    echo DONE >&3
    sleep 1
    poweroff -f
    ;;
WATCHDOG)
    wait_ready 120
    mkdir -p /etc/systemd/system.conf.d
    cp /usr/share/motionkiosk/hardware-watchdog.conf /etc/systemd/system.conf.d/60-motionkiosk-watchdog.conf
    systemctl daemon-reexec
    sleep 2
    report watchdog-device "$(ls /dev/watchdog* 2>&1 | tr '\n' ' ') $(cat /sys/class/watchdog/watchdog0/identity 2>&1)"
    report watchdog-systemd "$(systemctl show -p RuntimeWatchdogUSec --value) $(journalctl -b --no-pager -o cat | grep -i -m1 'watchdog')"
    sync
    report crash "$(uptime_ms)"
    sleep 1
    echo 1 > /proc/sys/kernel/sysrq
    echo c > /proc/sysrq-trigger
    ;;
BOOT)
    # Where the boot's time goes, for a person to read: systemd's own view of it and the
    # kiosk's journal with its monotonic times.
    wait_ready 120
    systemd-analyze time 2>&1 | while read -r l; do report analyze "$l"; done
    systemd-analyze critical-chain motionkiosk.service 2>&1 | tail -n +3 | while read -r l; do report chain "$l"; done
    systemd-analyze blame 2>&1 | head -n 15 | while read -r l; do report blame "$l"; done
    journalctl -b --no-pager -o short-monotonic -u motionkiosk.service | head -n 12 | while read -r l; do report kiosk "$l"; done
    # The kiosk's own start, by hand on the same tty: each line it says stamped in ms from
    # its exec, from a cold page cache (as at boot) and a warm one.
    systemctl stop motionkiosk.service
    cat > /run/stamp.py <<'PY'
import subprocess, sys, time
t0 = time.monotonic()
kiosk = subprocess.Popen(sys.argv[1:], stdin=open("/dev/tty1"), stderr=subprocess.PIPE)
for line in kiosk.stderr:
    print("%.0f ms %s" % ((time.monotonic() - t0) * 1000, line.decode(errors="replace").strip()), flush=True)
PY
    for cache in cold warm; do
        [ $cache = cold ] && { sync; echo 3 > /proc/sys/vm/drop_caches; }
        python3 /run/stamp.py motionkiosk run --config /etc/motionkiosk/config.toml --seconds 2 2>&1 \
            | grep -v 'console restored\|stopped after' | while read -r l; do report "start-$cache" "$l"; done
    done
    # The whole journal and systemd's plot for a closer look, on the host's share
    # (board/virtual/work/run-*/share/).
    mkdir -p /run/host && mount -t 9p -o trans=virtio host /run/host 2>/dev/null && {
        n=$(ls /run/host | grep -c '^boot-journal')
        journalctl -b --no-pager -o short-monotonic > /run/host/boot-journal-$n.txt
        systemd-analyze plot > /run/host/boot-plot-$n.svg 2>/dev/null
        umount /run/host
    }
    echo DONE >&3
    sleep 1
    poweroff -f
    ;;
REPORT)
    wait_ready 120
    report after-reset "boot $(cat /proc/sys/kernel/random/boot_id); $(systemctl show -p RuntimeWatchdogUSec --value)"
    rm -f /etc/systemd/system.conf.d/60-motionkiosk-watchdog.conf
    sync
    echo DONE >&3
    sleep 1
    poweroff -f
    ;;
esac
