// @ts-check
// The error function, as the expert's match value needs it (expert.py's normal_cdf),
// computed as Python computes it, to the last bit.
//
// JavaScript has no Math.erf. Python's math.erf is the C library's; with glibc (up to
// 2.40 at least) that is fdlibm's s_erf.c as glibc arranges it (Shimizu's pipelined
// polynomial order), ported here operation for operation. Its tail calls exp(), and
// V8's Math.exp is fdlibm's while glibc's is the table-driven exp of Arm's
// optimized-routines; the two differ in the last bit for about one argument in ten,
// which moved erf for about one argument in ten thousand. So exp is ported too: the
// same 128-entry table (2**(k/128) rounded, and the rounded relative error of that, both
// worked out exactly), the same reduction and polynomial, and the fused multiply-adds
// that glibc's x86-64 build uses where the CPU has FMA (as every x86-64 CPU of the last
// decade and every arm64 one does), here computed exactly with BigInt. Against
// CPython 3.11 on glibc 2.36 the two agree on every argument tried (see
// tests/test_js_players.py). Elsewhere (macOS's libm, a CPU without FMA, glibc's later
// correctly rounded erf) Python's own result differs in rare last bits, and so may this.
//
// fdlibm: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed
// at SunPro, a Sun Microsystems, Inc. business. Permission to use, copy, modify, and
// distribute this software is freely granted, provided that this notice is preserved.

const ERX = 8.45062911510467529297e-1;
const EFX = 1.28379167095512586316e-1;
const PP = [
  1.28379167095512558561e-1, -3.25042107247001499370e-1, -2.84817495755985104766e-2,
  -5.77027029648944159157e-3, -2.37630166566501626084e-5,
];
const QQ = [
  0.0, 3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3,
  1.32494738004321644526e-4, -3.96022827877536812320e-6,
];
const PA = [
  -2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1,
  3.18346619901161753674e-1, -1.10894694282396677476e-1, 3.54783043256182359371e-2,
  -2.16637559486879084300e-3,
];
const QA = [
  0.0, 1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2,
  1.26171219808761642112e-1, 1.36370839120290507362e-2, 1.19844998467991074170e-2,
];
const RA = [
  -9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1,
  -6.23753324503260060396e1, -1.62396669462573470355e2, -1.84605092906711035994e2,
  -8.12874355063065934246e1, -9.81432934416914548592,
];
const SA = [
  0.0, 1.96512716674392571292e1, 1.37657754143519042600e2, 4.34565877475229228821e2,
  6.45387271733267880336e2, 4.29008140027567833386e2, 1.08635005541779435134e2,
  6.57024977031928170135, -6.04244152148580987438e-2,
];
const RB = [
  -9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1,
  -1.60636384855821916062e2, -6.37566443368389627722e2, -1.02509513161107724954e3,
  -4.83519191608651397019e2,
];
const SB = [
  0.0, 3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3,
  3.19985821950859553908e3, 2.55305040643316442583e3, 4.74528541206955367215e2,
  -2.24409524465858183362e1,
];
const TINY = 1e-300;

const WORDS = new DataView(new ArrayBuffer(8));

/** @param {number} x */
function highWord(x) {
  WORDS.setFloat64(0, x);
  return WORDS.getInt32(0);
}

/**
 * ``x`` with the low 32 bits of its representation cleared (SET_LOW_WORD(z, 0)).
 * @param {number} x
 */
function lowWordCleared(x) {
  WORDS.setFloat64(0, x);
  WORDS.setUint32(4, 0);
  return WORDS.getFloat64(0);
}

/**
 * erf(x), as glibc's s_erf.c computes it.
 * @param {number} x
 * @returns {number}
 */
export function erf(x) {
  const hx = highWord(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x7ff00000) {
    // erf(nan) = nan, erf(+-inf) = +-1
    return Number.isNaN(x) ? x : x > 0 ? 1 : -1;
  }
  if (ix < 0x3feb0000) {
    // |x| < 0.84375
    if (ix < 0x3e300000) {
      // |x| < 2**-28
      if (ix < 0x00800000) return 0.0625 * (16.0 * x + 16.0 * EFX * x);
      return x + EFX * x;
    }
    const z = x * x;
    const r1 = PP[0] + z * PP[1];
    const z2 = z * z;
    const r2 = PP[2] + z * PP[3];
    const z4 = z2 * z2;
    const s1 = 1 + z * QQ[1];
    const s2 = QQ[2] + z * QQ[3];
    const s3 = QQ[4] + z * QQ[5];
    const r = r1 + z2 * r2 + z4 * PP[4];
    const s = s1 + z2 * s2 + z4 * s3;
    const y = r / s;
    return x + x * y;
  }
  if (ix < 0x3ff40000) {
    // 0.84375 <= |x| < 1.25
    const s = Math.abs(x) - 1;
    const P1 = PA[0] + s * PA[1];
    const s2 = s * s;
    const Q1 = 1 + s * QA[1];
    const s4 = s2 * s2;
    const P2 = PA[2] + s * PA[3];
    const s6 = s4 * s2;
    const Q2 = QA[2] + s * QA[3];
    const P3 = PA[4] + s * PA[5];
    const Q3 = QA[4] + s * QA[5];
    const P = P1 + s2 * P2 + s4 * P3 + s6 * PA[6];
    const Q = Q1 + s2 * Q2 + s4 * Q3 + s6 * QA[6];
    return hx >= 0 ? ERX + P / Q : -ERX - P / Q;
  }
  if (ix >= 0x40180000) {
    // |x| >= 6
    return hx >= 0 ? 1 - TINY : TINY - 1;
  }
  const ax = Math.abs(x);
  const s = 1 / (ax * ax);
  let R;
  let S;
  if (ix < 0x4006db6e) {
    // |x| < 1/0.35
    const R1 = RA[0] + s * RA[1];
    const s2 = s * s;
    const S1 = 1 + s * SA[1];
    const s4 = s2 * s2;
    const R2 = RA[2] + s * RA[3];
    const s6 = s4 * s2;
    const S2 = SA[2] + s * SA[3];
    const s8 = s4 * s4;
    const R3 = RA[4] + s * RA[5];
    const S3 = SA[4] + s * SA[5];
    const R4 = RA[6] + s * RA[7];
    const S4 = SA[6] + s * SA[7];
    R = R1 + s2 * R2 + s4 * R3 + s6 * R4;
    S = S1 + s2 * S2 + s4 * S3 + s6 * S4 + s8 * SA[8];
  } else {
    // |x| >= 1/0.35
    const R1 = RB[0] + s * RB[1];
    const s2 = s * s;
    const S1 = 1 + s * SB[1];
    const s4 = s2 * s2;
    const R2 = RB[2] + s * RB[3];
    const s6 = s4 * s2;
    const S2 = SB[2] + s * SB[3];
    const R3 = RB[4] + s * RB[5];
    const S3 = SB[4] + s * SB[5];
    const S4 = SB[6] + s * SB[7];
    R = R1 + s2 * R2 + s4 * R3 + s6 * RB[6];
    S = S1 + s2 * S2 + s4 * S3 + s6 * S4;
  }
  const z = lowWordCleared(ax);
  const r = exp(-z * z - 0.5625) * exp((z - ax) * (z + ax) + R / S);
  return hx >= 0 ? 1 - r / ax : r / ax - 1;
}

// -- exp, as glibc computes it ---------------------------------------------------------

const N = 128;
const INV_LN2_N = 1.4426950408889634 * N; // 0x1.71547652b82fep0 * N
const NEG_LN2_HI_N = -0.005415212348111709; // -0x1.62e42fefa0000p-8
const NEG_LN2_LO_N = -1.2864023111638346e-14; // -0x1.cf79abc9e3b3ap-47
const SHIFT = 6755399441055744; // 0x1.8p52: adding it rounds to an integer
const C2 = 0.49999999999996786; // 0x1.ffffffffffdbdp-2
const C3 = 0.16666666666665886; // 0x1.555555555543cp-3
const C4 = 0.0416666808410674; // 0x1.55555cf172b91p-5
const C5 = 0.008333335853059549; // 0x1.1111167a4d017p-7

// 2**(k/128) ~= SCALES[k] * (1 + TAILS[k]): SCALES[k] is 2**(k/128) rounded to a
// double, TAILS[k] the rounded 2**(k/128) / SCALES[k] - 1 (both worked out with exact
// integer arithmetic; they are the values of glibc's __exp_data.tab).
const SCALES = [
  1.0, 1.0054299011128027, 1.0108892860517005, 1.016378314910953, 1.0218971486541166,
  1.0274459491187637, 1.0330248790212284, 1.0386341019613787, 1.0442737824274138,
  1.0499440858006872, 1.0556451783605572, 1.061377227289262, 1.0671404006768237,
  1.0729348675259756, 1.0787607977571199, 1.0846183622133092, 1.0905077326652577,
  1.0964290818163769, 1.102382583307841, 1.1083684117236787, 1.1143867425958924,
  1.1204377524096067, 1.1265216186082418, 1.1326385195987192, 1.1387886347566916,
  1.1449721444318042, 1.1511892299529827, 1.1574400736337511, 1.1637248587775775,
  1.1700437696832502, 1.1763969916502812, 1.182784710984341, 1.189207115002721,
  1.1956643920398273, 1.202156731452703, 1.2086843236265816, 1.215247359980469,
  1.2218460329727576, 1.22848053610687, 1.2351510639369334, 1.241857812073484,
  1.2486009771892048, 1.255380757024691, 1.2621973503942507, 1.2690509571917332,
  1.275941778396392, 1.2828700160787783, 1.2898358734066657, 1.2968395546510096,
  1.3038812651919358, 1.3109612115247644, 1.318079601266064, 1.3252366431597413,
  1.3324325470831615, 1.339667524053303, 1.3469417862329458, 1.3542555469368927,
  1.3616090206382248, 1.3690024229745905, 1.3764359707545302, 1.383909881963832,
  1.3914243757719262, 1.3989796725383112, 1.4065759938190154, 1.4142135623730951,
  1.4218926021691656, 1.42961333839197, 1.4373759974489824, 1.4451808069770467,
  1.4530279958490526, 1.460917794180647, 1.4688504333369818, 1.4768261459394993,
  1.4848451658727524, 1.4929077282912648, 1.5010140696264256, 1.5091644275934228,
  1.5173590411982147, 1.5255981507445384, 1.533881997840956, 1.5422108254079407, 1.550584877685,
  1.559004400237837, 1.567469639965553, 1.5759808451078865, 1.5845382652524937,
  1.593142151342267, 1.6017927556826934, 1.6104903319492543, 1.6192351351948637,
  1.6280274218573478, 1.6368674497669644, 1.645755478153965, 1.6546917676561943,
  1.6636765803267364, 1.6727101796415966, 1.681792830507429, 1.6909247992693053,
  1.7001063537185235, 1.709337763100463, 1.718619298122478, 1.7279512309618377,
  1.7373338352737062, 1.746767386199169, 1.7562521603732995, 1.7657884359332727,
  1.7753764925265212, 1.785016611318935, 1.7947090750031072, 1.804454167806624,
  1.8142521755003989, 1.8241033854070534, 1.8340080864093424, 1.843966568958626,
  1.8539791250833855, 1.864046048397789, 1.8741676341103, 1.8843441790323345,
  1.8945759815869656, 1.9048633418176741, 1.9152065613971474, 1.925605943636125,
  1.9360617934922943, 1.9465744175792332, 1.9571441241754002, 1.9677712232331759,
  1.978456026387951, 1.9891988469672663,
];
const TAILS = [
  0.0, 9.447885451727066e-17, -1.507066976926039e-17, -5.679155082825012e-17,
  4.9997448722726326e-17, -4.823683599994895e-17, 7.357846871247418e-18, 5.773230223741951e-17,
  8.189317638195515e-17, 5.326891139980878e-17, 1.6665881442326747e-18, -1.128113245461828e-17,
  -7.402825309426177e-17, -3.578659767309563e-18, -6.170654745608695e-17, 2.919139999949279e-17,
  -2.7939114859515733e-17, -5.399285355184285e-17, 4.776959425256223e-17,
  -7.927701432338473e-17, 9.341710609905046e-17, -5.534520675707472e-17, 4.585670326662351e-17,
  2.8582430411116143e-17, 7.826573258636076e-17, 4.053626906769216e-17, 2.823784425951061e-17,
  -7.882802262487991e-17, 3.2904726646008416e-17, -1.5792094703347882e-18,
  4.721368121170128e-17, 1.3045277096919659e-17, 3.3484623336251524e-17, 3.8611199774925664e-17,
  5.527550048505249e-17, -3.927184172445234e-17, -6.346552106729483e-17, -8.684417614865944e-17,
  -1.5456342819397733e-17, -8.70763476495455e-17, 3.750854201303127e-17, -6.616854503526488e-17,
  -5.346099009198751e-18, -2.443726321015018e-17, 2.1023049675215714e-18, 7.771067937501065e-17,
  1.3357510088834541e-17, 6.938291696959204e-17, 1.9572585293112036e-17, 6.632256961675804e-17,
  -5.478069123926778e-17, -4.140839310392624e-17, -2.1571477251208752e-17,
  -3.8287766552120535e-17, 6.663804589232195e-17, 2.3936187400285282e-17, 5.68648095791174e-17,
  1.1264523354521684e-18, 7.007875046906994e-17, -5.0119214278381254e-17,
  -4.8923067513522756e-17, -3.5260089953269434e-17, -6.872303720902018e-17,
  5.001446664133532e-18, -6.835808657661922e-17, -1.1307344092910212e-17,
  -8.416011634717156e-18, -2.9247977035436566e-17, -2.092304381843353e-17,
  -3.9778645875427124e-17, -3.833464968654295e-17, 5.763611164480894e-17,
  -2.3591094770850053e-17, 7.260074661098575e-17, 9.50689710108796e-18, -4.272956133839906e-17,
  -6.735219232374683e-17, -2.8396044410430936e-17, -7.226635472101257e-17,
  5.786121003395918e-17, 5.1548301170786783e-17, -9.416257568878152e-18, 2.4253985766689806e-17,
  -6.604314051707707e-17, -6.432131775424189e-18, -1.2204007601863921e-17,
  -6.336161863401293e-17, -3.7800879246373815e-17, 1.5341410053603723e-17,
  1.2932855580427452e-17, -4.123367330661149e-17, 4.703083974463456e-17, -6.152602891550265e-17,
  5.827849326195279e-17, 3.540948262646183e-17, -3.2741571320938764e-17, 4.875160526227062e-17,
  -5.718569790077838e-17, -4.719539664590972e-18, -5.773451958805706e-17,
  -1.0772487078934056e-17, -6.221808618533911e-17, 1.821405440362259e-17,
  -6.155536546227639e-17, 1.685487290628973e-17, 5.3581249177694816e-17, 3.621615935336894e-17,
  8.588379527574144e-18, 1.01562190116415e-17, -2.869134889187244e-17, -5.495118966122005e-17,
  -5.56965572431627e-17, 1.790126907604513e-17, -3.2211766346200164e-17, 5.265370768556274e-17,
  3.5089866402403033e-17, -3.266924100901318e-17, -4.3657593008079375e-17,
  1.7963932659833022e-17, 3.4300925275214166e-17, -5.545065618639427e-17,
  -5.149009745457733e-17, 5.336805878514151e-17, 3.498978661192973e-17, 4.5784915277060095e-17,
  -5.241934575393899e-17, 2.0414278897578303e-17, 4.124842848606488e-18,
];

/**
 * 2**e as a double, for -1022 <= e <= 1023 (exact: built from its bits).
 * @param {number} e
 */
function pow2(e) {
  WORDS.setUint32(0, (e + 1023) << 20);
  WORDS.setUint32(4, 0);
  return WORDS.getFloat64(0);
}

const TWO_M54 = 5.551115123125783e-17; // 2**-54

/**
 * exp(x) as glibc's exp computes it with FMA (the ifunc x86-64 picks on an FMA CPU).
 * Outside |x| < 512 (never met by erf, whose arguments stay within -37 and 1) it falls
 * back to Math.exp, which may differ in the last bit.
 * @param {number} x
 * @returns {number}
 */
export function exp(x) {
  const ax = Math.abs(x);
  if (!(ax < 512)) return Math.exp(x);
  if (ax < TWO_M54) return 1.0 + x;
  const z = INV_LN2_N * x;
  const kd = z + SHIFT - SHIFT; // round(z): z + Shift is exact to the integer
  const r = fma(kd, NEG_LN2_LO_N, fma(kd, NEG_LN2_HI_N, x));
  const k = kd; // |k| < 2**17
  const idx = k & (N - 1);
  const scale = SCALES[idx] * pow2(k >> 7);
  const tail = TAILS[idx];
  const r2 = r * r;
  const tmp = fma(r2 * r2, fma(r, C5, C4), fma(r2, fma(r, C3, C2), tail + r));
  return fma(scale, tmp, scale);
}

// -- a fused multiply-add, exactly -----------------------------------------------------

/**
 * [m, e] with x = m * 2**e exactly, m a BigInt (x finite).
 * @param {number} x
 * @returns {[bigint, number]}
 */
function decompose(x) {
  WORDS.setFloat64(0, x);
  const hi = WORDS.getUint32(0);
  const lo = WORDS.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (biased) {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return [hi >>> 31 ? -m : m, e];
}

/**
 * m * 2**e rounded once to the nearest double (ties to even); normal results only.
 * @param {bigint} m
 * @param {number} e
 */
function roundScaled(m, e) {
  const negative = m < 0n;
  let a = negative ? -m : m;
  // Keep at most 72 bits, folding the rest into a sticky bit: Number() then rounds
  // correctly, since the 53 bits kept and the rounding bits are all still there.
  const bits = a.toString(16).length * 4;
  if (bits > 72) {
    const shift = BigInt(bits - 72);
    const sticky = (a & ((1n << shift) - 1n)) !== 0n;
    a = (a >> shift) | (sticky ? 1n : 0n);
    e += bits - 72;
  }
  // Two exact scalings, each by a power of two within the double range.
  const half = Math.trunc(e / 2);
  const value = Number(a) * pow2(half) * pow2(e - half);
  return negative ? -value : value;
}

/**
 * a * b + c with one rounding, as C's fma(); finite, normal results only.
 * @param {number} a
 * @param {number} b
 * @param {number} c
 * @returns {number}
 */
export function fma(a, b, c) {
  const product = a * b;
  if (product === 0 || c === 0 || !Number.isFinite(product) || !Number.isFinite(c)) {
    // The product or the addend is zero (then one rounding is the usual one), or the
    // arithmetic is already out of the range this serves.
    return product + c;
  }
  const [ma, ea] = decompose(a);
  const [mb, eb] = decompose(b);
  const [mc, ec] = decompose(c);
  const mp = ma * mb;
  const ep = ea + eb;
  const e = Math.min(ep, ec);
  const sum = (mp << BigInt(ep - e)) + (mc << BigInt(ec - e));
  if (sum === 0n) return 0;
  return roundScaled(sum, e);
}

// -- the normal distribution -----------------------------------------------------------

const SQRT2 = Math.sqrt(2.0);
/** @type {Map<number, number>} */
const CDF = new Map();
const CDF_CACHE = 1 << 16;

/**
 * expert.py's normal_cdf: 0.5 * (1 + erf(x / sqrt(2))), remembered per argument.
 * @param {number} x
 * @returns {number}
 */
export function normalCdf(x) {
  let value = CDF.get(x);
  if (value === undefined) {
    value = 0.5 * (1.0 + erf(x / SQRT2));
    if (CDF.size >= CDF_CACHE) CDF.clear();
    CDF.set(x, value);
  }
  return value;
}
