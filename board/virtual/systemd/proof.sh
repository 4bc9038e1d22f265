#!/bin/sh
# The guest side of board/virtual/systemd-test.sh, run by mk-proof.service on a booted
# Debian (systemd as PID 1). Installs motionkiosk.deb, then checks READY, restart after
# kill -9, the watchdog after SIGSTOP; reboots (a marker file says which boot this is) and
# checks the service came up by itself; then systemd-analyze security, dpkg -r, and the host's
# fleet playbook (installs it again over ssh, "FLEET" asks for it). Every result
# goes to the host as a line "R <name> <text>" on the second serial port (/dev/ttyS1);
# "SHOT <name>" asks the host for a screendump and waits for its "OK"; logs go to the 9p
# share /host. The host decides pass or fail.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
exec 3<>/dev/ttyS1
stty raw -echo 115200 <&3

report() { echo "R $*" >&3; echo "proof: $*"; }
shot() { echo "SHOT $1" >&3; read -r reply <&3; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# CLOCK_MONOTONIC in ms, as systemd's *TimestampMonotonic (no suspend here, so uptime is it).
uptime_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
prop() { systemctl show -p "$1" --value motionkiosk.service; }
state() { echo "$(prop ActiveState)/$(prop SubState)"; }
# One systemctl call: S_MainPID, S_ActiveState, S_SubState, S_NRestarts, and when the main
# process started and the unit last became active (READY=1 for Type=notify), in µs.
snapshot() {
    eval "$(systemctl show -p MainPID -p ActiveState -p SubState -p NRestarts -p ExecMainStartTimestampMonotonic \
        -p ActiveEnterTimestampMonotonic motionkiosk.service | sed -n 's/^\([A-Za-z]*\)=\([A-Za-z0-9-]*\)$/S_\1=\2/p')"
}
finish() {
    journalctl -b --no-pager -o short-monotonic > /host/journal.txt 2>&1
    sync
    echo "DONE" >&3
    systemctl poweroff --force --force
}
# Waits up to $2 ms for the service to run a main process other than $1 and be
# active/running; prints "PID POLLED_MS" (0 as the PID when it gives up).
wait_running() {
    old=$1 limit=$2 start=$(now_ms)
    while :; do
        snapshot
        if [ "$S_MainPID" != 0 ] && [ "$S_MainPID" != "$old" ] && [ "$S_ActiveState/$S_SubState" = active/running ]; then
            echo "$S_MainPID $(( $(now_ms) - start ))"
            return 0
        fi
        [ $(( $(now_ms) - start )) -gt "$limit" ] && { echo "0 $(( $(now_ms) - start ))"; return 1; }
        sleep 0.05
    done
}
# After wait_running: when the new process started and became READY, in ms after $1 (uptime ms).
since() {
    snapshot
    echo "exec +$(( S_ExecMainStartTimestampMonotonic / 1000 - $1 )) ms, READY +$(( S_ActiveEnterTimestampMonotonic / 1000 - $1 )) ms"
}

remove_and_finish() {
    # The exposure score systemd itself computes.
    systemd-analyze security --no-pager motionkiosk.service > /host/security.txt 2>&1
    report security "$(grep -i 'overall exposure' /host/security.txt)"

    # Removal: prerm stops and disables the service, the files go.
    t0=$(now_ms)
    dpkg -r motionkiosk > /host/dpkg-remove.log 2>&1
    report remove "dpkg -r exit $? in $(( $(now_ms) - t0 )) ms"
    report remove-procs "motionkiosk processes: $(pgrep -x motionkiosk | wc -l)"
    report remove-unit "LoadState=$(prop LoadState) ActiveState=$(prop ActiveState); unit file $(ls /lib/systemd/system/motionkiosk.service /etc/systemd/system/multi-user.target.wants/motionkiosk.service 2>/dev/null | wc -l) left"
    sleep 1
    report getty-removed "getty@tty1: $(systemctl is-active getty@tty1.service)"
    shot removed
    # The fleet playbook from the host, over ssh (board/fleet): it installs the package on
    # this stand again and configures it; the host checks. The proof waits for its "OK".
    echo "FLEET" >&3
    read -r reply <&3
    finish
}

modprobe 9pnet_virtio && modprobe 9p && mkdir -p /host && mount -t 9p -o trans=virtio,version=9p2000.L host /host \
    || { report share "no 9p share"; finish; }
PHASE_FILE=/var/lib/mk-proof-phase
if [ -f "$PHASE_FILE" ]; then
    # Second boot, with the package installed and enabled: the kiosk must come up by itself.
    set -- $(wait_running 0 60000)
    snapshot
    report reboot-ready "$S_ActiveState/$S_SubState MainPID=$S_MainPID NRestarts=$S_NRestarts READY at $(( S_ActiveEnterTimestampMonotonic / 1000 )) ms after boot; system $(systemctl is-system-running)"
    report reboot-frame "$(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'first frame on screen')"
    report reboot-getty "getty@tty1: $(systemctl is-active getty@tty1.service)"
    journalctl -u motionkiosk.service -b --no-pager -o short-monotonic > /host/motionkiosk-journal-reboot.txt 2>&1
    sleep 2
    shot reboot
    # Upgrade to N+1 from an apt repository and back (board/virtual/systemd/upgrade.sh).
    [ -x /usr/local/sbin/mk-upgrade ] && /usr/local/sbin/mk-upgrade
    remove_and_finish
fi
report boot "$(systemctl is-system-running) after $(cut -d' ' -f1 /proc/uptime) s; $(systemd --version | head -n 1)"
report getty-before "getty@tty1: $(systemctl is-active getty@tty1.service)"
udevadm settle --timeout=30
shot console

# Install: postinst creates the user, enables and starts the service.
t0=$(now_ms)
dpkg -i /root/motionkiosk.deb > /host/dpkg-install.log 2>&1
report install "dpkg -i exit $? in $(( $(now_ms) - t0 )) ms"
set -- $(wait_running 0 60000)
report ready "$(state) MainPID=$1 $2 ms after dpkg -i returned; $(systemctl show -p Type,NotifyAccess,WatchdogUSec,StatusText motionkiosk.service | tr '\n' ' ')"
report enabled "$(systemctl is-enabled motionkiosk.service)"
report getty-after "getty@tty1: $(systemctl is-active getty@tty1.service)"
report user "$(id motionkiosk 2>&1)"
report creds "$(ps -o user=,group=,supgrp=,comm= -p "$(prop MainPID)" 2>&1)"
sleep 2
shot launcher
report frame-log "$(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'first frame on screen')"
report console "$(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'console left as it is' || echo 'VT taken over (KD_GRAPHICS): no console note')"

# kill -9: Restart=always brings a new process.
old=$(prop MainPID)
restarts=$(prop NRestarts)
t=$(uptime_ms)
kill -9 "$old"
# Polling systemctl would slow the emulated guest down while it restarts the kiosk: wait
# quietly, then read systemd's own timestamps.
sleep 3
set -- $(wait_running "$old" 10000)
report kill9 "old MainPID=$old new MainPID=$1 active/running again (systemd's timestamps: $(since "$t") after the kill; confirmed after $2 ms); NRestarts $restarts -> $(prop NRestarts)"
sleep 2
shot after-kill9

# SIGSTOP: the process is alive but its loop sends no WATCHDOG=1 any more.
old=$(prop MainPID)
t=$(uptime_ms)
kill -STOP "$old"
sleep 8
set -- $(wait_running "$old" 30000)
report watchdog "stopped MainPID=$old, new MainPID=$1 active/running again (systemd's timestamps: $(since "$t") after SIGSTOP; confirmed after $2 ms); NRestarts $(prop NRestarts)"
report watchdog-log "$(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -i -m2 'watchdog' | tr '\n' ' ')"
report old-gone "$(if kill -0 "$old" 2>/dev/null; then echo "stopped process $old still exists"; else echo "stopped process $old is gone"; fi)"

# Health metrics: node_exporter's textfile directory, writable by the kiosk's group (what
# the fleet playbook sets up), exists when the service starts; the file appears and the
# host checks it with promtool.
install -d -m 0775 -g motionkiosk /var/lib/prometheus/node-exporter
old=$(prop MainPID)
systemctl restart motionkiosk.service
set -- $(wait_running "$old" 30000)
sleep 4
cp /var/lib/prometheus/node-exporter/motionkiosk.prom /host/motionkiosk.prom 2>/dev/null
report metrics "$(ls -l /var/lib/prometheus/node-exporter/ 2>&1 | grep -c 'motionkiosk.prom$') file(s); $(grep -c '^motionkiosk_' /host/motionkiosk.prom 2>/dev/null) samples; $(grep '^motionkiosk_display_on ' /host/motionkiosk.prom 2>/dev/null)"

# A technician's screenshot of the running service (SIGUSR2 through its pid file).
report screenshot "$(motionkiosk screenshot --out /host/screenshot.png 2>&1)"

# The black box: SIGUSR1 to the service writes a dump folder; replayed here, its trace
# reaches the state the stand wrote.
systemctl kill -s USR1 --kill-whom=main motionkiosk.service
dump=""
for _ in $(seq 1 40); do
    dump=$(ls -d /var/lib/motionkiosk/blackbox/*-sigusr1 2>/dev/null | tail -n 1)
    [ -n "$dump" ] && break
    sleep 0.5
done
report blackbox "${dump:-no dump}: $(ls "$dump" 2>/dev/null | tr '\n' ' ')| $(motionkiosk replay "$dump" --out /tmp/blackbox-replay 2>&1 | tail -n 1)"

# systemctl reload with a mistake in the file: refused by line, the kiosk runs on as it was.
pid=$(prop MainPID)
cp /etc/motionkiosk/config.toml /root/config.good
sed -i 's/^shape_cap = 40$/shape_cap = "many"/' /etc/motionkiosk/config.toml
bad_line=$(grep -n 'shape_cap = "many"' /etc/motionkiosk/config.toml | cut -d: -f1)
systemctl reload motionkiosk.service
reload_status=$?
sleep 2
report reload-bad "reload exit $reload_status; $(state) MainPID $pid -> $(prop MainPID); bad line $bad_line; journal: $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'config.toml:'"$bad_line"':' ) | $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'reload refused')"
cp /root/config.good /etc/motionkiosk/config.toml
systemctl reload motionkiosk.service
sleep 2
report reload-good "$(state) MainPID $(prop MainPID); journal: $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 -E 'config.toml (is unchanged|applied)')"

# A [display] change on reload: the kiosk gives the output back and starts again in the same
# process (same MainPID) with a new first frame; then the file goes back and so does it.
firsts() { journalctl -u motionkiosk.service -b --no-pager -o cat | grep -c 'first frame on screen'; }
pid=$(prop MainPID)
before=$(firsts)
sed -i 's/^rotation = "auto"$/rotation = "180"/' /etc/motionkiosk/config.toml
systemctl reload motionkiosk.service
for _ in $(seq 1 60); do [ "$(firsts)" -gt "$before" ] && break; sleep 0.5; done
report reload-display "$(state) MainPID $pid -> $(prop MainPID); first frames $before -> $(firsts); journal: $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'starts again in the same process')"
cp /root/config.good /etc/motionkiosk/config.toml
before=$(firsts)
systemctl reload motionkiosk.service
for _ in $(seq 1 60); do [ "$(firsts)" -gt "$before" ] && break; sleep 0.5; done

# What a process start costs in this emulated guest, for reading the figures above.
t0=$(now_ms)
/usr/bin/motionkiosk --version > /dev/null
report startup-cost "motionkiosk --version took $(( $(now_ms) - t0 )) ms in the guest"

# Opening hours across a change of daylight saving time (systemd/dst-proof.sh: its own results).
echo "STAGE-TIME 150" >&3
mk-dst-proof

journalctl -u motionkiosk.service -b --no-pager -o short-monotonic > /host/motionkiosk-journal.txt 2>&1
# Reboot with the service enabled (what a technician does); the proof goes on at the next boot.
journalctl -b --no-pager -o short-monotonic > /host/journal-boot1.txt 2>&1
echo 2 > "$PHASE_FILE"
sync
report rebooting "$(date +%s)"
systemctl reboot
exit 0
