// A real DNS zone for browser tests: Debian's dnsmasq (package dnsmasq-base) on a free 127.0.0.1 port,
// answering the TXT and CNAME records it is started with, as tests/native/dnsmasq_zone.cpp does for the
// C++ suites. The edge is pointed at it with --mail-nameserver, so a domain's Verify really looks its records
// up. Not a test file itself (node --test runs *.test.mjs).
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const dnsmasqBin = process.env.DNSMASQ_BIN ?? '/usr/sbin/dnsmasq';

function udpPort() {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

function tcpFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// A port free for both UDP and TCP on 127.0.0.1 (dnsmasq binds both).
export async function freeDnsPort() {
  for (let i = 0; i < 20; i++) {
    const port = await udpPort();
    if (await tcpFree(port)) return port;
  }
  throw new Error('no free port for dnsmasq');
}

// dnsmasq options publishing `records` ([{type, name, value}] as the domains API answers them).
export function optionsFor(records) {
  const out = [];
  for (const r of records) {
    if (r.type === 'TXT') out.push(`--txt-record=${r.name},${r.value}`);
    if (r.type === 'CNAME') out.push(`--cname=${r.name},${r.value}`);
  }
  return out;
}

// Starts dnsmasq on `port` serving `example.test` with `options`; resolves once it answers. stop() ends it.
export async function startZone(port, options = []) {
  const args = [
    '--conf-file=/dev/null',
    '--no-hosts',
    '--no-resolv',
    '--no-poll',
    '--bind-interfaces',
    '--listen-address=127.0.0.1',
    `--port=${port}`,
    '--local=/example.test/',
    '--pid-file=',
    '--user=nobody',
    '--group=nogroup',
    '--no-daemon',
    '--txt-record=ready.example.test,ready',
    ...options,
  ];
  const child = spawn(dnsmasqBin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const zone = {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const status = await Promise.race([exited, sleep(20).then(() => null)]);
    if (status) throw new Error(`dnsmasq exited (${JSON.stringify(status)}): ${output}`);
    try {
      const answer = await resolver.resolveTxt('ready.example.test');
      if (answer.flat().includes('ready')) return zone;
    } catch {
      // not answering yet
    }
  }
  await zone.stop();
  throw new Error(`dnsmasq did not answer on port ${port}: ${output}`);
}
