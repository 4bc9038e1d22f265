#!/usr/bin/env python3
"""Host side of the virtual board: boots the guest under QEMU (TCG) for one panel size,
answers its screendump requests on the second serial port, then checks what it left on
the 9p share. Exits non-zero when a check fails. Standard library only."""
import argparse
import os
import re
import socket
import subprocess
import sys
import time


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    # P6 header: magic, width, height, maxval, then one whitespace byte.
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h * 3]
    if len(pixels) != w * h * 3:
        raise ValueError(f"{path}: truncated ({len(pixels)} of {w * h * 3} bytes)")
    return w, h, pixels


def turn_onto_panel(w, h, pixels, rotation):
    """The portrait frame as the panel must show it: turned clockwise by `rotation`.
    Written independently of the app's ScreenTransform: portrait (x, y) lands on panel
    (h-1-y, x) for 90, (w-1-x, h-1-y) for 180, (y, w-1-x) for 270."""
    if rotation == 0:
        return w, h, pixels
    pw, ph = (h, w) if rotation in (90, 270) else (w, h)
    out = bytearray(pw * ph * 3)
    for y in range(h):
        row = pixels[y * w * 3:(y + 1) * w * 3]
        for x in range(w):
            if rotation == 90:
                px, py = h - 1 - y, x
            elif rotation == 180:
                px, py = w - 1 - x, h - 1 - y
            else:
                px, py = y, w - 1 - x
            o = (py * pw + px) * 3
            out[o:o + 3] = row[x * 3:x * 3 + 3]
    return pw, ph, bytes(out)


class Plan:
    """Touches in portrait pixels, turned into the panel-native device coordinates a
    direct touchscreen reports (the inverse of what the app must compute)."""

    def __init__(self, panel_w, panel_h, rotation):
        self.panel_w, self.panel_h, self.rotation = panel_w, panel_h, rotation
        self.pw, self.ph = (panel_h, panel_w) if rotation in (90, 270) else (panel_w, panel_h)

    def device(self, x, y):
        if self.rotation == 0:
            return x, y
        if self.rotation == 90:
            return self.ph - y, x
        if self.rotation == 180:
            return self.pw - x, self.ph - y
        return y, self.pw - x

    def line(self, verb, slot, x, y):
        dx, dy = self.device(x, y)
        return f"{verb} {slot} {dx} {dy}"

    def scripts(self, log):
        """Waits key on the app's own lines: "input added … touch touchscreen" (libinput's
        messages name the device "… virtual touchscreen" and must not count)."""
        pw, ph = self.pw, self.ph
        self.tap = (120, 200)
        self.pinch_centre = (pw // 2, ph // 2)
        self.pinch_from, self.pinch_to, self.pinch_steps = 40, 140, 10
        self.hold = (pw // 2, ph * 3 // 4)
        self.tap2 = (pw - 100, 150)
        cx, cy = self.pinch_centre
        s1 = [f"size {self.panel_w} {self.panel_h}", "plug", f"waitfor {log} 1 touch touchscreen",
              "# tap", self.line("down", 0, *self.tap), "sync", "sleep 80", "up 0", "sync",
              f"waitfor {log} 1 touch up", "sleep 300",
              "# two-finger pinch, opening",
              self.line("down", 0, cx - self.pinch_from, cy), self.line("down", 1, cx + self.pinch_from, cy), "sync"]
        for i in range(1, self.pinch_steps + 1):
            d = self.pinch_from + (self.pinch_to - self.pinch_from) * i // self.pinch_steps
            s1 += ["sleep 40", self.line("move", 0, cx - d, cy), self.line("move", 1, cx + d, cy), "sync"]
        s1 += ["sleep 40", "up 0", "up 1", "sync", f"waitfor {log} 3 touch up", "sleep 300",
               "# a finger held down while the touchscreen is unplugged",
               self.line("down", 0, *self.hold), "sync", f"waitfor {log} 4 touch down", "unplug",
               f"waitfor {log} 1 input removed"]
        s2 = [f"size {self.panel_w} {self.panel_h}", "plug", f"waitfor {log} 2 touch touchscreen",
              self.line("down", 0, *self.tap2), "sync", "sleep 80", "up 0", "sync",
              f"waitfor {log} 5 touch up|touch cancel", "unplug"]
        return "\n".join(s1) + "\n", "\n".join(s2) + "\n"


TOUCH = re.compile(r"^touch (down|motion|up|cancel) id=(\d+) x=(-?[\d.]+) y=(-?[\d.]+)$")


def touch_lines(log_text):
    """Touch events grouped in frames, as the app logged them."""
    frames, current = [], []
    for line in log_text.splitlines():
        m = TOUCH.match(line.strip())
        if m:
            current.append((m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4))))
        elif line.strip() == "touch frame" and current:
            frames.append(current)
            current = []
    return frames


class Checks:
    def __init__(self, name):
        self.name, self.failed, self.passed = name, [], []

    def check(self, ok, what):
        (self.passed if ok else self.failed).append(what)
        print(f"  {'ok  ' if ok else 'FAIL'} {self.name}: {what}", flush=True)
        return ok


def near(a, b, tol=0.6):
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def check_touches(c, plan, log_text):
    frames = touch_lines(log_text)
    events = [e for f in frames for e in f]
    # The touchscreen's fingers (the PS/2 mouse's finger is checked on its own).
    downs = [e for e in events if e[0] == "down" and e[1] != 1000000]
    c.check(len(downs) >= 5, f"touch downs logged: {len(downs)} (tap, 2 pinch fingers, held finger, tap after re-plug)")
    if len(downs) < 5:
        return
    # Tap: the first frame is one down at the tap point, and that id goes up at the same place.
    tap = downs[0]
    c.check(near(tap[2:], plan.tap), f"tap down at portrait {tap[2]:.1f},{tap[3]:.1f}, expected {plan.tap}")
    ups = [e for e in events if e[0] == "up" and e[1] == tap[1]]
    c.check(bool(ups) and near(ups[0][2:], plan.tap), "tap up at the tap point")
    # Pinch: two fingers in one frame, at the expected start, ending at the expected spread.
    cx, cy = plan.pinch_centre
    pinch = next((f for f in frames if len([e for e in f if e[0] == "down"]) == 2), None)
    if not c.check(pinch is not None, "pinch: both fingers down in one frame"):
        return
    ids = sorted(pinch, key=lambda e: e[2])
    left, right = ids[0][1], ids[1][1]
    c.check(near(ids[0][2:], (cx - plan.pinch_from, cy)) and near(ids[1][2:], (cx + plan.pinch_from, cy)),
            f"pinch starts at portrait {ids[0][2]:.1f},{ids[0][3]:.1f} and {ids[1][2]:.1f},{ids[1][3]:.1f}, "
            f"expected {cx - plan.pinch_from},{cy} and {cx + plan.pinch_from},{cy}")
    last = {}
    for e in events:
        if e[1] in (left, right) and e[0] == "motion":
            last[e[1]] = e
    end_ok = left in last and right in last and near(last[left][2:], (cx - plan.pinch_to, cy)) \
        and near(last[right][2:], (cx + plan.pinch_to, cy))
    c.check(end_ok, f"pinch ends {plan.pinch_to * 2} px apart around the centre"
            + (f" (got {last[left][2]:.1f} and {last[right][2]:.1f})" if left in last and right in last else ""))
    # The finger held during the unplug is cancelled (libinput may report it as lifted).
    held = downs[3]
    c.check(near(held[2:], plan.hold), f"held finger down at {held[2]:.1f},{held[3]:.1f}, expected {plan.hold}")
    ends = [e for e in events if e[1] == held[1] and e[0] in ("cancel", "up") and events.index(e) > events.index(held)]
    c.check(bool(ends), f"held finger ended on unplug ({ends[0][0] if ends else 'no end'})")
    c.check("input removed" in log_text, "the app saw the touchscreen removed")
    tap2 = downs[4]
    c.check(near(tap2[2:], plan.tap2), f"tap after re-plug at {tap2[2]:.1f},{tap2[3]:.1f}, expected {plan.tap2}")
    # The gesture layer recognised both taps and the pinch where they happened.
    taps = [(float(x), float(y)) for x, y in re.findall(r"^gesture tap x=([\d.]+) y=([\d.]+)$", log_text, re.M)]
    c.check(len(taps) == 2 and near(taps[0], plan.tap) and near(taps[1], plan.tap2),
            f"gesture layer: taps at {taps}, expected {plan.tap} and {plan.tap2}")
    pinches = re.findall(r"^gesture pinch (\w+) scale=([\d.]+) x=([\d.]+) y=([\d.]+)$", log_text, re.M)
    ended = [p for p in pinches if p[0] == "ended"]
    expected_scale = plan.pinch_to / plan.pinch_from
    c.check(bool(ended) and abs(float(ended[0][1]) - expected_scale) < 0.05
            and near((float(ended[0][2]), float(ended[0][3])), plan.pinch_centre),
            f"gesture layer: pinch {' '.join(p[0] for p in pinches) or 'none'}, ended scale "
            f"{ended[0][1] if ended else '-'} (expected {expected_scale:.2f}) around {plan.pinch_centre}")


def run_guest(args, out, share):
    for name in ("ctl.sock", "mon.sock"):
        if os.path.exists(os.path.join(out, name)):
            os.unlink(os.path.join(out, name))
    w, h = args.panel
    append = f"console=ttyS0 quiet panic=-1 mk.measure={1 if args.measure else 0} mk.legacy={1 if args.legacy else 0}"
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-smp", "2", "-m", "1024",
           "-kernel", args.kernel, "-initrd", args.initrd, "-append", append,
           "-display", "none", "-no-reboot", "-vga", "none",
           "-device", f"virtio-gpu-pci,xres={w},yres={h}",
           "-serial", f"file:{out}/console.log",
           "-chardev", f"socket,id=ctl,path={out}/ctl.sock,server=on,wait=off", "-serial", "chardev:ctl",
           "-monitor", f"unix:{out}/mon.sock,server=on,wait=off",
           "-virtfs", f"local,path={share},mount_tag=host,security_model=none,id=host"]
    qemu = subprocess.Popen(cmd, stdout=open(f"{out}/qemu.log", "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + args.timeout

    def connect(name):
        while time.time() < deadline:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(f"{out}/{name}")
                return s
            except OSError:
                if qemu.poll() is not None:
                    raise RuntimeError(f"qemu exited: see {out}/qemu.log")
                time.sleep(0.1)
        raise RuntimeError(f"no {name}")

    ctl, mon = connect("ctl.sock"), connect("mon.sock")
    mon_buf = b""

    def monitor(command):
        nonlocal mon_buf
        mon.sendall(command.encode() + b"\n")
        mon.settimeout(30)
        # The reply ends with the next prompt.
        while True:
            mon_buf += mon.recv(4096)
            if mon_buf.count(b"(qemu) ") >= 2:
                mon_buf = mon_buf[mon_buf.rindex(b"(qemu) ") :]
                return

    # The banner and first prompt.
    mon.settimeout(30)
    while b"(qemu) " not in mon_buf:
        mon_buf += mon.recv(4096)
    shots, buf, done = [], b"", False
    ctl.settimeout(1)
    while time.time() < deadline and not done:
        try:
            chunk = ctl.recv(4096)
        except socket.timeout:
            if qemu.poll() is not None:
                break
            continue
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            line = line.decode(errors="replace").strip()
            print(f"  guest: {line}", flush=True)
            if line.startswith("SHOT "):
                name = line[5:]
                path = f"{out}/screen-{name}.ppm"
                monitor(f"screendump {path}")
                shots.append(name)
                ctl.sendall(b"OK\n")
            elif line == "INPUT bench":
                # Arrow keys tilt; the mouse is one finger (left button down = touching).
                for command in ("sendkey left", "sendkey up", "mouse_move 20 10", "mouse_button 1",
                                "mouse_move 30 0", "mouse_move 30 0", "mouse_button 0"):
                    monitor(command)
                    time.sleep(0.2)
                ctl.sendall(b"OK\n")
            elif line == "DONE":
                done = True
    try:
        qemu.wait(timeout=max(5, deadline - time.time()))
    except subprocess.TimeoutExpired:
        qemu.kill()
        qemu.wait()
    return done


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--panel", required=True, type=lambda s: tuple(int(v) for v in s.split("x")))
    p.add_argument("--rotation", type=int, required=True, help="the rotation the app must choose for this panel")
    p.add_argument("--out", required=True)
    p.add_argument("--measure", action="store_true")
    p.add_argument("--legacy", action="store_true", help="make the app use SetCrtc + PageFlip")
    p.add_argument("--timeout", type=float, default=180)
    args = p.parse_args()

    out = os.path.abspath(args.out)
    share = os.path.join(out, "share")
    os.makedirs(share, exist_ok=True)
    for f in os.listdir(share):
        os.unlink(os.path.join(share, f))
    w, h = args.panel
    plan = Plan(w, h, args.rotation)
    s1, s2 = plan.scripts("/tmp/app.log")
    with open(f"{share}/touch1.txt", "w") as f:
        f.write(s1)
    with open(f"{share}/touch2.txt", "w") as f:
        f.write(s2)

    name = f"{w}x{h}"
    c = Checks(name)
    started = time.time()
    done = run_guest(args, out, share)
    c.check(done, f"guest ran to the end in {time.time() - started:.0f} s")

    def text(fname):
        try:
            with open(f"{share}/{fname}") as f:
                return f.read()
        except OSError:
            return ""

    log = text("app.log")
    with open(f"{out}/app.log", "w") as f:
        f.write(log)
    print(f"--- {name}: app log (first lines) ---\n" + "\n".join(log.splitlines()[:6]) + "\n---", flush=True)

    # 1. The scanout equals the app's own portrait frame, turned for the panel.
    try:
        fw, fh, frame = read_ppm(f"{share}/frame.ppm")
        sw, sh, screen = read_ppm(f"{out}/screen-pattern.ppm")
        tw, th, turned = turn_onto_panel(fw, fh, frame, args.rotation)
        c.check((fw, fh) == ((h, w) if args.rotation in (90, 270) else (w, h)), f"app frame is portrait {fw}x{fh}")
        same = (tw, th) == (sw, sh) and turned == screen
        if not same and (tw, th) == (sw, sh):
            diff = sum(1 for i in range(0, len(screen), 3) if screen[i:i + 3] != turned[i:i + 3])
            detail = f", {diff} pixels differ"
        else:
            detail = "" if same else f", sizes {tw}x{th} vs {sw}x{sh}"
        c.check(same, f"screendump {sw}x{sh} equals the app frame turned by {args.rotation}°, pixel for pixel{detail}")
    except (OSError, ValueError) as e:
        c.check(False, f"pattern frame comparison: {e}")

    # 2. Touch through uinput, udevd and libinput, at the right portrait coordinates.
    check_touches(c, plan, log)

    # 3. Hot-plug: still running after the re-plug; 4. SIGTERM gives the console back.
    alive = text("alive.txt")
    c.check("alive after replug" in alive, "the app kept running through unplug and re-plug")
    c.check("exit status 0" in alive, f"exit status after SIGTERM ({alive.strip().splitlines()[-1] if alive.strip() else 'none'})")
    kd = text("kdmode.txt")
    c.check("kdmode during: KD_GRAPHICS K_OFF" in kd, "VT in KD_GRAPHICS with its keyboard off while running")
    before = re.search(r"kdmode before: (\S+ \S+)", kd)
    c.check(before is not None and f"kdmode after: {before.group(1)}" in kd,
            f"VT back to {before.group(1) if before else '?'} after SIGTERM")
    c.check("console restored" in log, "the app restored the CRTC and console")
    try:
        aw, ah, after = read_ppm(f"{out}/screen-after.ppm")
        sw, sh, screen = read_ppm(f"{out}/screen-pattern.ppm")
        c.check(after != screen, "after SIGTERM the scanout no longer shows the pattern (the console is back)")
    except (OSError, ValueError) as e:
        c.check(False, f"screendump after SIGTERM: {e}")

    # Modesetting path, keyboard and mouse, the devices listing.
    mode = "legacy modesetting" if args.legacy else "atomic modesetting"
    c.check(mode in log, f"the app used {mode}")
    c.check("key tiltLeft" in log and "key tiltUp" in log, "arrow keys from the PS/2 keyboard reached the app as tilt keys")
    mouse = [e for f in touch_lines(log) for e in f if e[1] == 1000000]
    c.check([e[0] for e in mouse][:1] == ["down"] and "up" in [e[0] for e in mouse] and "motion" in [e[0] for e in mouse],
            f"the PS/2 mouse acted as one finger ({' '.join(e[0] for e in mouse) or 'nothing'})")
    devices = text("devices.txt")
    c.check(f"would use: Virtual-1 {w}x{h}" in devices and "Virtual-1: connected" in devices,
            "motionkiosk devices lists the connected Virtual-1 and would use it")
    c.check("keyboard" in devices, "motionkiosk devices lists the keyboard")
    second = text("second-drm.log")
    c.check("another program — a desktop? — owns the display" in second and "exit status 0" not in second,
            "a second kiosk with --display drm is told another program owns the display")
    second = text("second-auto.log")
    c.check("showing the pattern on the virtual panel" in second and "owns the display" in second
            and "exit status 0" in second, "a second kiosk with --display auto falls back to the virtual panel and says why")
    nobody = text("devices-nobody.txt")
    c.check("/dev/dri/card0: permission denied" in nobody and "'video' group" in nobody and "'input' group" in nobody,
            "a user without the video and input groups is told which groups are missing")
    rgb565 = text("rgb565.log")
    formats = re.search(r"primary plane \d+ \(formats ([^)]*)\)", devices)
    if formats and "RG16" in formats.group(1).split():
        c.check("frame on screen" in rgb565 and "exit status 0" in rgb565, "RGB565 scanout: a frame reached the screen")
    else:
        c.check("cannot scan out rgb565" in rgb565 and "exit status 0" not in rgb565,
                f"RGB565 refused in plain words (plane formats: {formats.group(1) if formats else '?'})")

    # Figures.
    m = re.search(r"frame on screen, ([\d.]+) ms after main(?:, ([\d.]+) ms after process start)?", log)
    if m:
        print(f'{{"board":"{name}","metric":"start_to_first_flip_ms","main":{m.group(1)},"process":{m.group(2) or "null"}}}')
    metrics = text("metrics.txt")
    if metrics:
        def value(prefix, key):
            mm = re.search(rf"^{prefix}: {key}:\s+(\d+)", metrics, re.M)
            return int(mm.group(1)) if mm else None
        vb, va = value("before", "voluntary_ctxt_switches"), value("after", "voluntary_ctxt_switches")
        nb, na = value("before", "nonvoluntary_ctxt_switches"), value("after", "nonvoluntary_ctxt_switches")
        rss = value("after", "VmRSS")
        if None not in (vb, va, nb, na):
            print(f'{{"board":"{name}","metric":"wakeups_per_second_at_rest","voluntary":{(va - vb) / 10},'
                  f'"nonvoluntary":{(na - nb) / 10},"window_s":10}}')
            c.check(va - vb <= 10, f"at rest: {va - vb} voluntary context switches in 10 s")
        if rss is not None:
            print(f'{{"board":"{name}","metric":"rss_kib","value":{rss}}}')
    print(f"{name}: {len(c.passed)} checks passed, {len(c.failed)} failed", flush=True)
    sys.exit(1 if c.failed else 0)


if __name__ == "__main__":
    main()
