// renderLocalized of @platform/core/templates (wasm/mail_module.cpp): the entry of a LocalizedString that a
// locale picks (core/mail/localized_string.h: exact key, else en, else the first), rendered by the send
// path's engine.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadTemplates } from '../../bindings/templates.js';

let templates;
before(async () => {
  templates = await loadTemplates();
});

const ok = (locale, text) => ({ ok: true, value: { locale, text } });
const subject = { tr: 'Siparişiniz {order_id}', en: 'Your order {order_id}', de: 'Ihre Bestellung {order_id}' };

describe('renderLocalized', () => {
  test('the locale, then en, then the first key; a plain string for every locale', () => {
    const variables = { order_id: 'A-17' };
    assert.deepEqual(templates.renderLocalized(subject, variables, 'tr'), ok('tr', 'Siparişiniz A-17'));
    assert.deepEqual(templates.renderLocalized(subject, variables, 'fr'), ok('en', 'Your order A-17'));
    assert.deepEqual(templates.renderLocalized(subject, variables, 'TR'), ok('en', 'Your order A-17'));
    assert.deepEqual(templates.renderLocalized({ de: 'Hallo {n}', tr: 'Merhaba {n}' }, { n: 1 }, 'fr'), ok('de', 'Hallo 1'));
    assert.deepEqual(templates.renderLocalized('Order {order_id}', variables, 'tr'), ok('', 'Order A-17'));
  });

  test('html escaping by default, none on request; variables as an object or JSON text', () => {
    const body = { en: '<p>{name}</p>' };
    assert.deepEqual(templates.renderLocalized(body, { name: 'Ali & Veli' }, 'en'), ok('en', '<p>Ali &amp; Veli</p>'));
    assert.deepEqual(templates.renderLocalized(body, '{"name":"<b>"}', 'en', 'none'), ok('en', '<p><b></p>'));
    assert.deepEqual(
      templates.renderLocalized({ en: '{#items}{sku} {/items}' }, { items: [{ sku: 'a' }, { sku: 'b' }] }, 'en'),
      ok('en', 'a b '),
    );
  });

  test('renders exactly what pickLocalized picks and renderTemplate renders', () => {
    for (const locale of ['tr', 'en', 'de', 'fr', '']) {
      const picked = templates.pickLocalized(subject, locale).value;
      const rendered = templates.renderTemplate(picked.text, { order_id: 7 }, 'none').value;
      assert.deepEqual(templates.renderLocalized(subject, { order_id: 7 }, locale, 'none'), ok(picked.locale, rendered));
    }
  });

  test('errors: the LocalizedString first, then the picked text, with its locale', () => {
    const bad = templates.renderLocalized({}, {}, 'en');
    assert.equal(bad.code, 'invalid_localized_string');
    assert.equal(templates.renderLocalized({ en: 'x', tr: 1 }, {}, 'en').code, 'invalid_localized_string');

    const missing = templates.renderLocalized(subject, {}, 'tr');
    assert.deepEqual(
      { code: missing.code, missing: missing.missing, locale: missing.locale },
      { code: 'missing_variables', missing: ['order_id'], locale: 'tr' },
    );
    // Only the picked entry is compiled: a broken tr text does not stop an en render.
    const halfBroken = { tr: 'Merhaba {#x}', en: 'Hello' };
    assert.deepEqual(templates.renderLocalized(halfBroken, {}, 'en'), ok('en', 'Hello'));
    const broken = templates.renderLocalized(halfBroken, {}, 'tr');
    assert.deepEqual(
      { code: broken.code, offset: broken.offset, locale: broken.locale },
      { code: 'template_unclosed_section', offset: 8, locale: 'tr' },
    );
    assert.equal(templates.renderLocalized('Hi', '[1]', 'en').code, 'invalid_body');
    assert.equal(templates.renderLocalized('Hi', '{', 'en').code, 'invalid_json');
    assert.equal(templates.renderLocalized('{x}', { x: [1] }, 'en').code, 'invalid_variable');
  });

  test('arguments of the wrong type throw a TypeError naming them', () => {
    assert.throws(() => templates.renderLocalized(null, {}, 'en'), { name: 'TypeError', message: 'localized must be a string or an object, got null' });
    assert.throws(() => templates.renderLocalized(['x'], {}, 'en'), { name: 'TypeError', message: 'localized must be a string or an object, got array' });
    assert.throws(() => templates.renderLocalized('x', 7, 'en'), { name: 'TypeError', message: 'variables must be a JSON string or an object, got number' });
    assert.throws(() => templates.renderLocalized('x', {}, undefined), { name: 'TypeError', message: 'locale must be a string, got undefined' });
    assert.throws(() => templates.renderLocalized('x', {}, 'en', 'text'), { name: 'TypeError', message: 'escaping must be \'html\' or \'none\', got "text"' });
  });
});
