// The networks' two inner loops as a WebAssembly module with 128-bit SIMD (four float32 lanes),
// assembled here byte by byte so that the client needs no build step. V8 does not vectorise
// JavaScript loops; these run several times faster than nn.js's plain loops, which remain for
// browsers without WebAssembly SIMD. Every address and size below is in bytes.
//
// layer1(w, b, x, nIn, nhBytes, h): h = b + Σ x[i]·w[i] over the nonzero inputs x[i] (w's rows
//   are nhBytes long; nhBytes a multiple of 16).
// dense(m, b, v, nvBytes, nOut, out): out[k] = b[k] + m[k]·v for k < nOut (m's rows are nvBytes
//   long; nvBytes a multiple of 64, summed in four interleaved parts).
// sigmoid(a, nBytes): a[i] = 1 / (1 + e^-a[i]) in place (nBytes a multiple of 16), with e^y as
//   Cephes' expf computes it (y = n ln 2 + f, a degree-6 polynomial for e^f, 2^n built in the
//   exponent bits): within 2 ulp of Math.exp, where calling Math.exp cost as much as both layers.

const I32 = 0x7f, F32 = 0x7d, V128 = 0x7b;

// Unsigned and signed LEB128.
function uleb(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

function sleb(n) {
  const out = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40)) { out.push(byte); return out; }
    out.push(byte | 0x80);
  }
}

const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, body) => [id, ...uleb(body.length), ...body];
const name = (s) => vec([...s].map((c) => c.charCodeAt(0)));

// Instructions (the few used).
const get = (i) => [0x20, ...uleb(i)], set = (i) => [0x21, ...uleb(i)], tee = (i) => [0x22, ...uleb(i)];
const i32 = (n) => [0x41, ...sleb(n)];
const ADD = 0x6a, SHL = 0x74, GE_U = 0x4f, F32_NE = 0x5c, F32_ADD = 0x92;
const f32Load = [0x2a, 2, 0], f32Store = [0x38, 2, 0], f32Zero = [0x43, 0, 0, 0, 0];
const vLoad = [0xfd, 0, 4, 0], vStore = [0xfd, 11, 4, 0], splat = [0xfd, 19];
const vAdd = [0xfd, ...uleb(228)], vMul = [0xfd, ...uleb(230)];
const lane = (k) => [0xfd, 31, k];
const simd = (op) => [0xfd, ...uleb(op)];
const [vSub, vDiv, vMin, vMax, vNearest] = [229, 231, 232, 233, 106].map(simd);
const [iTrunc, iAdd, iShl] = [248, 174, 171].map(simd);
const f32 = (v) => [0x43, ...new Uint8Array(Float32Array.of(v).buffer)];
const vConst = (v) => [...f32(v), ...splat];
const vZero = [0xfd, 12, ...new Array(16).fill(0)];
const EMPTY = 0x40, END = 0x0b;

// `for (; local < limit; local += step) body` as block/loop.
const loop = (local, limit, step, body) => [
  0x02, EMPTY, 0x03, EMPTY,
  ...get(local), ...get(limit), GE_U, 0x0d, 1,
  ...body,
  ...get(local), ...i32(step), ADD, ...set(local),
  0x0c, 0, END, END,
];
const addr = (base, off) => [...get(base), ...get(off), ADD];

// layer1 params: 0 w, 1 b, 2 x, 3 nIn, 4 nhBytes, 5 h; locals: 6 i, 7 j, 8 row, 9 xi, 10 xv.
const layer1 = [
  ...i32(0), ...set(7),
  ...loop(7, 4, 16, [...addr(5, 7), ...addr(1, 7), ...vLoad, ...vStore]),
  ...get(0), ...set(8),
  ...loop(6, 3, 1, [
    ...get(2), ...get(6), ...i32(2), SHL, ADD, ...f32Load, ...tee(9), ...f32Zero, F32_NE,
    0x04, EMPTY,
    ...get(9), ...splat, ...set(10), ...i32(0), ...set(7),
    ...loop(7, 4, 16, [
      ...addr(5, 7), ...addr(5, 7), ...vLoad, ...addr(8, 7), ...vLoad, ...get(10), ...vMul, ...vAdd,
      ...vStore,
    ]),
    END,
    ...get(8), ...get(4), ADD, ...set(8),
  ]),
  END,
];

// dense params: 0 m, 1 b, 2 v, 3 nvBytes, 4 nOut, 5 out; locals: 6 k, 7 j, 8 row, 9-12 sums.
const part = (s, off) => [
  ...get(s), ...addr(2, 7), 0xfd, 0, 4, ...uleb(off), ...addr(8, 7), 0xfd, 0, 4, ...uleb(off),
  ...vMul, ...vAdd, ...set(s),
];
const lanes = (s) => [
  ...get(s), ...lane(0), ...get(s), ...lane(1), F32_ADD, ...get(s), ...lane(2), ...get(s), ...lane(3),
  F32_ADD, F32_ADD,
];
const dense = [
  ...get(0), ...set(8),
  ...loop(6, 4, 1, [
    ...vZero, ...set(9), ...vZero, ...set(10), ...vZero, ...set(11), ...vZero, ...set(12),
    ...i32(0), ...set(7),
    ...loop(7, 3, 64, [...part(9, 0), ...part(10, 16), ...part(11, 32), ...part(12, 48)]),
    ...get(5), ...get(6), ...i32(2), SHL, ADD,
    ...get(1), ...get(6), ...i32(2), SHL, ADD, ...f32Load,
    ...get(9), ...get(10), ...vAdd, ...get(11), ...get(12), ...vAdd, ...vAdd, ...set(9), ...lanes(9),
    F32_ADD, ...f32Store,
    ...get(8), ...get(3), ADD, ...set(8),
  ]),
  END,
];

// sigmoid params: 0 a, 1 nBytes; locals: 2 j, 3 y (the argument of exp), 4 n, 5 f.
const horner = (coefficients) => coefficients.slice(1).reduce(
  (code, c) => [...code, ...get(5), ...vMul, ...vConst(c), ...vAdd], vConst(coefficients[0]));
const sigmoid = [
  ...i32(0), ...set(2),
  ...loop(2, 1, 16, [
    ...addr(0, 2), ...vConst(1), // where the result goes; the numerator
    ...vConst(0), ...addr(0, 2), ...vLoad, ...vSub, ...vConst(88), ...vMin, ...vConst(-87), ...vMax, ...set(3),
    ...get(3), ...vConst(Math.LOG2E), ...vMul, ...vNearest, ...set(4),
    ...get(3), ...get(4), ...vConst(0.693359375), ...vMul, ...vSub,
    ...get(4), ...vConst(-2.12194440e-4), ...vMul, ...vSub, ...set(5),
    ...horner([1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1,
      5.0000001201e-1]),
    ...get(5), ...get(5), ...vMul, ...vMul, ...get(5), ...vAdd, ...vConst(1), ...vAdd, // e^f
    ...get(4), ...iTrunc, ...i32(127), 0xfd, 17, ...iAdd, ...i32(23), ...iShl, ...vMul, // × 2^n
    ...vConst(1), ...vAdd, ...vDiv, ...vStore,
  ]),
  END,
];

const body = (locals, code) => {
  const b = [...vec(locals.map(([n, t]) => [...uleb(n), t])), ...code];
  return [...uleb(b.length), ...b];
};

// The module, with a memory of `pages` 64 KiB pages (exported as "memory").
export function moduleBytes(pages) {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec(new Array(6).fill([I32])), ...vec([])], [0x60, ...vec([[I32], [I32]]), ...vec([])]])),
    ...section(3, vec([[0], [0], [1]])),
    ...section(5, vec([[0x00, ...uleb(pages)]])),
    ...section(7, vec([[...name("memory"), 2, 0], [...name("layer1"), 0, 0], [...name("dense"), 0, 1], [...name("sigmoid"), 0, 2]])),
    ...section(10, vec([body([[3, I32], [1, F32], [1, V128]], layer1), body([[3, I32], [4, V128]], dense),
      body([[1, I32], [3, V128]], sigmoid)])),
  ]);
}

// An instance with `bytes` bytes of memory, or null where WebAssembly SIMD is not available.
export function instantiate(bytes) {
  if (typeof WebAssembly !== "object") return null;
  const code = moduleBytes(Math.ceil(bytes / 65536));
  try {
    if (!WebAssembly.validate(code)) return null;
    return new WebAssembly.Instance(new WebAssembly.Module(code), {}).exports;
  } catch {
    return null; // e.g. a browser that refuses to compile on this thread
  }
}
