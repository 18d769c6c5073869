// One core_oracle process (tests/differential/core_oracle.cpp) shared by the differential tests: requests
// are written as JSON lines, many at once, and the answers come back one line each, in order.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

// JSON cannot carry NaN or the infinities; the oracle reads {"$num": "NaN"} as such a number.
function replacer(_key, value) {
  return typeof value === 'number' && !Number.isFinite(value) ? { $num: String(value) } : value;
}

export function requestLine(fn, args) {
  return JSON.stringify({ fn, args }, replacer);
}

export class Oracle {
  static start(binary) {
    if (!existsSync(binary)) {
      throw new Error(
        `core_oracle not found at ${binary}: build it with \`ninja -C build/native core_oracle\` ` +
          '(or set CORE_ORACLE_BIN to its path)',
      );
    }
    return new Oracle(binary);
  }

  constructor(binary) {
    this.waiting = []; // {resolve, reject} per request sent and not yet answered, in order
    this.buffer = '';
    this.stderr = '';
    this.failure = null;
    this.child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => this.#read(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => (this.stderr += chunk));
    this.child.on('error', (error) => this.#fail(error));
    this.child.on('exit', (code, signal) => {
      if (this.waiting.length > 0 || !this.closing) {
        this.#fail(new Error(`core_oracle exited (code ${code}, signal ${signal}): ${this.stderr.trim()}`));
      }
    });
  }

  #read(chunk) {
    const lines = (this.buffer + chunk).split('\n');
    this.buffer = lines.pop();
    for (const line of lines) {
      const next = this.waiting.shift();
      if (!next) return this.#fail(new Error(`core_oracle answered more than it was asked: ${line}`));
      next.resolve(JSON.parse(line));
    }
  }

  #fail(error) {
    this.failure ??= error;
    for (const { reject } of this.waiting.splice(0)) reject(error);
  }

  // The answers to [fn, args] calls, in order.
  ask(calls) {
    if (this.failure) return Promise.reject(this.failure);
    const answers = calls.map(
      () => new Promise((resolve, reject) => this.waiting.push({ resolve, reject })),
    );
    this.child.stdin.write(calls.map(([fn, args]) => requestLine(fn, args) + '\n').join(''));
    return Promise.all(answers);
  }

  close() {
    this.closing = true;
    this.child.stdin.end();
  }
}
