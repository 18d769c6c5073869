// Safe DOM building. Every page builds its elements with h(); text always goes in as text nodes
// (textContent), never as markup, so data from the API cannot become HTML. There is no innerHTML anywhere in
// the dashboard.
//
//   h('a', { href: '/x', class: 'link', onclick: go }, 'Open ', h('strong', null, name))
//
// attrs: `class` (a string, or an array whose falsy entries are dropped), `dataset` (an object), `on<event>`
// (a function, added with addEventListener), `value`/`checked`/`selected`/`disabled`/`hidden` (set as
// properties), boolean values (true: the attribute is present, false/null/undefined: absent), anything else
// as an attribute. Children: strings and numbers (text nodes), nodes, arrays (flattened), and
// null/undefined/false (skipped).

const SVG_NS = 'http://www.w3.org/2000/svg';
const PROPERTIES = new Set(['value', 'checked', 'selected', 'disabled', 'hidden', 'indeterminate']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href']);

// A URL attribute may be relative, http(s), mailto or a fragment: never `javascript:` or `data:` markup.
function safeUrl(value) {
  const text = String(value).trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  if (scheme && !['http', 'https', 'mailto'].includes(scheme[1].toLowerCase())) {
    throw new TypeError(`h(): refusing a ${scheme[1]}: URL`);
  }
  return text;
}

export function append(parent, ...children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false || child === true) continue;
    if (Array.isArray(child)) append(parent, ...child);
    else if (child instanceof Node) parent.append(child);
    else parent.append(document.createTextNode(String(child)));
  }
  return parent;
}

function setAttributes(element, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'innerHTML' || name === 'outerHTML') throw new TypeError('h(): markup is never set');
    if (name.startsWith('on')) {
      if (typeof value !== 'function') {
        if (value === null || value === undefined || value === false) continue;
        throw new TypeError(`h(): ${name} must be a function (no inline handlers)`);
      }
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === 'class') {
      const list = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
      if (list) element.setAttribute('class', list);
    } else if (name === 'dataset') {
      for (const [key, item] of Object.entries(value ?? {})) {
        if (item !== null && item !== undefined) element.dataset[key] = String(item);
      }
    } else if (name === 'style') {
      throw new TypeError('h(): use classes from kit.css, not style attributes');
    } else if (PROPERTIES.has(name) && !(element instanceof SVGElement)) {
      if (value !== null && value !== undefined) element[name] = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, URL_ATTRIBUTES.has(name) ? safeUrl(value) : String(value));
    }
  }
}

// An element; `svg:`-prefixed tags are made in the SVG namespace (icons).
export function h(tag, attrs, ...children) {
  const element = tag.startsWith('svg:')
    ? document.createElementNS(SVG_NS, tag.slice(4))
    : document.createElement(tag);
  if (attrs) setAttributes(element, attrs);
  return append(element, ...children);
}

// Replaces every child of `parent` with `children`.
export function mount(parent, ...children) {
  parent.replaceChildren();
  return append(parent, ...children);
}

// A stroked 24x24 icon from SVG path data (the drawing is ours; see kit/icons.js).
export function icon(paths, { label, className } = {}) {
  const svg = h('svg:svg', {
    class: ['icon', className],
    viewBox: '0 0 24 24',
    width: '18',
    height: '18',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': label ? null : 'true',
    role: label ? 'img' : null,
    'aria-label': label ?? null,
  });
  for (const d of [].concat(paths)) svg.append(h('svg:path', { d }));
  return svg;
}

let counter = 0;
// A document-unique id for label/aria wiring.
export function uid(prefix = 'k') {
  counter += 1;
  return `${prefix}-${counter}`;
}
