#!/usr/bin/env python3
"""SSE fan-out of a public status page (docs/status-public.md, "Live updates"; docs/performance.md).

Starts its own edge on a fresh data directory (probe worker off), creates a page with COMPONENTS components,
opens SUBSCRIBERS connections to GET /api/v1/status/{slug}/events from this one process (non-blocking
sockets on epoll), and reports:
  - the edge's resident memory per open stream (VmRSS after all streams opened and got their first snapshot,
    minus VmRSS before, divided by the count);
  - the time to fan out one update: from just before the dashboard PATCH that changes the page until the
    last (and the median) subscriber has received the new snapshot, ROUNDS times.
The client reads every byte the edge sends, so its own speed is part of the fan-out figure (reported with
the bytes per event). Not run by the tests.

Environment: EDGE_BIN (default build/native/edge/edge), SUBSCRIBERS (10000), COMPONENTS (5), ROUNDS (5).
Run: python3 bench/status_sse_fanout.py
"""
import json
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EDGE_BIN = os.environ.get("EDGE_BIN", os.path.join(ROOT, "build/native/edge/edge"))
ADMIN_BIN = os.path.join(os.path.dirname(EDGE_BIN), "edge-admin")
SUBSCRIBERS = int(os.environ.get("SUBSCRIBERS", "10000"))
COMPONENTS = int(os.environ.get("COMPONENTS", "5"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
MARK = b"event: snapshot\n"


def admin(data_dir, *args):
    out = subprocess.run([ADMIN_BIN, "--data-dir", data_dir, "--json", *args], check=True, capture_output=True)
    return json.loads(out.stdout or b"{}")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Api:
    def __init__(self, base, token):
        self.base, self.token = base, token

    def __call__(self, method, path, body=None):
        req = urllib.request.Request(
            f"{self.base}/api/v1/dashboard/companies/bench{path}",
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req) as r:
            return json.loads(r.read() or b"null")


class Stream:
    __slots__ = ("sock", "events", "tail", "bytes", "at")

    def __init__(self, sock):
        self.sock, self.events, self.tail, self.bytes, self.at = sock, 0, b"", 0, {}


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < SUBSCRIBERS + 100:
        sys.exit(f"open-file limit {hard} is below {SUBSCRIBERS} streams")
    work = tempfile.mkdtemp(prefix="status_sse.")
    data = os.path.join(work, "data")
    admin(data, "company", "create", "--slug", "bench", "--name", "Bench Ltd.")
    token = admin(data, "token", "create", "--company", "bench", "--name", "bench", "--permission", "status.manage")["token"]
    port_file = os.path.join(work, "edge.port")
    edge = subprocess.Popen(
        [EDGE_BIN, "--listen", "127.0.0.1:0", "--port-file", port_file, "--data-dir", data, "--log-level", "warn",
         "--max-connections", str(SUBSCRIBERS + 1000), "--rate-limit", "100000000/1s", "--status-probe-workers", "0"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "edge.err"), "w"))
    try:
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        port = int(open(port_file).read())
        base = f"http://127.0.0.1:{port}"
        api = Api(base, token)
        page = api("POST", "/pages", {"name": "Bench", "slug": "bench"})
        for i in range(COMPONENTS):
            c = api("POST", f"/pages/{page['id']}/components", {"name": f"Component {i}"})
            api("POST", f"/pages/{page['id']}/components/{c['id']}/checks",
                {"name": "health", "url": f"https://bench.test/{i}", "intervalSeconds": 60})
        with urllib.request.urlopen(f"{base}/api/v1/status/bench") as r:
            snapshot_bytes = len(r.read())
        time.sleep(0.5)
        rss_before = rss_kib(edge.pid)

        sel = selectors.DefaultSelector()
        request = (f"GET /api/v1/status/bench/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Accept: text/event-stream\r\n\r\n").encode()
        streams = []
        t_open = time.perf_counter()
        for i in range(SUBSCRIBERS):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(request)
            s.setblocking(False)
            st = Stream(s)
            streams.append(st)
            sel.register(s, selectors.EVENT_READ, st)
            if i % 500 == 499:
                pump(sel, 0)

        def wait_all(n, deadline_s=120):
            end = time.perf_counter() + deadline_s
            while time.perf_counter() < end:
                if all(st.events >= n for st in streams):
                    return True
                pump(sel, 0.05)
            return False

        if not wait_all(1):
            sys.exit(f"only {sum(st.events >= 1 for st in streams)} of {SUBSCRIBERS} streams got their snapshot")
        open_s = time.perf_counter() - t_open
        time.sleep(1.0)
        pump(sel, 0)
        rss_after = rss_kib(edge.pid)

        rounds = []
        for r in range(ROUNDS):
            want = 2 + r
            t0 = time.perf_counter()
            api("PATCH", f"/pages/{page['id']}", {"branding": {"tagline": f"round {r}"}})
            if not wait_all(want):
                sys.exit(f"round {r}: only {sum(st.events >= want for st in streams)} streams got the update")
            done = sorted(st.at[want] - t0 for st in streams)
            rounds.append((done[len(done) // 2], done[-1]))
            time.sleep(0.5)

        per_conn = (rss_after - rss_before) * 1024 / SUBSCRIBERS
        print(f"subscribers {SUBSCRIBERS}, snapshot {snapshot_bytes} B ({COMPONENTS} components), "
              f"opened in {open_s:.2f} s")
        print(f"edge RSS {rss_before / 1024:.1f} MiB before, {rss_after / 1024:.1f} MiB with every stream open: "
              f"{per_conn / 1024:.1f} KiB per stream")
        for i, (p50, last) in enumerate(rounds):
            print(f"update {i + 1}: median subscriber {p50 * 1000:.0f} ms, last {last * 1000:.0f} ms")
        print(f"fan-out of one update to all: median of rounds {statistics.median(r[1] for r in rounds) * 1000:.0f} ms "
              f"({SUBSCRIBERS * snapshot_bytes / 1e6:.0f} MB of events per update)")
        print(json.dumps({"subscribers": SUBSCRIBERS, "snapshotBytes": snapshot_bytes, "rssBeforeKiB": rss_before,
                          "rssAfterKiB": rss_after, "bytesPerStream": per_conn,
                          "rounds": [{"medianMs": a * 1000, "lastMs": b * 1000} for a, b in rounds]}))
        for st in streams:
            st.sock.close()
    finally:
        edge.terminate()
        edge.wait(timeout=30)


def pump(sel, timeout):
    for key, _ in sel.select(timeout):
        st = key.data
        try:
            chunk = st.sock.recv(1 << 16)
        except BlockingIOError:
            continue
        if not chunk:
            sel.unregister(st.sock)
            continue
        now = time.perf_counter()
        st.bytes += len(chunk)
        window = st.tail + chunk
        found = window.count(MARK)
        for _ in range(found):
            st.events += 1
            st.at[st.events] = now
        st.tail = window[-(len(MARK) - 1):]


if __name__ == "__main__":
    main()
