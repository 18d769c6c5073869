// Random calls of the mail template functions: templates built from tags, sections, stray braces and
// Unicode text, rendered with variables that provide some names, leave others out, or have the wrong shape.

const NAMES = ['name', 'total', 'items', 'sku', 'qty', 'x', 'order_id', 'Name'];

function tag(r, sigil, name) {
  return r.chance(0.75) ? `{${sigil}${name}}` : `{{${sigil}${name}}}`;
}

// Literal text, including braces that are not tags (`{ }`, `{a-b}`, `{{ x }}`, CSS) and HTML characters.
function literal(r) {
  return r.weighted([
    [6, () => r.text(5)],
    [1, () => r.pick(['{ }', '{a-b}', '{{ x }}', '{{x}', '{x}}', '}{', 'p { color: red }', '{"a":1}', '{Ürün}', '{#}', '{/ x}', '{'])],
    [1, () => '\n'],
  ]);
}

function section(r) {
  const name = r.pick(NAMES);
  const inverted = r.chance(0.3);
  let body = '';
  for (let n = r.int(0, 4); n > 0; n--) body += r.chance(0.5) ? literal(r) : tag(r, '', r.pick(NAMES));
  const close = r.weighted([[20, () => name], [1, () => r.pick(NAMES)]]);
  const opener = tag(r, inverted ? '^' : '#', name);
  const closer = r.weighted([[20, () => tag(r, inverted ? '/^' : '/', close)], [1, () => tag(r, inverted ? '/' : '/^', close)], [1, () => '']]);
  return `${opener}${body}${r.chance(0.02) ? section(r) : ''}${closer}`;
}

export function template(r) {
  let text = '';
  for (let n = r.int(0, 7); n > 0; n--) {
    text += r.weighted([
      [4, () => literal(r)],
      [4, () => tag(r, '', r.pick(NAMES))],
      [2, () => section(r)],
      [0.3, () => tag(r, r.pick(['/', '/^']), r.pick(NAMES))],
    ]);
  }
  return text;
}

function scalar(r) {
  return r.weighted([
    [6, () => r.text(4)],
    [3, () => r.int(-1000, 1e6)],
    [1, () => r.pick([0.1, 1.5, -2.25, 1e21, 1e-7, 2 ** 53, 123456789.125, 1 / 3])],
    [2, () => r.pick([true, false, null, ''])],
  ]);
}

function element(r) {
  const item = {};
  for (let n = r.int(0, 3); n > 0; n--) item[r.pick(NAMES)] = r.chance(0.95) ? scalar(r) : [1];
  return item;
}

function value(r) {
  return r.weighted([
    [10, () => scalar(r)],
    [4, () => Array.from({ length: r.int(0, 3) }, () => element(r))],
    [1, () => r.pick([[], [1, 2], ['a'], { nested: true }, [null]])],
  ]);
}

// The variables object, or sometimes its JSON text (the API takes either), or text that is not an object.
function variables(r) {
  const object = {};
  for (const name of NAMES) if (r.chance(0.55)) object[name] = value(r);
  return r.weighted([
    [10, () => object],
    [2, () => JSON.stringify(object)],
    [1, () => r.pick(['', '{', '[1]', '"x"', 'null', '{"a":1} x', '{"a":NaN}', ' {"name":"spaced"} '])],
  ]);
}

export function renderTemplate(r) {
  const args = [template(r), variables(r)];
  return r.weighted([[3, () => args], [2, () => [...args, 'html']], [3, () => [...args, 'none']]]);
}

export function missingVariables(r) {
  return [template(r), variables(r)];
}

const LOCALES = ['en', 'tr', 'de', 'en-US', 'EN', 'pt-BR', 'zh-Hans', '', 'ü'];

export function pickLocalized(r) {
  const localized = r.weighted([
    [3, () => r.text(4)],
    [8, () => {
      const object = {};
      for (let n = r.int(0, 4); n > 0; n--) object[r.pick(LOCALES)] = r.chance(0.95) ? r.text(3) : r.pick([1, null, true, ['x'], {}]);
      return object;
    }],
  ]);
  return [localized, r.pick(LOCALES)];
}
