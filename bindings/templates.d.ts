// Types of @platform/core/templates (templates.js): the mail template engine, from the wasm module
// platform_templates. Error convention: types.d.ts.

import type { Err, JsonObject, LoadOptions, Ok, Result } from './types.js';

export * from './types.js';

/** The compile error codes of a mail template (docs/mail-templates.md). */
export type TemplateSyntaxErrorCode =
  | 'template_nested_section'
  | 'template_unexpected_close'
  | 'template_mismatched_close'
  | 'template_unclosed_section'
  | 'template_too_large';

/** A template that does not compile: the code, a message naming the byte offset, and the offset itself. */
export interface TemplateSyntaxError extends Err<TemplateSyntaxErrorCode> {
  /** Byte offset of the offending tag in the UTF-8 encoding of the text (the opener for an unclosed section). */
  readonly offset: number;
}

/** A render refused because the variables leave out names the output needs (the send call's 422). */
export interface MissingVariablesError extends Err<'missing_variables'> {
  /** The names, each once, in the template's order (missingVariables' answer). */
  readonly missing: string[];
}

/** The names used inside one `{#section}`: the elements' fields (or top-level variables of that name). */
export interface SectionFields {
  section: string;
  names: string[];
}

/** What compiling a template tells: its top-level `variables` (the Template resource's) and section fields. */
export interface TemplateInfo {
  variables: string[];
  sectionFields: SectionFields[];
}

/** `html` for HTML bodies (`& < > " '` escaped), `none` for subjects and text bodies. */
export type TemplateEscaping = 'html' | 'none';

/** A plain string for every locale, or an object keyed by locale. */
export type LocalizedString = string | { [locale: string]: string };

/** The entry a LocalizedString gives a locale: its key ('' for a plain string) and text. */
export interface PickedLocale {
  locale: string;
  text: string;
}

/** A failure of the text a LocalizedString picked, with that entry's key ('' for a plain string). */
export type LocalizedFailure<E> = E & { readonly locale: string };

export interface PlatformTemplates {

  /**
   * Compiles a mail template (spec document 2, "Template variable syntax"): `{name}` / `{{name}}`,
   * `{#items}...{/items}`, `{^name}...{/^name}`; any other brace is text. Answers the top-level
   * `variables` in order of first appearance and the names used inside each `{#section}`.
   * Errors: the compile codes, with the byte `offset` of the offending tag.
   * @example compileTemplate('Hi {name}{#items}{sku}{/items}') // { ok: true, value: { variables: ['name', 'items'], sectionFields: [{ section: 'items', names: ['sku'] }] } }
   */
  compileTemplate(text: string): Ok<TemplateInfo> | TemplateSyntaxError;

  /** compileTemplate's `variables` alone (the Template resource's read-only `variables`). */
  templateVariables(text: string): Ok<string[]> | TemplateSyntaxError;

  /**
   * Renders a template with a send call's `variables` (an object, or its JSON text) exactly as the server
   * does: item fields before top-level variables inside `{#items}`; strings escaped per `escaping`
   * (default `html`), numbers as JSON text, booleans as `true`/`false`, null as nothing.
   * Errors: the compile codes (with `offset`); `invalid_json` / `invalid_body` for variables that are not
   * a JSON object; `missing_variables` (with `missing`); `invalid_variable` (an array or object in a scalar
   * tag, or a `{#name}` value that is not an array of objects, true, false or null).
   * @example renderTemplate('Hi {name}', { name: 'Ali & Veli' }) // { ok: true, value: 'Hi Ali &amp; Veli' }
   */
  renderTemplate(
    text: string,
    variables: JsonObject | string,
    escaping?: TemplateEscaping,
  ):
    | Ok<string>
    | TemplateSyntaxError
    | MissingVariablesError
    | Err<'invalid_variable' | 'invalid_json' | 'invalid_body'>;

  /**
   * The names the template would need with these `variables` and that they do not provide (the send
   * call's 422), each once in the template's order. Inside `{#items}` a name is provided when every element
   * or the top level has it; `{^name}` never needs `name`.
   * Errors: the compile codes (with `offset`); `invalid_json` / `invalid_body`.
   */
  missingVariables(
    text: string,
    variables: JsonObject | string,
  ): Ok<string[]> | TemplateSyntaxError | Err<'invalid_json' | 'invalid_body'>;

  /**
   * The entry of a LocalizedString for `locale`: exact key, else `en`, else the first key; a plain string
   * for every locale (its `locale` is '').
   * Errors: `invalid_localized_string` (an empty object, an empty key, a value that is not a string).
   */
  pickLocalized(localized: LocalizedString, locale: string): Result<PickedLocale, 'invalid_localized_string'>;

  /**
   * Renders the entry of `localized` that `locale` picks (pickLocalized's rule: the exact key, else `en`,
   * else the first key; a plain string for every locale) with `variables`, as the send path renders a
   * Template's subject (`escaping: 'none'`) or body (`'html'`, the default) for a recipient's locale.
   * Answers the picked entry's key ('' for a plain string) and the output.
   * Errors: `invalid_localized_string`; then those of renderTemplate for the picked text, each with
   * `locale`, the entry's key.
   * @example renderLocalized({ tr: 'Merhaba {name}', en: 'Hello {name}' }, { name: 'Ayşe' }, 'de') // { ok: true, value: { locale: 'en', text: 'Hello Ayşe' } }
   */
  renderLocalized(
    localized: LocalizedString,
    variables: JsonObject | string,
    locale: string,
    escaping?: TemplateEscaping,
  ):
    | Ok<PickedLocale>
    | Err<'invalid_localized_string'>
    | LocalizedFailure<TemplateSyntaxError | MissingVariablesError | Err<'invalid_variable' | 'invalid_json' | 'invalid_body'>>;
}

/**
 * Loads platform_templates (once per location) and returns its API. Rejects with an Error naming the
 * location when the module files cannot be loaded or compiled.
 */
export function loadTemplates(options?: LoadOptions): Promise<PlatformTemplates>;

export default loadTemplates;
