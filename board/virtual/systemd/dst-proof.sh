#!/bin/sh
# Opening hours across a change of daylight saving time on the running service: a stage of
# board/virtual/systemd-test.sh, run by proof.sh (fd 3 is its serial line to the host) with
# the package installed and the service up.
#
# The guest's zone becomes Europe/Berlin and its clock is set 45 s before next year's
# spring-forward instant (the last Sunday of March, 01:00Z), when the clocks go from 02:00
# CET to 03:00 CEST: a night after the kiosk's build date, since a clock that reads earlier
# than the build is never trusted and the stand then stays open whatever its hours. With hours of
# 03:00-04:00 the display must come on at that instant (counted in civil time, the wake-up
# came an hour late and the display never came on). Then the clock is stepped to 30 s
# before 04:00 CEST: the kiosk must hear the step and go off at 04:00 CEST (02:00:00Z).
# Each result is "R dst-<name> ok|FAIL <text>"; the host fails the run on a FAIL. The
# configuration, the zone and the clock are put back at the end.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CONFIG=/etc/motionkiosk/config.toml
SAVED=/root/config.before-dst
# The most an on/off may lag its instant: the timer, the kiosk's modeset and journald in an
# emulated guest.
SLACK=3

report() { echo "R dst-$1 $2" >&3; echo "proof: dst-$1 $2"; }
verdict() { if [ "$2" = 0 ]; then report "$1" "ok $3"; else report "$1" "FAIL $3"; fi; }
mainpid() { systemctl show -p MainPID --value motionkiosk.service; }
# The kiosk's journal lines (the process started for this stage: the clock went back, so
# times cannot tell its lines from earlier ones), with realtime stamps (s.µs) or without.
lines() { journalctl _PID="$pid" --no-pager -o "${1:-cat}"; }
# The stamp of its last line containing $1.
said_at() { lines short-unix | grep -F "$1" | tail -n 1 | cut -d' ' -f1; }
# Waits until the wall clock reads $1 (s since 1970) plus the slack.
sleep_until() { while [ "$(date +%s)" -lt $(( $1 + SLACK )) ]; do sleep 1; done; }
# Whether $1 (s.µs) is within the slack after the instant $2 (s), and by how much.
lag() { awk -v t="$1" -v at="$2" -v slack="$SLACK" 'BEGIN { if (t == "") { print "never"; exit 1 }
    d = t - at; printf "%+.3f s", d; exit !(d >= 0 && d <= slack) }'; }
dpms() { cat /sys/class/drm/card*-*/dpms 2>/dev/null | head -n 1; }

up0=$(cut -d' ' -f1 /proc/uptime)
real0=$(date +%s.%N)
zone0=$(readlink /etc/localtime)
cp "$CONFIG" "$SAVED"
sed -i 's/^open = \[\]$/open = ["Daily 03:00-04:00"]/' "$CONFIG"
grep -q '^open = \["Daily 03:00-04:00"\]$' "$CONFIG" || report setup "FAIL no empty 'open = []' line in $CONFIG to replace"
ln -sf /usr/share/zoneinfo/Europe/Berlin /etc/localtime

# Next year's last Sunday of March: 01:00Z is when 02:00 CET becomes 03:00 CEST, 02:00Z is 04:00 CEST.
YEAR=$(( $(date -u +%Y) + 1 ))
SUNDAY=$(( 31 - $(date -u -d "$YEAR-03-31" +%w) ))
NIGHT=$(printf '%d-03-%02d' "$YEAR" "$SUNDAY")
SPRING=$(date -u -d "${NIGHT}T01:00:00Z" +%s)
CLOSE=$(( SPRING + 3600 ))
# The schedule applies only to a clock the kiosk trusts: this guest has no network time, so
# the stage says what timesyncd says once NTP has set the clock (removed again at the end).
SYNCED=/run/systemd/timesync/synchronized
made_synced=
if [ ! -e "$SYNCED" ]; then mkdir -p "${SYNCED%/*}" && touch "$SYNCED" && made_synced=1; fi
date -u -s "@$(( SPRING - 45 ))" > /dev/null
# The zone is read when the kiosk starts.
systemctl restart motionkiosk.service
sleep 5
pid=$(mainpid)
closed=$(lines | grep -m1 'closed: display off')
trust=$(lines | grep -m1 'clock: ')
case "$closed" in
    *"until ${NIGHT}T03:00:00"*) verdict closed-before 0 "01:59 CET on $NIGHT: $closed; $trust; dpms $(dpms)" ;;
    *) verdict closed-before 1 "01:59 CET on $NIGHT: '${closed:-no closed line}'; ${trust:-no clock line}; dpms $(dpms)" ;;
esac

sleep_until "$SPRING"
on_at=$(said_at 'open: display on')
by=$(lag "$on_at" "$SPRING"); ok=$?
verdict open-at-0300-cest "$ok" "display on $by after 02:00 CET became 03:00 CEST ($(lines | grep -m1 'open: display on')); dpms $(dpms)"

# An NTP-like step forward to 30 s before closing: the kiosk must follow it at once.
date -u -s "@$(( CLOSE - 30 ))" > /dev/null
sleep 3
heard=$(lines | grep -m1 'wall clock set')
verdict clock-step "$([ -n "$heard" ]; echo $?)" "after the step to 03:59:30 CEST: '${heard:-nothing said}'"
sleep_until "$CLOSE"
off_at=$(said_at 'closed: display off')
by=$(lag "$off_at" "$CLOSE"); ok=$?
verdict closed-at-0400-cest "$ok" "display off $by after 04:00 CEST ($(lines | grep 'closed: display off' | tail -n 1)); dpms $(dpms); MainPID $pid -> $(mainpid)"
lines short-unix > /host/dst-journal.txt 2>&1

# Back as it was: the file, the zone, the clock (the time that passed since, by the uptime).
cp "$SAVED" "$CONFIG"
[ -n "$made_synced" ] && rm -f "$SYNCED"
ln -sf "$zone0" /etc/localtime
date -u -s "@$(awk -v r="$real0" -v u0="$up0" -v u="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.3f", r + u - u0 }')" > /dev/null
systemctl restart motionkiosk.service
sleep 3
exit 0
