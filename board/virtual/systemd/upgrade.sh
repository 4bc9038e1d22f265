#!/bin/sh
# The guest side of the upgrade stage of board/virtual/systemd-test.sh (run by proof.sh on
# the second boot, with version N of the package installed and its service running).
# A museum edits /etc/motionkiosk/config.toml; version N+1 (the same build with a bumped
# version, board/virtual/systemd/upgrade-repo.sh) comes from a signed apt repository on this
# disk (a file: source); then apt goes back to N with --allow-downgrades.
#
# The key the new version no longer knows: N and N+1 are one build, so no key exists only in
# N. What a real N's file would carry, this stage writes after N has read its file (N runs on
# the museum's edit, started on it; the file on disk then also holds `idle_secs`, a key
# as N might have called idle_seconds). The upgrade's restart makes N+1 read that file: what
# it does with the key (the journal names it, file and line; the stand stays dark while it
# is there) is what this stage shows; then the line goes, as the message says, and the kiosk
# must come back READY on the new binary.
#
# Results go to the host as "R <name> <text>" lines on the proof's channel (fd 3, else
# /dev/ttyS1); apt's output to the 9p share /host. The host decides pass or fail
# (board/virtual/systemd/upgrade.py).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export DEBIAN_FRONTEND=noninteractive
{ true >&3; } 2>/dev/null || { exec 3<>/dev/ttyS1; stty raw -echo 115200 <&3; }

report() { echo "R $*" >&3; echo "upgrade: $*"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
prop() { systemctl show -p "$1" --value motionkiosk.service; }
version() { dpkg-query -W -f='${Version}' motionkiosk 2>/dev/null; }
inode() { stat -L -c %i "$1" 2>/dev/null; }
CONF=/etc/motionkiosk/config.toml
SOURCE=/etc/apt/sources.list.d/motionkiosk.sources
# Only the kiosk's source is read: the guest has no Debian mirror to reach.
update() { apt-get update -o Dir::Etc::SourceList="$SOURCE" -o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0; }

# Waits up to $2 ms for a main process other than $1, active/running (READY=1: Type=notify).
wait_running() {
    old=$1 limit=$2 start=$(now_ms)
    while :; do
        pid=$(prop MainPID) st="$(prop ActiveState)/$(prop SubState)"
        [ "$pid" != 0 ] && [ "$pid" != "$old" ] && [ "$st" = active/running ] && return 0
        [ $(( $(now_ms) - start )) -gt "$limit" ] && return 1
        sleep 0.3
    done
}
# The running kiosk's program: the file it was started from, and whether that is the file
# at /usr/bin/motionkiosk now (dpkg replaces the file: a process of the old one shows
# "(deleted)" and another inode).
running() {
    pid=$(prop MainPID)
    echo "$(prop ActiveState)/$(prop SubState) MainPID=$pid exe=$(readlink "/proc/$pid/exe" 2>&1 | tr ' ' _) exe-inode=$(inode "/proc/$pid/exe") file-inode=$(inode /usr/bin/motionkiosk) NRestarts=$(prop NRestarts)"
}
# The conffile as dpkg sees it: the package's md5 against the file's.
conffile() {
    shipped=$(dpkg-query -W -f='${Conffiles}' motionkiosk | awk -v f="$CONF" '$1 == f { print $2 }')
    echo "sha256=$(sha256sum "$CONF" | cut -c1-16) md5=$(md5sum "$CONF" | cut -d' ' -f1) package-md5=$shipped left-by-dpkg=$(ls /etc/motionkiosk | grep -c -E '\.dpkg-(new|old|dist)$')"
}

N=$(version)
report upgrade-start "installed $N; $(running)"

# --- The museum's edit, in force in N ------------------------------------------------
# A restart (not a reload: the fleet stage later counts the reloads that applied a file).
sed -i 's/^idle_seconds = 90$/idle_seconds = 75/' "$CONF"
before_pid=$(prop MainPID)
systemctl restart motionkiosk.service
wait_running "$before_pid" 30000
report upgrade-edit "$(grep -c '^idle_seconds = 75$' "$CONF") edited line(s); restarted on it: $(running)"
edited=$(sha256sum "$CONF" | cut -c1-16)
# A key of N's that N+1 no longer knows (see the header), after N has read the file.
sed -i 's/^\[exhibits\]$/[exhibits]\nidle_secs = 75/' "$CONF"
stale_line=$(grep -n '^idle_secs = 75$' "$CONF" | cut -d: -f1)
with_stale=$(sha256sum "$CONF" | cut -c1-16)
report upgrade-stale-written "line $stale_line; edited file sha256=$edited, with the stale key sha256=$with_stale"

# --- The repository: a file: source signed by this run's test key ----------------------
printf 'Types: deb\nURIs: file:/srv/motionkiosk-apt\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/motionkiosk-test.asc\n' > "$SOURCE"
update > /host/upgrade-apt-update.log 2>&1
report upgrade-source "apt-get update exit $?; $(apt-cache policy motionkiosk 2>&1 | tr -s ' \n' ' ')"

# --- N -> N+1 --------------------------------------------------------------------------
before_pid=$(prop MainPID) before_inode=$(inode /usr/bin/motionkiosk)
t0=$(now_ms)
apt-get install -y motionkiosk < /dev/null > /host/upgrade-apt-install.log 2>&1
status=$? took=$(( $(now_ms) - t0 ))
report upgrade-install "apt-get install exit $status in $took ms: $N -> $(version); conffile prompt: $(grep -c -i 'configuration file' /host/upgrade-apt-install.log)"
report upgrade-conffile "with the stale key sha256=$with_stale; now $(conffile)"
# The technician's check of the kept file with the new version (its default file).
said=$(motionkiosk check-config 2>&1)
rc=$?
report upgrade-check-config "$(echo "$said" | tr '\n' ' ')exit $rc"
sleep 2
report upgrade-stale-state "while the key is in the file: $(running); journal: $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep -m1 'idle_secs')"

# The line goes, as the message says. Restart=always starts the kiosk again; if the failed
# starts used up StartLimitBurst, systemd gave up and a technician starts it by hand.
sed -i '/^idle_secs = 75$/d' "$CONF"
fixed=$(sha256sum "$CONF" | cut -c1-16)
if wait_running "$before_pid" 30000; then
    how="by itself (Restart=always)"
else
    how="not by itself ($(prop ActiveState)/$(prop SubState) Result=$(prop Result)): reset-failed and start"
    systemctl reset-failed motionkiosk.service
    systemctl start motionkiosk.service
    wait_running "$before_pid" 30000
fi
sleep 1
report upgrade-ready "the line removed (sha256=$fixed, edited sha256=$edited); back $how; $(running); inode before the upgrade $before_inode; $(journalctl -u motionkiosk.service -b --no-pager -o cat | grep 'first frame on screen' | tail -n 1)"

# --- N+1 -> N ---------------------------------------------------------------------------
before_pid=$(prop MainPID) before_inode=$(inode /usr/bin/motionkiosk) newer=$(version)
t0=$(now_ms)
apt-get install -y --allow-downgrades "motionkiosk=$N" < /dev/null > /host/downgrade-apt-install.log 2>&1
status=$? took=$(( $(now_ms) - t0 ))
report downgrade-install "apt-get install motionkiosk=$N --allow-downgrades exit $status in $took ms: $newer -> $(version)"
report downgrade-conffile "edited sha256=$edited; now $(conffile)"
wait_running "$before_pid" 30000
sleep 1
report downgrade-ready "$(running); inode before the downgrade $before_inode"
journalctl -u motionkiosk.service -b --no-pager -o short-monotonic > /host/upgrade-journal.txt 2>&1
exit 0
