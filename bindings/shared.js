// What every entry point of @platform/core shares: finding, loading and caching its wasm module, and the
// argument checks (a TypeError naming the member for a value of the wrong JavaScript type).
//
// Where a module (<name>.mjs + <name>.wasm) is found:
// - node: `options.wasmDir`, else the environment variable PLATFORM_WASM_DIR (a relative path is taken from
//   the current directory), else nodeWasmDir of locations.js;
// - browser: `options.wasmUrl` (relative to this package's folder), else browserWasmUrl of locations.js.
import { browserWasmUrl, nodeWasmDir } from './locations.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// One uniformly random unsigned 32-bit integer: libsodium's random source inside a module.
function getRandomValue() {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}

async function instantiateInNode(name, wasmDir) {
  const [{ readFile }, path, { fileURLToPath, pathToFileURL }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
    import('node:url'),
  ]);
  const dir = wasmDir.startsWith('file:') ? fileURLToPath(wasmDir) : path.resolve(wasmDir);
  try {
    const [factory, wasmBinary] = await Promise.all([
      import(pathToFileURL(path.join(dir, `${name}.mjs`)).href).then((m) => m.default),
      readFile(path.join(dir, `${name}.wasm`)),
    ]);
    return await factory({ wasmBinary, getRandomValue });
  } catch (error) {
    throw new Error(`@platform/core: cannot load ${name}.mjs and ${name}.wasm from ${dir}: ${error}`, {
      cause: error,
    });
  }
}

async function instantiateInBrowser(name, wasmUrl) {
  const base = new URL(wasmUrl, import.meta.url);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  try {
    const { default: factory } = await import(new URL(`${name}.mjs`, base).href);
    return await factory({ locateFile: (file) => new URL(file, base).href, getRandomValue });
  } catch (error) {
    throw new Error(`@platform/core: cannot load ${name}.mjs from ${base}: ${error}`, { cause: error });
  }
}

// The folder (node) or URL (browser) the options name, with the defaults above.
export function wasmLocation(options = {}) {
  return isNode
    ? options.wasmDir ?? process.env.PLATFORM_WASM_DIR ?? nodeWasmDir
    : String(options.wasmUrl ?? browserWasmUrl);
}

// A loader for the wasm module `name` whose API `wrap(rawModule)` builds: once per location, the module
// compiled on the first call and the same frozen API handed out after. A failed load is forgotten, so a
// later call tries again.
export function moduleLoader(name, wrap) {
  const loaded = new Map();
  return function load(options = {}) {
    const location = wasmLocation(options);
    if (!loaded.has(location)) {
      const instance = isNode ? instantiateInNode(name, location) : instantiateInBrowser(name, location);
      const api = instance.then((wasm) => Object.freeze(wrap(wasm)));
      api.catch(() => loaded.delete(location));
      loaded.set(location, api);
    }
    return loaded.get(location);
  };
}

// --- argument checks -------------------------------------------------------------------------------------

export function typeName(value) {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

export function requireType(value, type, name) {
  if (typeof value !== type) {
    throw new TypeError(`${name} must be a ${type}, got ${value === null ? 'null' : typeof value}`);
  }
}

export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// A JSON object argument may come as its text or as a plain object, which is stringified here.
export function jsonText(value, name) {
  if (typeof value === 'string') return value;
  if (isPlainObject(value)) return JSON.stringify(value);
  throw new TypeError(`${name} must be a JSON string or an object, got ${value === null ? 'null' : typeof value}`);
}

export function requireStringArray(value, name) {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new TypeError(`${name} must be an array of strings`);
  }
}

// A member's type: 'string', 'number', 'boolean', or with a `?` ('number?', 'string?', 'boolean?') a value
// that may be null or absent (copied as null). `defaults` holds the values of members that may be absent
// (undefined).
export function checkedRecord(value, shape, name, defaults = {}) {
  if (!isPlainObject(value)) throw new TypeError(`${name} must be an object, got ${typeName(value)}`);
  const copy = {};
  for (const [member, type] of Object.entries(shape)) {
    const item = value[member] === undefined && member in defaults ? defaults[member] : value[member];
    const optional = type.endsWith('?');
    if (optional && (item === null || item === undefined)) {
      copy[member] = null;
      continue;
    }
    requireType(item, optional ? type.slice(0, -1) : type, `${name}.${member}`);
    copy[member] = item;
  }
  return copy;
}

export function checkedRecords(value, shape, name) {
  if (!Array.isArray(value)) {
    throw new TypeError(`${name} must be an array, got ${value === null ? 'null' : typeof value}`);
  }
  return value.map((item, index) => checkedRecord(item, shape, `${name}[${index}]`));
}

// Bytes to sign or verify: a string is taken as its UTF-8 encoding by TextEncoder, the bytes fetch() and
// Buffer.from() send (a lone surrogate becomes U+FFFD); a Uint8Array (a Buffer too) is used as it is.
const utf8 = new TextEncoder();
export function bytesOf(value, name) {
  if (typeof value === 'string') return utf8.encode(value);
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`${name} must be a string or a Uint8Array, got ${value === null ? 'null' : typeof value}`);
}
