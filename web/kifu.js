// kifu for JavaScript, as an ES module (Node, bundlers, pages served over HTTP): the checks,
// parse trees, grammar differences and board diagrams of kifu, on its WebAssembly build.
// web/build.sh writes it into web/dist/ as this file followed by api.js and its exports.
//
//   import * as kifu from './kifu.js';
//   await kifu.init();                            // over HTTP: kifu_web_bg.wasm beside this file
//   await kifu.init(fs.readFileSync(wasmPath));   // in Node: the .wasm file's bytes
//   kifu.check('lnsgkgsnl/… b - 1', { format: 'sfen' });   // → [finding, …]
import * as glue from './kifu_web.js';

/** Loads kifu: `source` is the `.wasm` file's bytes, URL or compiled module; by default
 *  `kifu_web_bg.wasm` beside this file. */
export async function init(source) {
  const input = source ?? new URL('./kifu_web_bg.wasm', import.meta.url);
  let module = input;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    module = await WebAssembly.compile(input);
  } else if (!(input instanceof WebAssembly.Module)) {
    const response = await fetch(input);
    if (!response.ok) throw new Error(`kifu: cannot load ${input}: ${response.status}`);
    module = await WebAssembly.compile(await response.arrayBuffer());
  }
  glue.initSync({ module });
}
