#!/usr/bin/env python3
"""Host side of board/virtual/systemd-nights.sh: boots the Debian guest disk under QEMU (TCG)
again and again, as a museum's stand lives its nights, and tells the guest
(systemd/nights-proof.sh) what each boot is for:
  install    the package, metrics, statistics and a recording on; SD writes at rest
  cuts       N power cuts: QEMU killed with SIGKILL at a random moment while a visitor plays
             and the kiosk restarts; after each, e2fsck replays the journal and must find the
             file system clean; the next boot must reach READY with the config untouched,
             `motionkiosk stats` reading every file and no per-hour count going backwards
  ro         a read-only root: the kiosk runs, says what it cannot keep, keeps metrics in /run,
             then keeps statistics on a state partition
  (the stages run in this order: install, ro, watchdog, cuts)
  watchdog   the package's hardware-watchdog drop-in on, with QEMU's i6300esb, a kernel crash
             (panic=0, sysrq c) is reset by the watchdog and the stand is READY again
  boot       --boots plain boots, each printing systemd-analyze's view (time, the kiosk's
             critical chain, blame) and the kiosk's journal, for a person looking for the time
Every boot that reaches READY adds to boot_to_first_frame_ms: where the time went from QEMU's
start to READY, in the guest's own clock (kernel, initramfs, systemd to the kiosk's unit, the
unit to its first frame), as the median boot's parts.
Prints the JSON lines of the issue and exits non-zero when a check fails. Standard library
only."""
import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from board import Guest, read_ppm  # noqa: E402

# no_timer_check: under TCG on a loaded host the kernel's early IO-APIC timer check fails and
# panics ("8254 timer not connected to IO-APIC"), seen here at load 20.
BASE_APPEND = "console=ttyS0 root=/dev/vda quiet no_timer_check systemd.firstboot=off systemd.show_status=false"


class Boot:
    """One boot of the guest, told `mode` when it says HELLO; its "R name text" lines."""

    def __init__(self, args, out, mode, append="panic=-1", extra=(), timeout=300):
        self.out, self.mode = out, mode
        share = os.path.join(out, "share")
        os.makedirs(share, exist_ok=True)
        drives = ["-drive", f"file={args.disk},format=raw,if=virtio"]
        if args.state_disk:
            drives += ["-drive", f"file={args.state_disk},format=raw,if=virtio"]
        self.started = time.time()
        self.guest = Guest(out, share, args.kernel, args.initrd, f"{BASE_APPEND} {append}", args.panel, timeout,
                           extra=[*drives, *extra])
        self.results, self.rows, self.hellos, self.buf = {}, [], [], b""
        self.guest.ctl.settimeout(1)

    def lines(self, until):
        """Lines from the guest until `until` (seconds since 1970) or QEMU ends; answers HELLO
        with the mode (each boot of the same QEMU: a reset brings a second HELLO)."""
        while time.time() < until:
            try:
                chunk = self.guest.ctl.recv(4096)
            except socket.timeout:
                if self.guest.qemu.poll() is not None:
                    return
                continue
            except OSError:
                return
            if not chunk:
                return
            self.buf += chunk
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                if not line:
                    continue
                print(f"  guest[{self.mode}]: {line}", flush=True)
                if line.startswith("HELLO "):
                    self.hellos.append((time.time() - self.started, int(line.split()[1])))
                    mode = self.mode if len(self.hellos) == 1 else self.next_mode
                    self.guest.ctl.sendall((mode + "\n").encode())
                elif line.startswith("SHOT "):
                    self.guest.monitor(f"screendump {self.out}/screen-{line[5:]}.ppm")
                    self.guest.ctl.sendall(b"OK\n")
                elif line.startswith("R "):
                    name, _, text = line[2:].partition(" ")
                    if name == "stat":
                        self.rows.append(text)
                    else:
                        self.results[name] = text
                yield line

    next_mode = "REPORT"

    def run_to(self, word, seconds):
        """Until the guest says `word` (a result name or DONE); True if it did."""
        for line in self.lines(time.time() + seconds):
            if line == word or line.startswith(f"R {word} "):
                return True
        return False

    def kill(self):
        """The power cut: SIGKILL, no shutdown."""
        if self.guest.qemu.poll() is None:
            os.kill(self.guest.qemu.pid, signal.SIGKILL)
        self.guest.qemu.wait()

    def end(self, seconds=60):
        try:
            self.guest.qemu.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()


def fsck(disk):
    """The journal replayed as a mount would, then a read-only check that must be clean:
    (replay exit, check exit, what the check said when not clean)."""
    replay = subprocess.run(["e2fsck", "-E", "journal_only", "-y", disk], capture_output=True, text=True)
    check = subprocess.run(["e2fsck", "-f", "-n", disk], capture_output=True, text=True)
    return replay.returncode, check.returncode, (check.stdout + check.stderr).strip()[-400:]


def boot_parts(boot):
    """Where one boot's time went, in ms, from the guest's "boot" result (CLOCK_MONOTONIC: 0 is
    the kernel's start; systemd's, the display's device unit's, the kiosk's exec, its first
    frame in the journal, READY) and the host's clock at HELLO (QEMU's start to the kernel's:
    firmware and loading, plus the first second of the kernel, whose clock runs slow under
    TCG until it has its HPET); None when the guest did not say them all."""
    said = dict(kv.split("=", 1) for kv in boot.results.get("boot", "").split() if "=" in kv)
    try:
        t = {k: int(said[k]) for k in ("init_ms", "systemd_ms", "card_ms", "exec_ms", "frame_ms", "ready_ms")}
    except (KeyError, ValueError):
        return None
    if not boot.hellos or not 0 < t["card_ms"] <= t["exec_ms"] <= t["frame_ms"]:
        return None
    host_s, guest_ms = boot.hellos[0]
    own = said.get("kiosk_frame_ms", "none")
    return {"kernel_to_first_frame": t["frame_ms"], "kernel_to_ready": t["ready_ms"],
            "kernel": t["systemd_ms"], "userspace_to_unit_start": t["exec_ms"] - t["systemd_ms"],
            "unit_start_to_first_frame": t["frame_ms"] - t["exec_ms"],
            "parts": {"qemu_start_to_kernel": round(host_s * 1000 - guest_ms),
                      "kernel_to_initramfs": t["init_ms"],
                      "initramfs_to_systemd": t["systemd_ms"] - t["init_ms"],
                      "systemd_to_display_device": t["card_ms"] - t["systemd_ms"],
                      "display_device_to_unit_start": t["exec_ms"] - t["card_ms"],
                      "unit_start_to_first_frame": t["frame_ms"] - t["exec_ms"],
                      "first_frame_to_ready": t["ready_ms"] - t["frame_ms"],
                      "kiosk_says_process_to_first_frame": float(own) if own != "none" else None}}


def counts(rows):
    """{hour,exhibit: (sessions, touches)} from stats --csv rows."""
    out = {}
    for row in rows:
        f = row.split(",")
        if len(f) >= 5 and f[2].isdigit() and f[4].isdigit():
            out[f"{f[0]},{f[1]}"] = (int(f[2]), int(f[4]))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--disk", required=True)
    p.add_argument("--state-disk", help="a small ext4 image: the read-only stage's state partition (/dev/vdb)")
    p.add_argument("--panel", default="480x800", type=lambda s: tuple(int(v) for v in s.split("x")))
    p.add_argument("--out", required=True)
    p.add_argument("--stages", default="install,cuts,ro,watchdog")
    p.add_argument("--cuts", type=int, default=30)
    p.add_argument("--cut-window", type=float, default=14.0, help="the cut falls up to this many seconds after the visitor starts")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--boots", type=int, default=3, help="the boot stage's boots")
    p.add_argument("--no-measure-writes", dest="measure_writes", action="store_false",
                   help="install without measuring the SD writes at rest (two minutes)")
    args = p.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    stages = args.stages.split(",")
    rng = random.Random(args.seed)
    failed = []

    def check(ok, what):
        print(f"  {'ok  ' if ok else 'FAIL'} nights: {what}", flush=True)
        if not ok:
            failed.append(what)
        return ok

    config_sum = None
    boots = []
    if "install" in stages:
        b = Boot(args, out, "INSTALL" if args.measure_writes else "INSTALL-QUICK", timeout=1200)
        done = b.run_to("DONE", 1200)
        b.end()
        r = b.results
        check(done and r.get("install", "").startswith("dpkg -i exit 0"), f"install: {r.get('install', 'no result')}")
        check(r.get("ready", "").startswith("active/running"), f"install: READY: {r.get('ready', 'no result')}")
        check(r.get("unit", "").startswith("0 mentions"), f"the unit: {r.get('unit', 'no result')}")
        config_sum = r.get("config")
        m = re.match(r"(\d+) kB in (\d+) s at rest with the kiosk, (\d+) kB in (\d+) s without it", r.get("sd-writes", ""))
        if m:
            per_s = int(m.group(1)) / max(1, int(m.group(2))) - int(m.group(3)) / max(1, int(m.group(4)))
            print(f'{{"board":"systemd","metric":"sd_writes_at_rest","kiosk_kB_per_minute":{per_s * 60:.1f},'
                  f'"kiosk_kB_per_9h_day":{per_s * 32400:.0f},"measured":"{r["sd-writes"]}"}}', flush=True)
        rc, ck, said = fsck(args.disk)
        check(ck == 0, f"install: e2fsck -n after a clean power-off: exit {ck} {said if ck else ''}")

    if "ro" in stages:
        b = Boot(args, out, "RO", append="panic=-1 mk.ro=1 systemd.mask=systemd-remount-fs.service", timeout=900)
        done = b.run_to("DONE", 900)
        b.end()
        r = b.results
        check(done, "read-only root: the guest ran the stage to the end")
        check(r.get("root", "").startswith("ro "), f"read-only root: / is {r.get('root', 'no result')}")
        check(r.get("ro-service", "").startswith("active/running") and "NRestarts=0 " in r.get("ro-service", "") + " ",
              f"read-only root: the kiosk runs, no crash loop: {r.get('ro-service', 'no result')}")
        check("first frame on screen" in r.get("ro-frame", ""), f"read-only root: {r.get('ro-frame') or 'no first frame'}")
        check("motionkiosk_display_on 1" in r.get("ro-metrics", ""), f"read-only root: metrics in /run: {r.get('ro-metrics', 'no result')}")
        said = r.get("ro-cannot", "")
        check("kept in /run/motionkiosk/motionkiosk.prom" in said and not re.search(r"\|[2-9]\d* [^|]*metrics", "|" + said),
              f"read-only root: said once what it cannot keep: {said or 'no result'}")
        try:
            w, h, px = read_ppm(f"{out}/screen-ro.ppm")
            check(len(set(px[i:i + 3] for i in range(0, len(px), 3 * 97))) > 3, f"read-only root: the scanout shows the kiosk ({w}x{h})")
        except (OSError, ValueError) as e:
            check(False, f"read-only root: screendump: {e}")
        check(bool(r.get("ro-stats", "").strip()), f"read-only root, state partition: statistics kept: {r.get('ro-stats', 'no result')}")
        check(r.get("ro-after", "").startswith("active/running"), f"read-only root at the end: {r.get('ro-after', 'no result')}")
        rc, ck, said = fsck(args.disk)
        check(ck == 0, f"read-only root: e2fsck -n afterwards: exit {ck} {said if ck else ''}")

    if "watchdog" in stages:
        b = Boot(args, out, "WATCHDOG", append="panic=0",
                 extra=["-device", "i6300esb", "-watchdog-action", "reset"])
        crashed = b.run_to("crash", 300)
        t = time.time()
        back = b.run_to("DONE", 300)
        b.end()
        r = b.results
        check(crashed and "watchdog0" in r.get("watchdog-device", ""), f"watchdog: {r.get('watchdog-device', 'no device')}; "
              f"systemd RuntimeWatchdogUSec {r.get('watchdog-systemd', 'no result')}")
        check(back and len(b.hellos) == 2 and r.get("ready", "").startswith("active/running"),
              f"watchdog: the crashed kernel was reset and the stand is READY again after {time.time() - t:.0f} s: "
              f"{r.get('after-reset', 'no second boot')}; {r.get('ready', '')}")
        if back:
            print(f'{{"board":"systemd","metric":"watchdog_reset","crash_to_ready_s":{time.time() - t:.0f}}}', flush=True)

    if "cuts" in stages:
        ready = refused = lost = clean = 0
        previous = None
        for i in range(args.cuts + 1):
            last = i == args.cuts
            b = Boot(args, out, "CUT")
            # READY, the config, the statistics; then the visitor, and the cut.
            if not b.run_to("touching", 240):
                check(False, f"cut {i}: the guest never started its visitor: {b.results}")
                b.kill()
                continue
            r = b.results
            if r.get("ready", "").startswith("active/running"):
                ready += 1
                boots.append(boot_parts(b))
            else:
                check(False, f"boot {i}: not READY: {r.get('ready', 'no result')}")
            if config_sum is None:
                config_sum = r.get("config")
            check(r.get("config") == config_sum, f"boot {i}: config.toml {'untouched' if r.get('config') == config_sum else 'CHANGED'}")
            m = re.match(r"exit (\d+)", r.get("stats-file", ""))
            # No file yet (nobody played before the first cut) is no refusal.
            none_yet = " files 0 " in r.get("stats-file", "") and "no visitor counts yet" in r.get("stats-file", "")
            if not none_yet and (not m or m.group(1) != "0"):
                refused += 1
                check(False, f"boot {i}: motionkiosk stats: {r.get('stats-file', 'no result')}")
            now = counts(b.rows)
            if previous is not None:
                back = sum(max(0, previous[k][0] - now.get(k, (0, 0))[0]) + max(0, previous[k][1] - now.get(k, (0, 0))[1])
                           for k in previous)
                lost += back
                if back:
                    print(f"  info nights: boot {i}: counts went back by {back} ({previous} -> {now})", flush=True)
            previous = now
            print(f"  info nights: boot {i}: stats {r.get('stats-file', '')}; {sum(v[0] for v in now.values())} sessions "
                  f"in {len(now)} rows; {r.get('records', '?')} recordings", flush=True)
            if last:
                b.kill()
                break
            delay = rng.uniform(0, args.cut_window)
            for _ in b.lines(time.time() + delay):
                pass
            b.kill()
            rc, ck, said = fsck(args.disk)
            clean += ck == 0
            print(f"  info nights: after cut {i + 1}: {ready} boots READY, {refused} refusals, {lost} counts lost, "
                  f"{clean} clean e2fsck", flush=True)
            check(ck == 0, f"cut {i + 1} ({delay:.1f} s into the visit{', after the restart' if 'restarted' in b.results else ''}): "
                           f"journal replay exit {rc}, e2fsck -n exit {ck} {said if ck else ''}")
        check(ready == args.cuts + 1, f"READY after every boot: {ready} of {args.cuts + 1}")
        print(f'{{"board":"systemd","metric":"power_cuts","cuts":{args.cuts},"ready":{min(ready, args.cuts)},'
              f'"files_refused":{refused},"counts_lost":{lost}}}', flush=True)
        check(lost == 0, f"per-hour counts never went backwards: {lost} lost")

    if "boot" in stages:
        for i in range(args.boots):
            b = Boot(args, out, "BOOT")
            done = b.run_to("DONE", 300)
            b.end()
            check(done and b.results.get("ready", "").startswith("active/running"), f"boot {i}: READY: {b.results.get('ready', 'no result')}")
            boots.append(boot_parts(b))

    boots = sorted((p for p in boots if p), key=lambda p: p["kernel_to_first_frame"])
    if boots:
        # The median boot, part by part (the parts add up to its QEMU start to READY). TCG
        # inflates every part; the kernel and systemd's own start most, the kiosk's least.
        m = boots[len(boots) // 2]
        print(json.dumps({"board": "systemd", "metric": "boot_to_first_frame_ms", **{k: v for k, v in m.items() if k != "parts"},
                          "qemu_start_to_ready": m["parts"]["qemu_start_to_kernel"] + m["kernel_to_ready"],
                          "parts": m["parts"], "first_frame_range": [boots[0]["kernel_to_first_frame"], boots[-1]["kernel_to_first_frame"]],
                          "boots": len(boots), "of": "median", "accelerator": "tcg",
                          "host_load": round(os.getloadavg()[0], 1)}, separators=(",", ":")), flush=True)

    print(f"nights: {'every check passed' if not failed else f'{len(failed)} checks FAILED'}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
