// MJML in the template editor (spec/DECISIONS.md: MJML is compiled to HTML in the dashboard with npm
// mjml-browser; the API stores and renders what it receives). mjml-browser is a browser build without a
// bundler step: one classic script that defines `window.mjml`, an async function from MJML text to
// {html, errors}. The edge serves it from node_modules at /web/vendor/mjml-browser.js.
//
// The HTML saved for an MJML body ends with its source in a comment, `<!-- mjml-source:v1 <base64> -->`,
// so the editor can open it as MJML again (the API has no field for it). Base64 has no braces, so the
// template engine sees plain text there.

const SCRIPT_URL = '/web/vendor/mjml-browser.js';
const MARKER = /\n?<!-- mjml-source:v1 ([A-Za-z0-9+/=]*) -->\s*$/;

let loading = null;

// Resolves with the compile function, or rejects when the script cannot be loaded (the MJML mode is then
// not offered).
export function loadMjml() {
  loading ??= new Promise((resolve, reject) => {
    if (typeof window.mjml === 'function') {
      resolve(window.mjml);
      return;
    }
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => (typeof window.mjml === 'function' ? resolve(window.mjml) : reject(new Error('mjml-browser defined no mjml()')));
    script.onerror = () => reject(new Error(`${SCRIPT_URL} could not be loaded`));
    document.head.append(script);
  }).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}

// MJML text -> { html, errors: [sentence] }. `fonts: {}`: MJML's default font list would make every mail
// load Google Fonts (its default text font is Ubuntu); a template that wants a web font says so with
// <mj-font>. Validation is `soft`: problems are listed, the HTML is still made.
export async function compileMjml(mjml, source) {
  const answer = await mjml(source, { validationLevel: 'soft', keepComments: false, fonts: {} });
  const errors = (answer.errors ?? []).map((e) => e.formattedMessage ?? e.message ?? String(e));
  return { html: answer.html ?? '', errors };
}

function toBase64(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

// The HTML to save for an MJML body.
export function withSource(html, source) {
  return `${html.replace(/\s+$/, '')}\n<!-- mjml-source:v1 ${toBase64(source)} -->\n`;
}

// The MJML source a saved body carries, or null.
export function sourceOf(body) {
  const match = MARKER.exec(body ?? '');
  if (!match) return null;
  try {
    return fromBase64(match[1]);
  } catch {
    return null;
  }
}

// A saved body without its source comment (what the HTML mode shows).
export function withoutSource(body) {
  return (body ?? '').replace(MARKER, '\n');
}
