// The platform core in WebAssembly (@platform/core, served at /web/bindings/ with the module at /web/wasm/),
// loaded once for every mail page that needs the template engine: the same C++ the server renders with.
import { loadPlatformCore } from '/web/bindings/index.js';

let loading = null;
export function platformCore() {
  loading ??= loadPlatformCore().catch((error) => {
    loading = null; // a later page may try again
    throw error;
  });
  return loading;
}

// LocalizedString -> the text for `lang` (the core's rule: exact key, else en, else the first key). Without
// the core (still loading or failed) a plain string or the first value.
export function localizedText(core, value, lang) {
  if (value === null || value === undefined) return '';
  if (core) {
    try {
      const picked = core.pickLocalized(value, lang);
      if (picked.ok) return picked.value.text;
    } catch {
      // not a LocalizedString at all: shown as below
    }
  }
  if (typeof value === 'string') return value;
  const values = Object.values(value);
  return values.length ? String(values[0]) : '';
}
