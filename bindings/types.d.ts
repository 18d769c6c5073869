// Types every entry point of @platform/core shares: the answer of a function that can fail, JSON values and
// the options of the loaders. No JavaScript goes with this file.
//
// Error convention, the same for every function:
// - An input the core refuses is an expected failure. The function returns `Err` with the core's stable,
//   machine-readable `code` (listed per function) and a human `message`; it never throws for it.
// - An argument of the wrong JavaScript type (for example a string where a number belongs, or an array
//   holding a non-string) throws a `TypeError` before the core is called: that is a bug in the caller.
// - Numbers that stand for integers (amounts, rates, hours, day counts) must be safe integers; a fraction,
//   NaN or Infinity is refused with the code of that argument (for example `invalid_amount`).

/** A successful call: the computed value. */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

/** A refused input: the core's error code and a sentence for humans. */
export interface Err<Code extends string = string> {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
}

export type Result<T, Code extends string = string> = Ok<T> | Err<Code>;

/** A value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [member: string]: JsonValue };
export interface JsonObject {
  [member: string]: JsonValue;
}

/** Where a loader finds its wasm module (`<name>.mjs` + `<name>.wasm`). */
export interface LoadOptions {
  /**
   * Node only: the folder holding the modules. Default: the environment variable PLATFORM_WASM_DIR, else the
   * package's own `wasm/` folder (in the repository checkout: `build/wasm/wasm/`). Relative paths start at
   * the current directory.
   */
  wasmDir?: string;
  /**
   * Browser only: URL of the folder holding the modules, relative to the package's folder. Default: the
   * package's own `wasm/` folder (in the repository checkout, `../wasm/`: the edge serves /web/bindings/ and
   * /web/wasm/).
   */
  wasmUrl?: string | URL;
}
