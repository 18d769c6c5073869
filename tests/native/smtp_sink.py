"""SMTP capture server for the native and edge tests (tests/native/smtp_sink.h starts it).

Run with Debian's interpreter, which sees python3-aiosmtpd: /usr/bin/python3 smtp_sink.py MAILDIR [options].
Listens on 127.0.0.1 and a port the kernel picks, prints that port on a line of its own on stdout once it
accepts connections, and serves until killed.

Every accepted message is written to MAILDIR/new as one file (through MAILDIR/tmp, so a reader never sees
half a file): two lines `X-Sink-Mail-From: <reverse-path>` and `X-Sink-Rcpt-To: <a>, <b>` (CRLF), then the
message data exactly as received (dot-unstuffing undone, CRLF kept). Files are named by a zero-padded
sequence number, so sorting the names gives the order of arrival.

Scripted refusals, each option repeatable, addresses compared without case:
  --tempfail-rcpt ADDR   RCPT TO:<ADDR> answers 450 4.2.1 try later
  --permfail-rcpt ADDR   RCPT TO:<ADDR> answers 550 5.1.1 no such user
  --multiline-rcpt ADDR  RCPT TO:<ADDR> answers a two-line 550 (550-5.1.1 ... / 550 5.1.1 ...)
  --tempfail-rcpt-once ADDR   the first RCPT TO:<ADDR> answers 450 4.2.1 try later, later ones are accepted
  --tempfail-data ADDR   the end of DATA answers 451 4.3.0 try again later when ADDR is a recipient
  --permfail-data ADDR   the end of DATA answers 554 5.7.1 message refused when ADDR is a recipient
"""

import argparse
import asyncio
import os
import sys

from aiosmtpd.smtp import SMTP

TEMPFAIL_RCPT = "450 4.2.1 try later"
PERMFAIL_RCPT = "550 5.1.1 no such user"
MULTILINE_RCPT = "550-5.1.1 The account you tried to reach does not exist.\r\n550 5.1.1 Check the address."
TEMPFAIL_DATA = "451 4.3.0 try again later"
PERMFAIL_DATA = "554 5.7.1 message refused"


class CaptureHandler:
    def __init__(self, maildir, tempfail_rcpt, permfail_rcpt, multiline_rcpt, tempfail_data, permfail_data,
                 tempfail_rcpt_once=()):
        self.maildir = maildir
        self.tempfail_rcpt_once = {a.lower() for a in tempfail_rcpt_once}
        self.tempfail_rcpt = {a.lower() for a in tempfail_rcpt}
        self.permfail_rcpt = {a.lower() for a in permfail_rcpt}
        self.multiline_rcpt = {a.lower() for a in multiline_rcpt}
        self.tempfail_data = {a.lower() for a in tempfail_data}
        self.permfail_data = {a.lower() for a in permfail_data}
        self.sequence = 0
        for sub in ("tmp", "new", "cur"):
            os.makedirs(os.path.join(maildir, sub), exist_ok=True)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.tempfail_rcpt:
            return TEMPFAIL_RCPT
        if address.lower() in self.tempfail_rcpt_once:
            self.tempfail_rcpt_once.discard(address.lower())
            return TEMPFAIL_RCPT
        if address.lower() in self.permfail_rcpt:
            return PERMFAIL_RCPT
        if address.lower() in self.multiline_rcpt:
            return MULTILINE_RCPT  # aiosmtpd sends the text as given, so the CRLF makes two lines
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        recipients = {a.lower() for a in envelope.rcpt_tos}
        if recipients & self.tempfail_data:
            return TEMPFAIL_DATA
        if recipients & self.permfail_data:
            return PERMFAIL_DATA
        self.sequence += 1
        name = "%06d.%d.sink" % (self.sequence, os.getpid())
        # aiosmtpd reports the null reverse-path as "<>" itself.
        mail_from = "" if envelope.mail_from in (None, "<>") else envelope.mail_from
        head = "X-Sink-Mail-From: <%s>\r\nX-Sink-Rcpt-To: %s\r\n" % (
            mail_from,
            ", ".join("<%s>" % a for a in envelope.rcpt_tos),
        )
        tmp = os.path.join(self.maildir, "tmp", name)
        with open(tmp, "wb") as f:
            f.write(head.encode("utf-8", "surrogateescape"))
            f.write(envelope.original_content)
        os.rename(tmp, os.path.join(self.maildir, "new", name))
        return "250 2.0.0 queued as %d" % self.sequence


async def serve(handler):
    loop = asyncio.get_running_loop()
    # A fixed host name: aiosmtpd would otherwise ask DNS for this machine's FQDN. 64 MiB of data: a
    # message with 25 MB of attachments is about 34 MB once base64-encoded.
    server = await loop.create_server(
        lambda: SMTP(handler, hostname="sink.test", data_size_limit=64 * 1024 * 1024),
        host="127.0.0.1",
        port=0,
    )
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maildir")
    for option in ("--tempfail-rcpt", "--permfail-rcpt", "--multiline-rcpt", "--tempfail-data",
                   "--permfail-data", "--tempfail-rcpt-once"):
        parser.add_argument(option, action="append", default=[])
    args = parser.parse_args()
    handler = CaptureHandler(args.maildir, args.tempfail_rcpt, args.permfail_rcpt, args.multiline_rcpt,
                             args.tempfail_data, args.permfail_data, args.tempfail_rcpt_once)
    asyncio.run(serve(handler))


if __name__ == "__main__":
    sys.exit(main())
