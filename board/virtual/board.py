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


def board_name(args):
    """The panel size, and the CPU when it is not the x86_64 board: "800x480", "arm64 800x480"."""
    size = f"{args.panel[0]}x{args.panel[1]}"
    return size if args.arch == "x86_64" else f"{args.arch} {size}"


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
    # The touchscreen's fingers (the emulated mouse's finger is checked on its own).
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


# --- The kiosk itself (mk.kiosk=1) ---------------------------------------------------------

# GridBlock.info.tileColor, the block's green and red (Sources/Exhibits/GridBlock.swift).
GRID_BLOCK_TILE = bytes((52, 120, 80))
BLOCK_GREEN = bytes((0x34, 0xC7, 0x59))
BLOCK_RED = bytes((0xFF, 0x3B, 0x30))
GRID_COLUMNS, GRID_ROWS = 9, 19


def colour_box(w, h, pixels, rgb):
    """Bounding box (x0, y0, x1, y1, count) of the pixels exactly of colour `rgb`, or None."""
    x0 = y0 = None
    x1 = y1 = -1
    count = 0
    for y in range(h):
        row = pixels[y * w * 3:(y + 1) * w * 3]
        i = row.find(rgb)
        while i >= 0:
            if i % 3 == 0:
                x = i // 3
                count += 1
                x0 = x if x0 is None else min(x0, x)
                x1 = max(x1, x)
                y0 = y if y0 is None else y0
                y1 = y
            i = row.find(rgb, i + 1)
    return None if x0 is None else (x0, y0, x1, y1, count)


def portrait(path, rotation):
    """A panel screendump turned back into the portrait picture."""
    w, h, pixels = read_ppm(path)
    return turn_onto_panel(w, h, pixels, (360 - rotation) % 360)


def find_tap_points(out, name, panel, rotation):
    """Answer to the guest's FIND: where to tap (touchscreen = panel coordinates) to open
    exhibit `name` on the launcher, a point inside the exhibit away from the home control, and
    the panel size: "AT tileX tileY insideX insideY W H", or "NONE why"."""
    if name != "grid-block":
        return f"NONE no colour known for {name}"
    try:
        w, h, pixels = portrait(f"{out}/screen-run-first.ppm", rotation)
    except (OSError, ValueError) as e:
        return f"NONE {e}"
    box = colour_box(w, h, pixels, GRID_BLOCK_TILE)
    if box is None:
        return "NONE no grid-block tile on the launcher"
    plan = Plan(panel[0], panel[1], rotation)
    tile = plan.device((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    inside = plan.device(w // 2, h * 4 // 5)
    return f"AT {tile[0]} {tile[1]} {inside[0]} {inside[1]} {panel[0]} {panel[1]}"


def block_cell(path, rotation):
    """(column, row, colour name) of the grid-block's block in a screendump, or None."""
    w, h, pixels = portrait(path, rotation)
    # The grid fills the safe area below the home control (ExhibitEnvironment.safeArea):
    # the control is max(64, 72·s) px square at an 8·s px margin, s = width / 480.
    s = w / 480
    side, margin = max(64, round(72 * s)), round(8 * s)
    top = min(side + 2 * margin, h / 2)
    cell_w, cell_h = w / GRID_COLUMNS, (h - top) / GRID_ROWS
    for rgb, colour in ((BLOCK_GREEN, "green"), (BLOCK_RED, "red")):
        box = colour_box(w, h, pixels, rgb)
        # A whole cell, not a stray anti-aliased pixel.
        if box and box[4] > cell_w * cell_h * 0.5:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            return int(cx // cell_w), int((cy - top) // cell_h), colour
    return None


def thread_switches(metrics, phase):
    """{tid: (voluntary, nonvoluntary)} and VmRSS kB for one phase of thread_status."""
    tasks = {}
    for m in re.finditer(rf"^{phase}: task (\d+) voluntary_ctxt_switches: (\d+) nonvoluntary_ctxt_switches: (\d+)", metrics, re.M):
        tasks[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    rss = re.search(rf"^{phase}: VmRSS:\s+(\d+)", metrics, re.M)
    return tasks, int(rss.group(1)) if rss else None


def check_kiosk(c, args, out, share, text):
    log = text("run.log")
    with open(f"{out}/run.log", "w") as f:
        f.write(log)
    first = re.search(r"first frame on screen ([\d.]+) ms after start(?:, ([\d.]+) ms after process start)?", log)
    if not c.check(first is not None, "kiosk: the launcher's first frame reached the screen"):
        print("--- run.log ---\n" + log[-3000:] + "\n---")
        return
    # The first frame on the scanout is the app's own frame, turned for the panel.
    try:
        fw, fh, frame = read_ppm(f"{share}/run-frame.ppm")
        sw, sh, screen = read_ppm(f"{out}/screen-run-first.ppm")
        tw, th, turned = turn_onto_panel(fw, fh, frame, args.rotation)
        same = (tw, th) == (sw, sh) and turned == screen
        detail = ""
        if not same and (tw, th) == (sw, sh):
            detail = f", {sum(1 for i in range(0, len(screen), 3) if screen[i:i + 3] != turned[i:i + 3])} pixels differ"
        c.check(same, f"kiosk: screendump {sw}x{sh} equals the launcher frame the app wrote, pixel for pixel{detail}")
    except (OSError, ValueError) as e:
        c.check(False, f"kiosk: first-frame comparison: {e}")
    steps = text("steps.txt")
    tile = re.search(r"kiosk: grid-block tile: (.*)", steps)
    c.check(tile is not None and tile.group(1).startswith("AT "),
            f"kiosk: the grid-block tile found on the launcher ({tile.group(1) if tile else 'not asked'})")
    c.check("exhibit grid-block open" in log, "kiosk: a tap on the tile through uinput opened grid-block (\"exhibit grid-block open\")")
    cells = {}
    for shot in ("block-still", "block-a", "block-b"):
        try:
            cells[shot] = block_cell(f"{out}/screen-{shot}.ppm", args.rotation)
        except (OSError, ValueError) as e:
            cells[shot] = None
            print(f"  {shot}: {e}")
    still, a, b = cells["block-still"], cells["block-a"], cells["block-b"]
    c.check(still == (4, 9, "green"), f"kiosk: before the tap the block stands green in the centre cell (4, 9): {still}")
    moved = a is not None and b is not None and a[0] == b[0] == 4 and 9 <= a[1] <= b[1] and b[1] > 9 \
        and (b[2] == "green" or b[1] == GRID_ROWS - 1)
    c.check(moved, f"kiosk: after a tap the block jumps down column 4: 0.5 s {a}, 1.4 s {b}")
    c.check("touch exit status 0" in text("kiosk-touch.log"), "kiosk: the touch script ran to its end")
    c.check("exit status 0" in log and "stopped after" in log, "kiosk: SIGTERM: clean exit (" + (
        re.search(r"stopped after .*", log).group(0) if "stopped after" in log else "no 'stopped after' line") + ")")
    print(f'{{"board":"{board_name(args)}","metric":"kiosk_start_to_first_frame_ms",'
          f'"main":{first.group(1)},"process":{first.group(2) or "null"}}}')
    # Touch to photon: from each touch frame's kernel time to the flip that showed the frame
    # drawn after it (the kiosk's own count, on its stop line).
    latency = re.search(r"touch to photon p50 ([\d.]+) ms, p99 ([\d.]+) ms over (\d+) touch frames", log)
    if c.check(latency is not None and int(latency.group(3)) >= 150,
               f"kiosk: touch to photon measured over the presses: {latency.group(0) if latency else 'no figure on the stop line'}"):
        p50, p99, n = float(latency.group(1)), float(latency.group(2)), int(latency.group(3))
        period = 1000 / 60
        print(f'{{"board":"{board_name(args)}","metric":"touch_to_photon_ms","p50":{p50},"p99":{p99},"touch_frames":{n},'
              f'"goal_p50":{round(period + 2, 1)},"goal_p99":{round(2 * period, 1)},'
              f'"within_goal":{"true" if p50 <= period + 2 and p99 <= 2 * period else "false"}}}')
    metrics = text("run-metrics.txt")
    before, rss_before = thread_switches(metrics, "before")
    after, rss_after = thread_switches(metrics, "after")
    if before and after:
        main_tid = min(after, key=int)
        vol = {t: after[t][0] - before.get(t, (0, 0))[0] for t in after}
        nonvol = {t: after[t][1] - before.get(t, (0, 0))[1] for t in after}
        print(f'{{"board":"{board_name(args)}","metric":"kiosk_launcher_wakeups_per_second_at_rest",'
              f'"main_thread_voluntary":{vol[main_tid] / 10},"all_threads_voluntary":{sum(vol.values()) / 10},'
              f'"all_threads_nonvoluntary":{sum(nonvol.values()) / 10},"threads":{len(after)},"window_s":10}}')
        c.check(vol[main_tid] <= 10, f"kiosk: launcher at rest: {vol[main_tid]} voluntary context switches of the main "
                f"thread in 10 s ({sum(vol.values())} over its {len(after)} threads)")
    else:
        c.check(False, "kiosk: rest figures read")
    if rss_after is not None:
        print(f'{{"board":"{board_name(args)}","metric":"kiosk_launcher_rss_kib_at_rest","value":{rss_after}}}')


# --- A screen above [display] max_pixels (mk.capped=1) ------------------------------------

# KioskConfiguration's default [display] max_pixels: 1920x1200's area.
DEFAULT_MAX_PIXELS = 1920 * 1200
MODE = re.compile(r"^(\d+)x(\d+)@([\d.]+)$")


def connector_modes(devices, connector="Virtual-1"):
    """[(w, h, hz, preferred)] the devices listing gives for `connector`."""
    block = re.search(rf"connector {connector}: connected[^\n]*\n\s*modes: (.*)$", devices, re.M)
    modes = []
    for item in (block.group(1).split(", ") if block else []):
        m = MODE.match(item.replace(" (preferred)", ""))
        if m:
            modes.append((int(m.group(1)), int(m.group(2)), float(m.group(3)), item.endswith("(preferred)")))
    return modes


def capped_size(modes, cap):
    """The size the kiosk must take, written apart from OutputChoice.chooseMode: the preferred
    mode when within the cap, else the largest mode within it, of the preferred mode's aspect
    (within 1 %) where the connector offers one."""
    preferred = next((m for m in modes if m[3]), modes[0])
    if preferred[0] * preferred[1] <= cap:
        return preferred[:2], False
    within = [m for m in modes if m[0] * m[1] <= cap]
    aspect = [m for m in within if abs(m[0] * preferred[1] - m[1] * preferred[0]) * 100 <= m[1] * preferred[0]]
    pool = aspect or within
    best = max(pool, key=lambda m: m[0] * m[1])
    return best[:2], bool(aspect)


def check_capped_mode(c, args, out, share, text):
    """The pattern on a screen whose preferred mode is above the default max_pixels: the
    kiosk takes a smaller mode (the same aspect where offered), the scanout has that size and
    shows the app's frame, turned to portrait."""
    log, devices = text("app.log"), text("devices.txt")
    with open(f"{out}/app.log", "w") as f:
        f.write(log)
    modes = connector_modes(devices)
    preferred = next((m for m in modes if m[3]), None)
    c.check(preferred is not None and preferred[:2] == args.panel,
            f"capped: Virtual-1 offers {len(modes)} modes, preferred {preferred[0]}x{preferred[1]}" if preferred
            else "capped: Virtual-1's modes listed by motionkiosk devices")
    chosen = re.search(r"pattern: DRM \S+ \S+ ((\d+)x(\d+)@[\d.]+) rotation (\d+)", log)
    if not c.check(chosen is not None, "capped: the pattern names the mode it took"):
        print("--- app.log ---\n" + log[-3000:] + "\n---")
        return
    size = (int(chosen.group(2)), int(chosen.group(3)))
    c.check(size != args.panel and size[0] * size[1] <= DEFAULT_MAX_PIXELS,
            f"capped: took {chosen.group(1)}, not the preferred {args.panel[0]}x{args.panel[1]} "
            f"({size[0] * size[1]} pixels, cap {DEFAULT_MAX_PIXELS})")
    if modes:
        want, same_aspect = capped_size(modes, DEFAULT_MAX_PIXELS)
        c.check(size == want, f"capped: {size[0]}x{size[1]} is the largest mode within the cap"
                + (" of the preferred mode's aspect" if same_aspect else " (none has the preferred mode's aspect)")
                + f": expected {want[0]}x{want[1]}")
    c.check(f"would use: Virtual-1 {chosen.group(1)}" in devices, f"capped: motionkiosk devices would use {chosen.group(1)} too")
    c.check(int(chosen.group(4)) == args.rotation, f"capped: rotation {chosen.group(4)}, expected {args.rotation}")
    try:
        fw, fh, frame = read_ppm(f"{share}/frame.ppm")
        sw, sh, screen = read_ppm(f"{out}/screen-pattern.ppm")
        tw, th, turned = turn_onto_panel(fw, fh, frame, args.rotation)
        c.check((sw, sh) == size, f"capped: the scanout is {sw}x{sh}, the mode taken")
        c.check((tw, th) == (sw, sh) and turned == screen,
                f"capped: screendump equals the app's {fw}x{fh} frame turned by {args.rotation}°, pixel for pixel")
    except (OSError, ValueError) as e:
        c.check(False, f"capped: frame comparison: {e}")
    c.check("exit status 0" in log, "capped: the pattern left cleanly on SIGTERM")
    print(f'{{"board":"{board_name(args)}","metric":"mode_chosen","mode":"{chosen.group(1)}"}}')


# --- The accelerometer (mk.sensors=1) -------------------------------------------------------

# What the stub holds: x=-500, y=+800, z=+300 counts of 1 mg (LIS3DH, ±2 g, high resolution).
RAW_COUNTS = (-500, 800, 300)
KERNEL_SCALE = 0.009806      # st_accel's in_accel_scale for ±2 g: IIO_G_TO_M_S_2(1000) in micro units
OUR_SCALE = 9.80665 / 1000   # Sensors' LIS3DH driver: 1 mg per count


def expected_screen(rotation, scale):
    """design.md: screen = D(rotation)·board·iio·raw with board and iio matrices the identity.
    The portrait picture is turned clockwise by R onto the panel and the sensor is fixed to
    the panel, so the screen's axes are the panel's turned back: for R=90 the screen's right
    (x) is the panel's down (−y) and the screen's top (y) is the panel's right (x)."""
    x, y, z = (v * scale for v in RAW_COUNTS)
    return {0: (x, y, z), 90: (-y, x, z), 180: (-x, -y, z), 270: (y, -x, z)}[rotation]


def world_of(a):
    """The dynamics world's gravity (UIKit units, y down) from the screen-frame vector."""
    return (-a[0] / 9.80665, a[1] / 9.80665)


NUM = r"(-?[\d.]+)"
LINE = re.compile(rf"^t={NUM} s accel=\({NUM}, {NUM}, {NUM}\) gravity=\S+ \S+ \S+ world=\({NUM}, {NUM}\)(.*)$", re.M)


def readings(out_text):
    """[(t, (ax, ay, az), (wx, wy), rest of line)] from `motionkiosk sensors`."""
    return [(float(m.group(1)), tuple(float(m.group(i)) for i in (2, 3, 4)), (float(m.group(5)), float(m.group(6))), m.group(7))
            for m in LINE.finditer(out_text)]


def close(a, b, tol):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def check_sensors(c, text):
    steps = text("steps.txt")
    c.check("sensors: kernel driver bound" in steps, "sensors: lis3dh bound by st_accel_i2c on i2c-stub"
            + ("" if "kernel driver bound" in steps else f" (dmesg: {text('sensors-dmesg.txt')[-600:]})"))
    sysfs = text("iio-sysfs.txt")
    raw = [re.search(rf"in_accel_{a}_raw: (-?\d+)", sysfs) for a in "xyz"]
    raw = tuple(int(m.group(1)) for m in raw if m)
    scale = re.search(r"in_accel_x_scale: ([\d.]+)", sysfs)
    c.check(raw == RAW_COUNTS and scale is not None and float(scale.group(1)) == KERNEL_SCALE,
            f"sensors: the kernel driver reads raw {raw} from the stub, preloaded {RAW_COUNTS}, scale "
            f"{scale.group(1) if scale else '?'} (expected {KERNEL_SCALE})")
    kernel = {}
    for r in (0, 90):
        out = text(f"sensors-iio-r{r}.txt")
        lines = readings(out)
        want = expected_screen(r, KERNEL_SCALE)
        last = lines[-1] if lines else None
        source = re.search(r"^accelerometer: (.*)$", out, re.M)
        c.check(source is not None and "lis3dh" in source.group(1) and "IIO" in source.group(1),
                f"sensors --rotation {r}: reads the kernel's IIO lis3dh ({source.group(1) if source else 'no source line'})")
        ok = last is not None and close(last[1], want, 0.002) and close(last[2], world_of(want), 0.002)
        c.check(ok, f"sensors --rotation {r}: accel {last[1] if last else None} ≈ ({want[0]:.3f}, {want[1]:.3f}, {want[2]:.3f}) m/s², "
                f"world {last[2] if last else None} ≈ ({world_of(want)[0]:.3f}, {world_of(want)[1]:.3f})")
        c.check("exit status 0" in out and "dropped samples: none" in out,
                f"sensors --rotation {r}: exit 0, no samples dropped ({'; '.join(l for l in out.splitlines() if l.startswith(('dropped', 'exit')))})")
        if last:
            kernel[r] = last[1]
    devices = text("devices-iio.txt")
    c.check(re.search(r"accelerometer iio:device\d+ lis3dh \[IIO, [^\]]*\] — in use", devices) is not None,
            "devices: lists the kernel's lis3dh as the accelerometer in use ("
            + "; ".join(l.strip() for l in devices.splitlines() if "accelerometer" in l) + ")")

    hot = text("sensors-hotplug.txt")
    hot_log = text("sensors-hotplug-log.txt")
    gone = hot_log.count("went away")
    back = hot_log.count("accelerometer back")
    lines = readings(hot)
    fixed = [l for l in lines if "[no sensor: fixed down]" in l[3]]
    after = [l for l in lines if fixed and l[0] > fixed[-1][0]]
    c.check(gone == 1, f"hot-plug: 'went away … fixed down gravity' logged {gone} time(s)"
            + (f": {re.search(r'.*went away.*', hot_log).group(0).strip()}" if gone else ""))
    c.check(bool(fixed) and all(close(l[2], (0.0, 1.0), 0.002) for l in fixed),
            f"hot-plug: {len(fixed)} reading lines on fixed down gravity, world (0, 1)")
    c.check(back == 1 and bool(after) and close(after[-1][1], expected_screen(0, KERNEL_SCALE), 0.002),
            f"hot-plug: back after re-plug ({re.search(r'.*accelerometer back.*', hot_log).group(0).strip() if back else 'not back'}), "
            f"last accel {after[-1][1] if after else None}")

    # The kiosk on the launcher with the kernel's accelerometer: the figure a stand with a sensor sees.
    run = text("run-accel.log")
    tilt = re.search(r"tilt from (.*)", run)
    c.check(tilt is not None and "lis3dh" in tilt.group(1) and "exit status 0" in run,
            f"kiosk with the accelerometer: tilt from {tilt.group(1) if tilt else '?'}, clean exit")
    metrics = text("run-accel-metrics.txt")
    before, _ = thread_switches(metrics, "before")
    after, rss = thread_switches(metrics, "after")
    if before and after:
        main_tid = min(after, key=int)
        vol = {t: after[t][0] - before.get(t, (0, 0))[0] for t in after}
        print(f'{{"board":"kiosk+lis3dh","metric":"kiosk_launcher_wakeups_per_second_at_rest_with_iio_accelerometer",'
              f'"main_thread_voluntary":{vol[main_tid] / 10},"all_threads_voluntary":{sum(vol.values()) / 10},'
              f'"threads":{len(after)},"rss_kib":{rss},"window_s":10}}')

    for fname, what in (("sensors-i2c.txt", "i2c:BUS:0x18:lis3dh"), ("sensors-auto.txt", "auto")):
        out = text(fname)
        lines = readings(out)
        last = lines[-1] if lines else None
        source = re.search(r"^accelerometer: (.*)$", out, re.M)
        c.check(source is not None and "LIS3DH" in source.group(1) and "0x18" in source.group(1),
                f"userspace ({what}): our LIS3DH driver on the stub ({source.group(1) if source else 'no source line'})")
        want = expected_screen(0, OUR_SCALE)
        k = kernel.get(0)
        # 0.01 % is the scale difference (0.009806 vs 0.00980665); 0.0005 the printed rounding.
        agree = last is not None and k is not None and all(abs(p - q) <= 1e-4 * abs(q) + 0.0005 for p, q in zip(last[1], k))
        c.check(agree and close(last[1], want, 0.002),
                f"userspace ({what}): accel {last[1] if last else None} agrees with the kernel driver's {k} "
                f"(expected ({want[0]:.4f}, {want[1]:.4f}, {want[2]:.4f}))")
        c.check("exit status 0" in out and "dropped samples: none" in out, f"userspace ({what}): exit 0, no samples dropped")
    devices = text("devices-i2c.txt")
    c.check(re.search(r"accelerometer .*LIS3DH.*0x18.*\[userspace I2C\]", devices) is not None,
            "devices: lists the LIS3DH on the stub for our userspace driver ("
            + "; ".join(l.strip() for l in devices.splitlines() if "accelerometer" in l) + ")")


class Guest:
    """A QEMU (TCG) guest with virtio-gpu at `panel`, its console in console.log, a control
    channel on the second serial port (ctl.sock) and the monitor (mon.sock), all in `out`."""

    def __init__(self, out, share, kernel, initrd, append, panel, timeout, extra=(), arch="x86_64"):
        for name in ("ctl.sock", "mon.sock"):
            if os.path.exists(os.path.join(out, name)):
                os.unlink(os.path.join(out, name))
        w, h = panel
        ctl = f"socket,id=ctl,path={out}/ctl.sock,server=on,wait=off"
        if arch == "arm64":
            # QEMU's virt board: one UART (the console), so the control channel is a virtio
            # console (/dev/hvc0); no PS/2, so a virtio keyboard and mouse.
            machine = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", "tcg,thread=multi",
                       "-device", "virtio-keyboard-pci", "-device", "virtio-mouse-pci",
                       "-device", "virtio-serial-pci", "-chardev", ctl, "-device", "virtconsole,chardev=ctl",
                       "-serial", f"file:{out}/console.log"]
        else:
            machine = ["qemu-system-x86_64", "-accel", "tcg", "-vga", "none",
                       "-serial", f"file:{out}/console.log", "-chardev", ctl, "-serial", "chardev:ctl"]
        cmd = [*machine, "-smp", "2", "-m", "1024",
               "-kernel", kernel, "-initrd", initrd, "-append", append, *extra,
               "-display", "none",
               "-device", f"virtio-gpu-pci,xres={w},yres={h}",
               "-monitor", f"unix:{out}/mon.sock,server=on,wait=off",
               "-virtfs", f"local,path={share},mount_tag=host,security_model=none,id=host"]
        self.out = out
        self.qemu = subprocess.Popen(cmd, stdout=open(f"{out}/qemu.log", "w"), stderr=subprocess.STDOUT)
        self.deadline = time.time() + timeout
        self.ctl, self.mon = self._connect("ctl.sock"), self._connect("mon.sock")
        self.mon_buf = b""
        # The banner and first prompt.
        self.mon.settimeout(30)
        while b"(qemu) " not in self.mon_buf:
            self.mon_buf += self.mon.recv(4096)

    def _connect(self, name):
        while time.time() < self.deadline:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(f"{self.out}/{name}")
                return s
            except OSError:
                if self.qemu.poll() is not None:
                    raise RuntimeError(f"qemu exited: see {self.out}/qemu.log")
                time.sleep(0.1)
        raise RuntimeError(f"no {name}")

    def monitor(self, command):
        """Runs a monitor command and waits for its reply (it ends with the next prompt)."""
        self.mon.sendall(command.encode() + b"\n")
        self.mon.settimeout(30)
        while True:
            self.mon_buf += self.mon.recv(4096)
            if self.mon_buf.count(b"(qemu) ") >= 2:
                self.mon_buf = self.mon_buf[self.mon_buf.rindex(b"(qemu) "):]
                return


def run_guest(args, out, share):
    console = "ttyAMA0" if args.arch == "arm64" else "ttyS0"
    append = (f"console={console} quiet panic=-1 mk.measure={1 if args.measure else 0} mk.legacy={1 if args.legacy else 0}"
              f" mk.kiosk={1 if args.kiosk else 0} mk.sensors={1 if args.sensors else 0} mk.capped={1 if args.capped_mode else 0}")
    guest = Guest(out, share, args.kernel, args.initrd, append, args.panel, args.timeout, extra=["-no-reboot"],
                  arch=args.arch)
    qemu, ctl, deadline, monitor = guest.qemu, guest.ctl, guest.deadline, guest.monitor
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
            elif line.startswith("FIND "):
                ctl.sendall((find_tap_points(out, line[5:], args.panel, args.rotation) + "\n").encode())
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
    p.add_argument("--kiosk", action="store_true", help="also run the kiosk: launcher, grid-block, rest figures")
    p.add_argument("--sensors", action="store_true", help="also read a LIS3DH on i2c-stub: kernel IIO, hot-plug, userspace")
    p.add_argument("--capped-mode", action="store_true",
                   help="only the mode taken on a screen whose preferred mode (--panel) is above the default max_pixels")
    p.add_argument("--arch", choices=["x86_64", "arm64"], default="x86_64", help="the guest's CPU")
    p.add_argument("--timeout", type=float, default=None, help="seconds (default 360; arm64 900)")
    args = p.parse_args()
    if args.timeout is None:
        args.timeout = 900 if args.arch == "arm64" else 360

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

    name = board_name(args)
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

    if args.capped_mode:
        check_capped_mode(c, args, out, share, text)
        print(f"{name}: {len(c.passed)} checks passed, {len(c.failed)} failed", flush=True)
        sys.exit(1 if c.failed else 0)

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
    c.check("key tiltLeft" in log and "key tiltUp" in log, "arrow keys from the emulated keyboard reached the app as tilt keys")
    mouse = [e for f in touch_lines(log) for e in f if e[1] == 1000000]
    c.check([e[0] for e in mouse][:1] == ["down"] and "up" in [e[0] for e in mouse] and "motion" in [e[0] for e in mouse],
            f"the emulated mouse acted as one finger ({' '.join(e[0] for e in mouse) or 'nothing'})")
    devices = text("devices.txt")
    c.check(f"would use: Virtual-1 {w}x{h}" in devices and "Virtual-1: connected" in devices,
            "motionkiosk devices lists the connected Virtual-1 and would use it")
    c.check("keyboard" in devices, "motionkiosk devices lists the keyboard")
    second = text("second-drm.log")
    c.check("/dev/dri/card0 is in use by another motionkiosk" in second and "exit status 0" not in second,
            "a second kiosk with --display drm is told the card is in use by another motionkiosk")
    second = text("second-auto.log")
    c.check("showing the pattern on the virtual panel" in second and "in use by another motionkiosk" in second
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

    if args.kiosk:
        check_kiosk(c, args, out, share, text)
    if args.sensors:
        check_sensors(c, text)

    # Figures.
    chosen = re.search(r"pattern: DRM \S+ \S+ (\d+x\d+@[\d.]+) rotation", log)
    if chosen:
        print(f'{{"board":"{name}","metric":"mode_chosen","mode":"{chosen.group(1)}"}}')
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
