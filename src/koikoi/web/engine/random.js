// @ts-check
// Python's random.Random, as far as the engine uses it: a seeded deal must give exactly
// the cards the Python engine deals (docs/rules.md §7: records from a seed replay on both).
//
// CPython's generator is MT19937 seeded by init_by_array() from the seed's 32-bit words
// (least significant first); getrandbits(k) takes k bits from 32-bit outputs, least
// significant word first; randrange(n) is _randbelow_with_getrandbits: draw
// n.bit_length() bits until the number is below n; random() is 53 bits from two words.
// Nothing here may change without breaking every stored record.

const N = 624;
const M = 397;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;
const MATRIX_A = 0x9908b0df;
const TWO_32 = 4294967296;

/** A seed, as random.Random takes one: an integer, a number or a BigInt. @typedef {number | bigint} Seed */

/**
 * The 32-bit words of a seed >= 0 (a number or a BigInt), least significant first.
 * @param {Seed} seed
 * @returns {number[]}
 */
export function seedWords(seed) {
  if (typeof seed === "bigint") {
    let n = seed < 0n ? -seed : seed;
    const words = [];
    while (n > 0n) {
      words.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    return words.length ? words : [0];
  }
  if (!Number.isSafeInteger(seed)) throw new TypeError(`not an integer seed: ${seed}`);
  let n = Math.abs(seed);
  const words = [];
  while (n > 0) {
    words.push(n % TWO_32);
    n = Math.floor(n / TWO_32);
  }
  return words.length ? words : [0];
}

export class PyRandom {
  /**
   * ``random.Random(seed)`` for an integer seed (number or BigInt).
   * @param {Seed} seed
   */
  constructor(seed) {
    this.mt = new Uint32Array(N);
    this.index = N;
    this._seedByArray(seedWords(seed));
  }

  /** @param {number} s */
  _initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  /** @param {readonly number[]} key */
  _seedByArray(key) {
    const mt = this.mt;
    this._initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = UPPER;
  }

  _twist() {
    const mt = this.mt;
    let kk = 0;
    for (; kk < N - M; kk++) {
      const y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER);
      mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; kk < N - 1; kk++) {
      const y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER);
      mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (mt[N - 1] & UPPER) | (mt[0] & LOWER);
    mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.index = 0;
  }

  /** One 32-bit output (genrand_uint32), as a number in [0, 2**32). */
  uint32() {
    if (this.index >= N) this._twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** ``random()``: a float in [0, 1) from 53 bits. */
  random() {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /**
   * ``getrandbits(k)`` for k <= 53, as a number.
   * @param {number} k
   * @returns {number}
   */
  getrandbits(k) {
    if (k <= 32) return k === 0 ? 0 : this.uint32() >>> (32 - k);
    if (k > 53) throw new RangeError("getrandbits() returns a number only up to 53 bits");
    const low = this.uint32();
    const high = this.uint32() >>> (64 - k);
    return high * TWO_32 + low;
  }

  /**
   * ``getrandbits(k)`` as 32-bit words, least significant first (as CPython fills them).
   * @param {number} k
   * @returns {number[]}
   */
  getrandwords(k) {
    const words = [];
    for (let left = k; left > 0; left -= 32) {
      const r = this.uint32();
      words.push(left < 32 ? r >>> (32 - left) : r);
    }
    return words;
  }

  /**
   * ``randrange(n)`` for 0 < n <= 2**53 (Python's _randbelow_with_getrandbits).
   * @param {number} n
   * @returns {number}
   */
  randbelow(n) {
    const k = bitLength(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }
}

/**
 * ``int.bit_length()`` of a number >= 0.
 * @param {number} n
 * @returns {number}
 */
export function bitLength(n) {
  if (n < TWO_32) return 32 - Math.clz32(n);
  return 32 + bitLength(Math.floor(n / TWO_32));
}
