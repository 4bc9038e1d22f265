"""Host side of the systemd board's upgrade stage (board/virtual/systemd/upgrade.sh in the
guest, the repository from upgrade-repo.sh): checks the guest's "upgrade-*" and
"downgrade-*" results, and runs the fleet playbook once more with the package coming from
that apt repository, served from this machine over QEMU's user network (the guest reaches
the host's loopback as 10.0.2.2). Standard library only (and ansible-playbook, ssh)."""
import functools
import http.server
import os
import re
import threading
import time

# What the stage adds to the proof's time in the guest (two apt installs, a failed start and
# three READY waits under TCG), on top of host.py's --timeout.
EXTRA_SECONDS = 360
QEMU_HOST = "10.0.2.2"


def _fields(text):
    """"key=value" words of a result line as a dict."""
    return dict(w.split("=", 1) for w in text.split() if "=" in w and not w.startswith("="))


def check_results(get, check, repo):
    """The guest's upgrade and downgrade results; `get(name)` is a result's text, `check(ok,
    what)` records a check."""
    versions = sorted(n.split("_")[1] for n in os.listdir(os.path.join(repo, "pool/main/m/motionkiosk")))
    old, new = (versions[0], versions[1]) if len(versions) == 2 else ("?", "?")
    check(get("upgrade-start").startswith(f"installed {old};") and "active/running" in get("upgrade-start"),
          f"upgrade: version N ({old}) installed and running before: {get('upgrade-start') or 'no result'}")
    check(get("upgrade-edit").startswith("1 edited line(s); restarted on it: active/running"),
          f"upgrade: N runs on the museum's edit (idle_seconds = 75): {get('upgrade-edit') or 'no result'}")
    check(get("upgrade-source").startswith("apt-get update exit 0") and f"Candidate: {new}" in get("upgrade-source"),
          f"upgrade: the signed file: repository read by apt, candidate N+1 = {new}: {get('upgrade-source') or 'no result'}")
    check(re.match(rf"apt-get install exit 0 in \d+ ms: {re.escape(old)} -> {re.escape(new)}; conffile prompt: 0$",
                   get("upgrade-install")) is not None,
          f"upgrade: apt-get install motionkiosk from the repository, no conffile prompt: {get('upgrade-install') or 'no result'}")

    # The kept file: byte for byte the stand's (its hash as written), which differs from the
    # package's (dpkg's md5 of the shipped file), and dpkg left no .dpkg-new/-dist beside it.
    c = get("upgrade-conffile")
    m = re.match(r"with the stale key sha256=(\w+); now (.*)", c)
    f = _fields(m.group(2)) if m else {}
    check(bool(m) and f.get("sha256") == m.group(1) and f.get("md5") != f.get("package-md5") and f.get("package-md5")
          and f.get("left-by-dpkg") == "0",
          f"upgrade: the edited config.toml kept as the stand had it (a modified conffile): {c or 'no result'}")

    # The key N+1 does not know: named with its file and line, by check-config and by the
    # service's own start (the journal), with the new name as a hint.
    line = re.search(r"line (\d+);", get("upgrade-stale-written"))
    where = f"config.toml:{line.group(1)}:" if line else "config.toml:?:"
    cc = get("upgrade-check-config")
    check(bool(line) and where in cc and "exhibits.idle_secs: unknown key" in cc and "exhibits.idle_seconds" in cc
          and cc.endswith("exit 1"),
          f"upgrade: check-config of N+1 names the key N+1 no longer knows: {cc or 'no result'}")
    st = get("upgrade-stale-state")
    journal = st.partition("journal: ")[2]
    check(where in journal and "idle_secs" in journal and "unknown key" in journal,
          f"upgrade: the service's start on N+1 names it in the journal: {journal or st or 'no result'}")
    check(bool(st) and "active/running" not in st.partition(";")[0],
          f"upgrade: while the key is in the file, the kiosk does not run (no stale settings): {st.partition('; journal')[0] or 'no result'}")

    # Back on the new binary: a new process whose program is the file dpkg installed (not the
    # replaced one: "(deleted)" and the old inode), READY (active/running for Type=notify).
    r = get("upgrade-ready")
    f = _fields(r)
    edited = re.search(r"edited sha256=(\w+)\)", r)
    fixed = re.search(r"line removed \(sha256=(\w+)", r)
    before = re.search(r"inode before the upgrade (\d+)", r)
    check(bool(edited and fixed) and edited.group(1) == fixed.group(1),
          f"upgrade: without the stale line the file is the museum's edit again: {r.partition('; back')[0] or 'no result'}")
    check("active/running" in r and f.get("exe") == "/usr/bin/motionkiosk" and f.get("exe-inode") == f.get("file-inode")
          and bool(before) and f.get("file-inode") != before.group(1) and "first frame on screen" in r,
          f"upgrade: N+1's binary runs and is READY with its first frame: {r or 'no result'}")
    check(re.match(rf"apt-get install motionkiosk={re.escape(old)} --allow-downgrades exit 0 in \d+ ms: "
                   rf"{re.escape(new)} -> {re.escape(old)}$", get("downgrade-install")) is not None,
          f"downgrade: {get('downgrade-install') or 'no result'}")
    c = get("downgrade-conffile")
    f = _fields(c)
    m = re.match(r"edited sha256=(\w+);", c)
    check(bool(m) and f.get("sha256") == m.group(1) and f.get("left-by-dpkg") == "0",
          f"downgrade: the edited config.toml kept: {c or 'no result'}")
    r = get("downgrade-ready")
    f = _fields(r)
    before = re.search(r"inode before the downgrade (\d+)", r)
    check("active/running" in r and f.get("exe") == "/usr/bin/motionkiosk" and f.get("exe-inode") == f.get("file-inode")
          and bool(before) and f.get("file-inode") != before.group(1),
          f"downgrade: N's binary runs and is READY again: {r or 'no result'}")
    for key in ("upgrade-install", "downgrade-install"):
        m = re.search(r"exit \d+ in (\d+) ms", get(key))
        if m:
            print(f'{{"board":"systemd","metric":"{key.replace("-", "_")}_ms","value":{m.group(1)}}}')


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002  (the base class's name)
        pass


def serve(repo):
    """The repository over HTTP on a free loopback port, in a thread; returns (server, port)."""
    handler = functools.partial(_QuietHandler, directory=repo)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def fleet_repo_stage(fleet, repo):
    """The playbook with motionkiosk_apt_repo set, after the fleet stage installed N from a
    file: it adds the repository (its key for that source only) and apt upgrades the stand to
    the newest version there (N+1). (One run: the file runs above check that a second run
    changes nothing, and each run costs minutes under TCG.) Returns [(passed, what)]."""
    results = []
    note = lambda ok, what: results.append((ok, what))  # noqa: E731
    t0 = time.time()
    versions = sorted(n.split("_")[1] for n in os.listdir(os.path.join(repo, "pool/main/m/motionkiosk")))
    server, port = serve(repo)
    try:
        url = f"http://{QEMU_HOST}:{port}"
        extra = ("-e", f'{{"motionkiosk_apt_repo": "{url}", "motionkiosk_apt_key": "{os.path.join(repo, "motionkiosk-test.asc")}"}}')
        package = "dpkg-query -W -f='${Status} ${Version}' motionkiosk"
        _, before = fleet.ssh(package)
        _, config_before = fleet.ssh("sha256sum /etc/motionkiosk/config.toml")
        rc, recap, seconds, _ = fleet.playbook("apt-repo-first-run", *extra)
        _, after = fleet.ssh(package)
        note(rc == 0 and recap.get("failed") == 0 and recap.get("changed", 0) > 0 and after == f"install ok installed {versions[-1]}",
             f"fleet: with motionkiosk_apt_repo = {url} (served from this machine) the stand went {before!r} -> {after!r} "
             f"({seconds:.0f} s): exit {rc}, {recap or 'no recap'}")
        _, service = fleet.ssh("systemctl show -p ActiveState -p SubState --value motionkiosk.service | tr '\\n' ' '; "
                               "readlink /proc/$(systemctl show -p MainPID --value motionkiosk.service)/exe")
        _, config_after = fleet.ssh("sha256sum /etc/motionkiosk/config.toml")
        note(service.split() == ["active", "running", "/usr/bin/motionkiosk"] and config_after == config_before,
             f"fleet: after the repository's upgrade the kiosk runs the new file ({service}), the stand's config.toml "
             f"{'unchanged' if config_after == config_before else 'CHANGED'}")
    finally:
        server.shutdown()
    print(f"  info fleet: the repository stage took {time.time() - t0:.0f} s", flush=True)
    return results
