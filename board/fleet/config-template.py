#!/usr/bin/env python3
"""The fleet role's config.toml template, made from the kiosk's own default configuration.

`motionkiosk default-config` documents every key with its default; the template is that
text with the keys the inventory sets replaced by Jinja expressions, the text tables'
loop added to [text], and a header saying where the values come from. Made, never edited
by hand, so a new key or exhibit reaches the fleet with its documentation.

    board/fleet/config-template.py [--kiosk PATH]            writes the template
    board/fleet/config-template.py [--kiosk PATH] --check    exit 1 if it is not up to date

The role's default exhibit order (defaults/main.yml) is checked against the kiosk's too.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROLE = HERE / "roles" / "motionkiosk"
TEMPLATE = ROLE / "templates" / "config.toml.j2"
DEFAULTS = ROLE / "defaults" / "main.yml"

HEADER = [
    "# {{ ansible_managed }}: change the stand's variables in the inventory",
    "# (board/fleet), not this file. Checked on the stand with `motionkiosk check-config`.",
]

# (section, key) → the expression that replaces the default value.
VARIABLES = {
    ("display", "rotation"): "{{ motionkiosk_rotation | string | to_json }}",
    ("exhibits", "order"): "{{ motionkiosk_order | to_json }}",
    ("exhibits", "locked"): "{{ motionkiosk_locked | to_json }}",
    ("exhibits", "idle_seconds"): "{{ motionkiosk_idle_seconds }}",
    ("exhibits", "attract_after_seconds"): "{{ motionkiosk_attract_after_seconds }}",
    ("exhibits", "languages"): "{{ motionkiosk_languages | to_json }}",
    ("exhibits.motion-cube", "shape_cap"): "{{ motionkiosk_shape_cap }}",
    ("schedule", "open"): "{{ motionkiosk_open | to_json }}",
    ("schedule", "closed"): "{{ motionkiosk_closed | to_json }}",
    ("schedule", "wake_on_touch"): "{{ motionkiosk_wake_on_touch | bool | to_json }}",
    ("schedule", "wake_minutes"): "{{ motionkiosk_wake_minutes }}",
    ("schedule", "when_clock_unknown"): "{{ motionkiosk_when_clock_unknown | to_json }}",
    ("metrics", "path"): "{{ motionkiosk_metrics_path | to_json }}",
    ("blackbox", "folder"): "{{ motionkiosk_blackbox_folder | to_json }}",
    ("logging", "level"): "{{ motionkiosk_log_level | to_json }}",
}

# The inventory's wording for each language, after [text]'s own keys.
TEXT_LOOP = [
    "{% for language, strings in motionkiosk_text | dictsort %}",
    "",
    "[text.{{ language }}]",
    "{% for key, wording in strings | dictsort %}",
    "{{ key | to_json }} = {{ wording | to_json(ensure_ascii=False) }}",
    "{% endfor %}",
    "{% endfor %}",
]

SECTION = re.compile(r"^\[([A-Za-z0-9_.-]+)\]\s*$")
ASSIGNMENT = re.compile(r"^([A-Za-z0-9_-]+)\s*=\s*(.*)$")


def template(default: str) -> tuple[str, list[str]]:
    """The template, and the default exhibit order it found."""
    lines = default.splitlines()
    # The default file's own header (comments up to the first blank line) is replaced.
    first_blank = lines.index("")
    out = HEADER[:]
    section = None
    replaced = set()
    order = []
    i = first_blank
    while i < len(lines):
        line = lines[i]
        m = SECTION.match(line)
        if m:
            if section == "text":
                while out and out[-1] == "":
                    out.pop()
                out.extend(TEXT_LOOP)
                out.append("")
            section = m.group(1)
            out.append(line)
            i += 1
            continue
        a = ASSIGNMENT.match(line)
        if a and (section, a.group(1)) in VARIABLES:
            key, value = a.group(1), a.group(2)
            if value.startswith("[") and not value.rstrip().endswith("]"):
                sys.exit(f"config-template: [{section}] {key}: a value over several lines cannot be templated")
            if (section, key) == ("exhibits", "order"):
                order = re.findall(r'"([^"]+)"', value)
            out.append(f"{key} = {VARIABLES[(section, key)]}")
            replaced.add((section, key))
        else:
            out.append(line)
        i += 1
    missing = sorted(set(VARIABLES) - replaced)
    if missing:
        sys.exit("config-template: the default configuration has no "
                 + ", ".join(f"[{s}] {k}" for s, k in missing) + ": update VARIABLES")
    return "\n".join(out) + "\n", order


def role_order() -> list[str]:
    for line in DEFAULTS.read_text().splitlines():
        if line.startswith("motionkiosk_order:"):
            return [x.strip() for x in line.split(":", 1)[1].strip().strip("[]").split(",") if x.strip()]
    sys.exit(f"config-template: no motionkiosk_order in {DEFAULTS}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosk", default=str(HERE.parent.parent / ".build" / "debug" / "motionkiosk"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    default = subprocess.run([args.kiosk, "default-config"], check=True, capture_output=True, text=True).stdout
    text, order = template(default)
    problems = []
    if role_order() != order:
        problems.append(f"{DEFAULTS.relative_to(HERE.parent.parent)}: motionkiosk_order is {role_order()}, the kiosk's default is {order}")
    if args.check:
        if TEMPLATE.read_text() != text:
            problems.append(f"{TEMPLATE.relative_to(HERE.parent.parent)} is not what `motionkiosk default-config` makes: run board/fleet/config-template.py")
    else:
        TEMPLATE.write_text(text)
    for p in problems:
        print("config-template:", p, file=sys.stderr)
    if not problems:
        print(f"config-template: {TEMPLATE.name} {'up to date' if args.check else 'written'} ({len(VARIABLES)} keys from the inventory)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
