"""Independent DKIM verification for the native mail tests: python3-dkim, with the key records asked of
the test's dnsmasq through dnspython (python3-dkim's own lookup would ask the system resolver).

Usage: /usr/bin/python3 dkim_verify.py NAMESERVER_HOST NAMESERVER_PORT FILE...
Prints one line per file, `pass FILE` or `fail FILE: reason`; exits 0 when every file verifies, else 1.
"""

import sys

import dkim
import dns.exception
import dns.resolver


def make_dnsfunc(host, port):
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = [host]
    resolver.port = port

    def dnsfunc(name, timeout=5):
        if isinstance(name, bytes):
            name = name.decode("ascii")
        try:
            answer = resolver.resolve(name, "TXT", lifetime=timeout)
        except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
            return None
        # One record; its character-strings joined (RFC 6376 §3.6.2.2).
        return b"".join(answer[0].strings)

    return dnsfunc


def main():
    host, port, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    dnsfunc = make_dnsfunc(host, port)
    all_pass = True
    for path in files:
        with open(path, "rb") as f:
            message = f.read()
        try:
            ok = dkim.DKIM(message).verify(dnsfunc=dnsfunc)
            reason = "" if ok else "signature does not verify"
        except (dkim.DKIMException, dns.exception.DNSException) as e:
            ok, reason = False, "%s: %s" % (type(e).__name__, e)
        all_pass = all_pass and ok
        print("pass %s" % path if ok else "fail %s: %s" % (path, reason))
    return 0 if all_pass else 1


if __name__ == "__main__":
    sys.exit(main())
