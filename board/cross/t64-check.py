#!/usr/bin/env python3
"""Can one binary linked against Debian 12's libraries run with Debian 13's?

Debian 13 moved 32-bit architectures (armhf) to a 64-bit time_t and off_t and renamed the
libraries whose interface might carry one (libpng16-16 -> libpng16-16t64, libtomlplusplus3
-> libtomlplusplus3t64). The soname stayed, so the loader would take the new library for an
old binary even where a function's arguments changed size. This checks, for the binary given:

1. every symbol it takes from a library is defined, with the same symbol version, by that
   library in the Debian 13 sysroot (a C++ function whose signature changed from `long` to
   `long long` has another mangled name, so it would be missing);
2. for the libraries Debian 13 renamed, no function it calls has time_t, off_t or a type
   built on them (timespec, timeval, struct stat, fpos_t, ino_t, blkcnt_t...) in its
   declaration, read from the library's headers preprocessed as Debian 13 compiles them
   (-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64);
3. the renamed libraries' headers, for each such type they name at all (printed, so a reader
   sees what was looked at).

   board/cross/t64-check.py BINARY BOOKWORM_SYSROOT TRIXIE_SYSROOT CLANG_TARGET
Exit 0: the binary serves both releases; 1: it does not (what breaks is printed).
"""
import glob
import os
import re
import subprocess
import sys

binary, old_root, new_root, target = sys.argv[1:5]
TIME_TYPES = re.compile(r"\b(time_t|__time_t|__time64_t|off_t|__off_t|__off64_t|off64_t|loff_t|ino_t|__ino_t|"
                        r"blkcnt_t|__blkcnt_t|fpos_t|__fpos_t|timespec|timeval|itimerspec|stat|stat64|statfs|dirent|"
                        r"utimbuf|timex|rlim_t|__rlim_t|fsblkcnt_t|fsfilcnt_t|clock_t)\b")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\).*\[(.*)\]", run("readelf", "-dW", path))


def find_lib(root, soname):
    for d in ("usr/lib", "lib"):
        for p in glob.glob(os.path.join(root, d, "*-linux-gnu*", soname)):
            return p
    return None


def defined(path):
    """name@version (or name) for every symbol the library defines."""
    out = set()
    for line in run("readelf", "-W", "--dyn-syms", path).splitlines():
        f = line.split()
        if len(f) >= 8 and f[6] != "UND" and f[0].rstrip(":").isdigit():
            name = f[7]
            out.add(name.replace("@@", "@"))
            out.add(name.split("@")[0])
    return out


def undefined(path):
    out = []
    for line in run("readelf", "-W", "--dyn-syms", path).splitlines():
        f = line.split()
        if len(f) >= 8 and f[6] == "UND" and f[0].rstrip(":").isdigit():
            out.append(re.sub(r" \(\d+\)$", "", f[7]))
    return out


def owners(debs):
    """soname file -> the package (by name) in a sysroot's download folder that ships it
    (a file, or a runtime package's symlink; a -dev package's libfoo.so -> libfoo.so.N does
    not count, so link targets are cut off)."""
    found = {}
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        package = run("dpkg-deb", "-f", deb, "Package").strip()
        for line in run("dpkg-deb", "-c", deb).splitlines():
            path = line.split(" -> ")[0].split()[-1]
            found.setdefault(os.path.basename(path), package)
    return found


failures = []
symbols = undefined(binary)
old_debs = os.path.join(os.path.dirname(old_root.rstrip("/")), "debs")
new_debs = os.path.join(os.path.dirname(new_root.rstrip("/")), "debs")
renamed = {}
old_owners, new_owners = owners(old_debs), owners(new_debs)
for soname in needed(binary):
    old_lib, new_lib = find_lib(old_root, soname), find_lib(new_root, soname)
    if not new_lib:
        failures.append(f"{soname}: not in the Debian 13 sysroot")
        continue
    old_defs, new_defs = defined(old_lib), defined(new_lib)
    ours = [s for s in symbols if s in old_defs]
    missing = [s for s in ours if s not in new_defs]
    old_pkg, new_pkg = old_owners.get(soname), new_owners.get(soname)
    note = f" (package {old_pkg} -> {new_pkg})" if old_pkg != new_pkg else ""
    print(f"t64-check: {soname}{note}: {len(ours)} symbols used, {len(ours) - len(missing)} defined alike in Debian 13")
    for s in missing:
        failures.append(f"{soname}: {s} is not defined by Debian 13's {os.path.basename(new_lib)}")
    if old_pkg != new_pkg:
        renamed[soname] = (new_pkg, ours)

# The declarations of what we call in the renamed libraries, as Debian 13 compiles them.
HEADERS = {"libpng16.so.16": ["png.h"], "libtomlplusplus.so.3": ["toml++/toml.hpp"]}
for soname, (pkg, ours) in renamed.items():
    headers = HEADERS.get(soname)
    if not headers:
        failures.append(f"{soname} ({pkg}): renamed by Debian 13 and no header is known here to check its functions")
        continue
    cplusplus = any(h.endswith(".hpp") for h in headers)
    source = "".join(f"#include <{h}>\n" for h in headers)
    cmd = ["clang++" if cplusplus else "clang", f"--target={target}", f"--sysroot={new_root}", "-E", "-P",
           "-D_TIME_BITS=64", "-D_FILE_OFFSET_BITS=64", "-x", "c++" if cplusplus else "c", "-",
           "-isystem", os.path.join(new_root, "usr/include/libpng16")]
    if cplusplus:
        cmd += ["-std=c++17", "-DTOML_HEADER_ONLY=0", "-DTOML_SHARED_LIB=1"]
    text = subprocess.run(cmd, input=source, check=True, capture_output=True, text=True).stdout
    # Statements end at ';' or '{': a declaration is the statement naming the function.
    statements = re.split(r"[;{}]", text)
    hits = 0
    for symbol in sorted(set(s.split("@")[0] for s in ours)):
        if symbol.startswith("_Z"):
            signature = run("c++filt", symbol).strip()
            where = signature
        else:
            # (libpng's PNG_EXPORT writes the name in parentheses: "void (png_image_free) (...)")
            decls = [s for s in statements if re.search(r"\b%s\s*\)?\s*\(" % re.escape(symbol), s)]
            if not decls:
                failures.append(f"{soname}: no declaration of {symbol} found in {', '.join(headers)}")
                continue
            where = " ".join(decls[0].split())
        found = TIME_TYPES.findall(where)
        if found:
            hits += 1
            failures.append(f"{soname}: {symbol} has {', '.join(sorted(set(found)))} in its signature: {where[:200]}")
    # Which such types the library's own headers name at all (outside the C library's).
    own = set()
    for h in headers:
        hdir = os.path.join(new_root, "usr/include", os.path.dirname(h) or "libpng16")
        for path in glob.glob(os.path.join(hdir, "**", "*.h*"), recursive=True):
            own.update(TIME_TYPES.findall(open(path, errors="replace").read()))
    used = sorted(set(s.split("@")[0] for s in ours))
    print(f"t64-check: {soname} ({pkg}) functions used: " + "; ".join(run("c++filt", s).strip() for s in used))
    print(f"t64-check: {soname} ({pkg}): {len(used)} functions and objects used, "
          f"{hits} with a time_t/off_t type in their signature; its headers name {', '.join(sorted(own)) or 'none of them'}")

for f in failures:
    print(f"t64-check: FAIL {f}")
if failures:
    print("t64-check: one binary cannot serve Debian 12 and 13: build one per release")
    sys.exit(1)
print("t64-check: the binary linked against Debian 12 calls nothing whose signature Debian 13 changed")
