// @platform/core/templates: the mail template engine (compile, variables, missing variables, render, and
// rendering per locale with the LocalizedString rules) from the wasm module platform_templates
// (wasm/mail_module.cpp over core/mail/), so that a preview renders exactly what the send path sends.
//
//   import { loadTemplates } from '@platform/core/templates';
//   const templates = await loadTemplates();
//   templates.renderLocalized({ tr: 'Merhaba {name}', en: 'Hello {name}' }, { name: 'Ayşe' }, 'de');
//   // { ok: true, value: { locale: 'en', text: 'Hello Ayşe' } }
//
// Each call compiles the text again (no handle to free); `variables` is an object or its JSON text, as a
// send call's `variables`.
import { isPlainObject, jsonText, moduleLoader, requireType, typeName } from './shared.js';

function checkedEscaping(escaping) {
  if (escaping !== 'html' && escaping !== 'none') {
    throw new TypeError(`escaping must be 'html' or 'none', got ${JSON.stringify(escaping)}`);
  }
  return escaping === 'html';
}

// A LocalizedString crosses as JSON text; its content (an empty object, a non-string entry) is the core's
// to judge, so only the outer type is checked here.
function localizedText(localized) {
  if (typeof localized !== 'string' && !isPlainObject(localized)) {
    throw new TypeError(`localized must be a string or an object, got ${typeName(localized)}`);
  }
  return JSON.stringify(localized);
}

function wrap(wasm) {
  return {
    compileTemplate(text) {
      requireType(text, 'string', 'text');
      return wasm.compileTemplate(text);
    },
    templateVariables(text) {
      requireType(text, 'string', 'text');
      const compiled = wasm.compileTemplate(text);
      return compiled.ok ? { ok: true, value: compiled.value.variables } : compiled;
    },
    renderTemplate(text, variables, escaping = 'html') {
      requireType(text, 'string', 'text');
      const escapeHtml = checkedEscaping(escaping);
      return wasm.renderTemplate(text, jsonText(variables, 'variables'), escapeHtml);
    },
    missingVariables(text, variables) {
      requireType(text, 'string', 'text');
      return wasm.missingVariables(text, jsonText(variables, 'variables'));
    },
    pickLocalized(localized, locale) {
      requireType(locale, 'string', 'locale');
      return wasm.pickLocalized(localizedText(localized), locale);
    },
    renderLocalized(localized, variables, locale, escaping = 'html') {
      const text = localizedText(localized);
      const variablesText = jsonText(variables, 'variables');
      requireType(locale, 'string', 'locale');
      return wasm.renderLocalized(text, variablesText, locale, checkedEscaping(escaping));
    },
  };
}

// Loads platform_templates (once per location) and answers the frozen API. Rejects with an Error naming the
// location when the module files cannot be loaded or compiled.
export const loadTemplates = moduleLoader('platform_templates', wrap);

export default loadTemplates;
