#!/usr/bin/env python3
"""Reads `strace -f -e trace=fsync,fdatasync,rename,renameat,renameat2,openat -o FILE` of a
kiosk run and checks that every rename moves a file (or folder) whose data was synced
(fsync/fdatasync of a descriptor opened on that path) before it, and that the folder it
lands in is synced after it. Prints one line per rename and a summary; exit 1 on a miss."""
import re
import sys

opened = {}   # (pid, fd) -> path
synced = set()
renames = []
folder_syncs = []  # (index, path)
events = 0
for line in open(sys.argv[1]):
    m = re.match(r"(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)", line)
    if not m:
        continue
    pid, call, args, ret = m.group(1), m.group(2), m.group(3), int(m.group(4))
    events += 1
    if call == "openat" and ret >= 0:
        p = re.search(r'"([^"]*)"', args)
        if p:
            opened[(pid, ret)] = p.group(1)
    elif call in ("fsync", "fdatasync") and ret == 0:
        path = opened.get((pid, int(args.split(",")[0])))
        if path:
            synced.add(path)
            folder_syncs.append((events, path))
    elif call.startswith("rename") and ret == 0:
        paths = re.findall(r'"([^"]*)"', args)
        renames.append((events, paths[0], paths[1]))

misses = 0
for at, src, dst in renames:
    folder = dst.rsplit("/", 1)[0] or "/"
    after = any(i > at and p == folder for i, p in folder_syncs)
    ok = src in synced and after
    misses += not ok
    print(f"{'ok  ' if ok else 'MISS'} rename {src} -> {dst}: data synced before {'yes' if src in synced else 'NO'}, "
          f"folder {folder} synced after {'yes' if after else 'NO'}")
syncs = sum(1 for _ in folder_syncs)
print(f"{len(renames)} renames, {syncs} syncs, {misses} without a sync before or a folder sync after")
sys.exit(1 if misses else 0)
