#!/usr/bin/env python3
"""Idle-connection probe for bench/http_load.sh.

Opens IDLE keep-alive connections to a server, sends one request on each and reads its answer (so every
one is an idle keep-alive connection between requests, as a browser or a status embed leaves it), holds
them, then measures PROBES requests on fresh connections while they are held. Prints one line:

  IDLE_RESULT idle=<n> held=<n> answered=<n> probes=<n> probe_failures=<n> p50_ms=<x> max_ms=<x>

held: connections still open when the probes end (a server that drops idle sockets early holds fewer);
answered: idle connections whose first request was answered within the deadline.
Usage: idle_probe.py URL IDLE PROBES [TOKEN]
"""

import resource
import selectors
import socket
import statistics
import sys
import time
from urllib.parse import urlsplit


def request_bytes(host, path, token):
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def complete(buf):
    """True once buf holds one whole response framed by Content-Length."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return False
    length = 0
    for line in buf[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return len(buf) >= end + 4 + length


def one_request(addr, req, deadline_s):
    started = time.perf_counter()
    with socket.create_connection(addr, timeout=deadline_s) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.sendall(req)
        buf = b""
        while not complete(buf):
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the answer")
            buf += chunk
        if not buf.startswith(b"HTTP/1.1 200"):
            raise ConnectionError(buf[:40].decode(errors="replace"))
    return (time.perf_counter() - started) * 1000


def main():
    url, idle, probes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    token = sys.argv[4] if len(sys.argv) > 4 else ""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    parts = urlsplit(url)
    addr = (parts.hostname, parts.port)
    req = request_bytes(parts.netloc, parts.path or "/", token)

    sel = selectors.DefaultSelector()
    conns = []
    for _ in range(idle):
        s = socket.create_connection(addr, timeout=10)
        s.setblocking(False)
        s.sendall(req)  # small: fits the socket buffer at once
        conns.append(s)
        sel.register(s, selectors.EVENT_READ, [b""])
    answered = 0
    deadline = time.monotonic() + 30
    pending = len(conns)
    while pending and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1):
            chunk = b""
            try:
                chunk = key.fileobj.recv(65536)
            except OSError:
                pass
            if not chunk:
                sel.unregister(key.fileobj)
                pending -= 1
                continue
            key.data[0] += chunk
            if complete(key.data[0]):
                answered += 1
                pending -= 1
                sel.unregister(key.fileobj)

    times, failures = [], 0
    for _ in range(probes):
        try:
            times.append(one_request(addr, req, 10))
        except OSError:
            failures += 1

    held = 0
    for s in conns:
        try:
            # MSG_PEEK on a non-blocking socket: EAGAIN means open and quiet, b"" means closed by the server.
            held += 1 if s.recv(1, socket.MSG_PEEK) else 0
        except BlockingIOError:
            held += 1
        except OSError:
            pass
        s.close()
    p50 = statistics.median(times) if times else float("nan")
    worst = max(times) if times else float("nan")
    print(f"IDLE_RESULT idle={idle} held={held} answered={answered} probes={probes} "
          f"probe_failures={failures} p50_ms={p50:.2f} max_ms={worst:.2f}")


if __name__ == "__main__":
    main()
