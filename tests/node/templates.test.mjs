// The mail template engine through @platform/core (wasm/mail_module.cpp over core/mail/): the dashboard's
// live preview must render what the send path renders. The cases mirror tests/core/mail_*_test.cpp.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

const ok = (value) => ({ ok: true, value });

function failure(result, code, message) {
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.equal(result.code, code, result.message);
  if (message !== undefined) assert.equal(result.message, message);
  return result;
}

describe('compileTemplate', () => {
  test('variables in order of first appearance; item fields per section', () => {
    const text = 'Hi {name}, {{order_id}}{#items}<tr>{name} {qty}</tr>{/items}{^coupon}{next_coupon}{/^coupon}{name}';
    assert.deepEqual(
      core.compileTemplate(text),
      ok({
        variables: ['name', 'order_id', 'items', 'coupon', 'next_coupon'],
        sectionFields: [{ section: 'items', names: ['name', 'qty'] }],
      }),
    );
    assert.deepEqual(core.templateVariables(text), ok(['name', 'order_id', 'items', 'coupon', 'next_coupon']));
  });

  test('CSS, JSON and spaced braces are text', () => {
    const text = 'body { margin:0; } @media x { .c { } } {"a": {"b": 1}} { } {a-b} {{ x }} {é}';
    assert.deepEqual(core.compileTemplate(text), ok({ variables: [], sectionFields: [] }));
  });

  test('compile errors carry the code and the byte offset', () => {
    let r = failure(core.compileTemplate('{#a}x{#b}y{/b}{/a}'), 'template_nested_section');
    assert.equal(r.offset, 5);
    r = failure(core.compileTemplate('Hi {name}{/items}'), 'template_unexpected_close',
      "'{/items}' closes no open section at byte 9");
    assert.equal(r.offset, 9);
    r = failure(core.compileTemplate('ab{^coupon}x{/coupon}'), 'template_mismatched_close');
    assert.equal(r.offset, 12);
    r = failure(core.compileTemplate('<p>{#items}{name}</p>'), 'template_unclosed_section',
      "section 'items' is never closed; opened at byte 3");
    assert.equal(r.offset, 3);
    assert.deepEqual(Object.keys(r).sort(), ['code', 'message', 'offset', 'ok']);
  });

  test('offsets count UTF-8 bytes, as the server does', () => {
    // 'Çağ ' is 6 bytes in UTF-8 (4 UTF-16 units).
    assert.equal(core.compileTemplate('Çağ {/x}').offset, 6);
  });
});

describe('renderTemplate', () => {
  test('HTML escaping of exactly & < > " \'', () => {
    assert.deepEqual(core.renderTemplate('{v}', { v: 'Ali & Veli <b>"x" \'y\' a/b `c` =d' }),
      ok('Ali &amp; Veli &lt;b&gt;&quot;x&quot; &#39;y&#39; a/b `c` =d'));
    assert.deepEqual(core.renderTemplate('Re: {v}', { v: 'A & <B>' }, 'none'), ok('Re: A & <B>'));
    assert.deepEqual(core.renderTemplate('Re: {v}', '{"v":"A & <B>"}', 'html'), ok('Re: A &amp; &lt;B&gt;'));
  });

  test('UTF-8 passes through; numbers as JSON text', () => {
    assert.deepEqual(core.renderTemplate('Çağ {v} 😀', { v: 'İstanbul’da' }), ok('Çağ İstanbul’da 😀'));
    assert.deepEqual(core.renderTemplate('{a}|{b}|{c}|{t}|{n}|', { a: 20, b: -1.5, c: 0, t: true, n: null }),
      ok('20|-1.5|0|true||'));
  });

  test('item fields shadow top-level variables inside {#items}', () => {
    const text = '{name}:{#items}[{name} x{qty} {shop}]{/items}.';
    assert.deepEqual(
      core.renderTemplate(text, { name: 'Root', shop: 'S&S', items: [{ name: 'A', qty: 2 }, { name: '<B>', qty: 1 }] }),
      ok('Root:[A x2 S&amp;S][&lt;B&gt; x1 S&amp;S].'),
    );
  });

  test('inverted sections: missing, null, false, "" and [] render; 0 is a value', () => {
    const cases = [[{}, '[none]'], [{ c: null }, '[none]'], [{ c: false }, '[none]'], [{ c: '' }, '[none]'],
      [{ c: [] }, '[none]'], [{ c: 0 }, '[]'], [{ c: true }, '[]'], [{ c: 'x' }, '[]'], [{ c: {} }, '[]']];
    for (const [variables, expected] of cases) {
      assert.deepEqual(core.renderTemplate('[{^c}none{/^c}]', variables), ok(expected), JSON.stringify(variables));
    }
  });

  test('lines holding only a tag are kept', () => {
    assert.deepEqual(core.renderTemplate('<ul>\n{#items}\n<li>{n}</li>\n{/items}\n</ul>', { items: [{ n: 1 }] }),
      ok('<ul>\n\n<li>1</li>\n\n</ul>'));
  });

  test('missing variables: the error lists them', () => {
    const r = failure(core.renderTemplate('{a}{b}{#items}{c}{/items}{d}', { b: 1, items: [{ c: 1 }, {}] }),
      'missing_variables', 'missing variables: a, c, d');
    assert.deepEqual(r.missing, ['a', 'c', 'd']);
  });

  test('invalid variables and bodies', () => {
    failure(core.renderTemplate('{items}', { items: [1] }), 'invalid_variable',
      "'items' is an array: a {items} tag takes a string, number, boolean or null");
    failure(core.renderTemplate('{#items}x{/items}', { items: 'x' }), 'invalid_variable');
    failure(core.renderTemplate('{a}', '[1]'), 'invalid_body');
    failure(core.renderTemplate('{a}', '{'), 'invalid_json');
    failure(core.renderTemplate('{#a}', {}), 'template_unclosed_section');
  });

  test('wrong argument types throw TypeError', () => {
    assert.throws(() => core.renderTemplate(1, {}), TypeError);
    assert.throws(() => core.renderTemplate('x', [1]), TypeError);
    assert.throws(() => core.renderTemplate('x', {}, 'text'), /escaping must be 'html' or 'none'/);
    assert.throws(() => core.missingVariables('x', null), TypeError);
  });

  test('the benchmark receipt renders exactly expected.html', () => {
    const fixture = (name) => readFileSync(new URL(`../core/fixtures/templates/${name}`, import.meta.url), 'utf8');
    const data = JSON.parse(fixture('data.json'));
    assert.deepEqual(core.renderTemplate(fixture('receipt.single.html'), data), ok(fixture('expected.html')));
    assert.deepEqual(core.missingVariables(fixture('receipt.single.html'), data), ok([]));
  });
});

describe('missingVariables', () => {
  test('a name inside {#items} is provided by every element or by the top level', () => {
    const text = '{#items}{name}{qty}{/items}';
    assert.deepEqual(core.missingVariables(text, { items: [{ name: 'a', qty: 1 }, { name: 'b' }] }), ok(['qty']));
    assert.deepEqual(core.missingVariables(text, { qty: 1, items: [{ name: 'a' }] }), ok([]));
    assert.deepEqual(core.missingVariables(text, { items: [] }), ok([]));
    assert.deepEqual(core.missingVariables(text, {}), ok(['items']));
  });

  test('{^name} never needs its name; its body only when it renders', () => {
    const text = '{^coupon}Use {next_coupon}{/^coupon}';
    assert.deepEqual(core.missingVariables(text, {}), ok(['next_coupon']));
    assert.deepEqual(core.missingVariables(text, { coupon: 'SPRING' }), ok([]));
    assert.deepEqual(core.missingVariables(text, { coupon: 0 }), ok([]));
  });
});

describe('pickLocalized', () => {
  test('the locale, then en, then the first key; a plain string for all', () => {
    const s = { tr: 'Fişiniz', en: 'Your receipt', de: 'Ihre Quittung' };
    assert.deepEqual(core.pickLocalized(s, 'tr'), ok({ locale: 'tr', text: 'Fişiniz' }));
    assert.deepEqual(core.pickLocalized(s, 'fr'), ok({ locale: 'en', text: 'Your receipt' }));
    assert.deepEqual(core.pickLocalized(s, 'TR'), ok({ locale: 'en', text: 'Your receipt' }));
    assert.deepEqual(core.pickLocalized({ de: 'a', tr: 'b' }, 'fr'), ok({ locale: 'de', text: 'a' }));
    assert.deepEqual(core.pickLocalized('Receipt', 'tr'), ok({ locale: '', text: 'Receipt' }));
  });

  test('invalid LocalizedStrings', () => {
    failure(core.pickLocalized({}, 'en'), 'invalid_localized_string', 'must hold at least one locale');
    failure(core.pickLocalized({ en: 'x', tr: 1 }, 'en'), 'invalid_localized_string', "locale 'tr' must be a string");
    assert.throws(() => core.pickLocalized(null, 'en'), TypeError);
  });
});
