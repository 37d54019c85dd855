/**
 * hash_to_curve for G2 with the suite BLS12381G2_XMD:SHA-256_SSWU_RO_ (RFC 9380 §8.8.2),
 * parameterised by the domain separation tag. blst does the same internally, but only for the
 * signature DST; the proof of possession needs `BLS_POP_…`. Constants of the 3-isogeny are
 * those of RFC 9380 Appendix E.3.
 */
import { createHash } from 'node:crypto';
import { P, fp2, fp2Add, fp2Inv, fp2IsZero, fp2Mul, fp2Neg, fp2Sgn0, fp2Sqr, fp2Sqrt, type Fp2 } from './field.js';
import { ABS_X } from './field.js';
import { g2Add, g2Double, g2FromAffine, g2Multiply, g2Negate, g2Psi, type G2Affine, type G2Jacobian } from './g2.js';
import { InvariantError } from '../../errors.js';

const SHA256_BYTES = 32;
const SHA256_BLOCK_BYTES = 64;
/** L = ceil((ceil(log2(p)) + k) / 8) with k = 128. */
const FIELD_ELEMENT_BYTES = 64;

/** expand_message_xmd with SHA-256 (RFC 9380 §5.3.1). */
export function expandMessageXmd(message: Uint8Array, dst: Uint8Array, lengthInBytes: number): Buffer {
  const ell = Math.ceil(lengthInBytes / SHA256_BYTES);
  if (ell > 255 || lengthInBytes > 65535 || dst.length > 255) {
    throw new RangeError('expand_message_xmd: output or DST too long');
  }
  const dstPrime = Buffer.concat([dst, Buffer.of(dst.length)]);
  const b0 = createHash('sha256')
    .update(Buffer.alloc(SHA256_BLOCK_BYTES))
    .update(message)
    .update(Buffer.of(lengthInBytes >> 8, lengthInBytes & 0xff, 0))
    .update(dstPrime)
    .digest();
  const out = Buffer.alloc(ell * SHA256_BYTES);
  let previous = createHash('sha256').update(b0).update(Buffer.of(1)).update(dstPrime).digest();
  previous.copy(out, 0);
  for (let i = 2; i <= ell; i++) {
    const mixed = Buffer.alloc(SHA256_BYTES);
    for (let j = 0; j < SHA256_BYTES; j++) mixed[j] = b0[j]! ^ previous[j]!;
    previous = createHash('sha256').update(mixed).update(Buffer.of(i)).update(dstPrime).digest();
    previous.copy(out, (i - 1) * SHA256_BYTES);
  }
  return out.subarray(0, lengthInBytes);
}

function bytesToBigint(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')}`);
}

/** hash_to_field with count = 2 elements of Fp2 (RFC 9380 §5.2). */
export function hashToFieldFp2(message: Uint8Array, dst: Uint8Array): [Fp2, Fp2] {
  const uniform = expandMessageXmd(message, dst, 4 * FIELD_ELEMENT_BYTES);
  const element = (i: number): bigint => bytesToBigint(uniform.subarray(i * FIELD_ELEMENT_BYTES, (i + 1) * FIELD_ELEMENT_BYTES)) % P;
  return [
    [element(0), element(1)],
    [element(2), element(3)],
  ];
}

// E2': y² = x³ + A'x + B', 3-isogenous to E2; Z = −(2 + u).
const ISO_A: Fp2 = [0n, 240n];
const ISO_B: Fp2 = [1012n, 1012n];
const SSWU_Z: Fp2 = fp2(-2n, -1n);

function isoCurveRhs(x: Fp2): Fp2 {
  return fp2Add(fp2Add(fp2Mul(fp2Sqr(x), x), fp2Mul(ISO_A, x)), ISO_B);
}

/** Simplified SWU onto E2' (RFC 9380 §6.6.2), straightforward (not constant-time) form. */
export function mapToIsoCurve(u: Fp2): G2Affine {
  const zu2 = fp2Mul(SSWU_Z, fp2Sqr(u));
  const denominator = fp2Add(fp2Sqr(zu2), zu2);
  let x1: Fp2;
  if (fp2IsZero(denominator)) {
    x1 = fp2Mul(ISO_B, fp2Inv(fp2Mul(SSWU_Z, ISO_A)));
  } else {
    const minusBOverA = fp2Neg(fp2Mul(ISO_B, fp2Inv(ISO_A)));
    x1 = fp2Mul(minusBOverA, fp2Add([1n, 0n], fp2Inv(denominator)));
  }
  let x = x1;
  let y = fp2Sqrt(isoCurveRhs(x1));
  if (y === undefined) {
    x = fp2Mul(zu2, x1);
    y = fp2Sqrt(isoCurveRhs(x));
    if (y === undefined) throw new InvariantError('SSWU: no square root (unreachable for valid constants)');
  }
  if (fp2Sgn0(u) !== fp2Sgn0(y)) y = fp2Neg(y);
  return { x, y };
}

const c = (re: string, im: string): Fp2 => [BigInt(re), BigInt(im)];
// RFC 9380 Appendix E.3, k_(i,j) as (c0, c1).
const X_NUM: readonly Fp2[] = [
  c(
    '0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6',
    '0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6',
  ),
  c('0x0', '0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71a'),
  c(
    '0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71e',
    '0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38d',
  ),
  c('0x171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1', '0x0'),
];
const X_DEN: readonly Fp2[] = [
  c('0x0', '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa63'),
  c('0xc', '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa9f'),
  c('0x1', '0x0'),
];
const Y_NUM: readonly Fp2[] = [
  c(
    '0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706',
    '0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706',
  ),
  c('0x0', '0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97be'),
  c(
    '0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71c',
    '0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38f',
  ),
  c('0x124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10', '0x0'),
];
const Y_DEN: readonly Fp2[] = [
  c(
    '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb',
    '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb',
  ),
  c('0x0', '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa9d3'),
  c('0x12', '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99'),
  c('0x1', '0x0'),
];

/** Horner evaluation of Σ coefficients[i]·x^i. */
function evaluate(coefficients: readonly Fp2[], x: Fp2): Fp2 {
  let acc = coefficients[coefficients.length - 1]!;
  for (let i = coefficients.length - 2; i >= 0; i--) acc = fp2Add(fp2Mul(acc, x), coefficients[i]!);
  return acc;
}

/** The 3-isogeny E2' → E2. Exceptional inputs (a zero denominator) map to infinity. */
export function isoMap(p: G2Affine): G2Jacobian {
  const xDen = evaluate(X_DEN, p.x);
  const yDen = evaluate(Y_DEN, p.x);
  if (fp2IsZero(xDen) || fp2IsZero(yDen)) return { x: [1n, 0n], y: [1n, 0n], z: [0n, 0n] };
  const x = fp2Mul(evaluate(X_NUM, p.x), fp2Inv(xDen));
  const y = fp2Mul(p.y, fp2Mul(evaluate(Y_NUM, p.x), fp2Inv(yDen)));
  return g2FromAffine({ x, y });
}

/** h_eff of RFC 9380 §8.8.2: multiplying by it maps E2 into G2 (the order-r subgroup). */
export const H_EFF =
  0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551n;

/** [x]P for the (negative) BLS parameter x. */
function multiplyByX(p: G2Jacobian): G2Jacobian {
  return g2Negate(g2Multiply(p, ABS_X));
}

/**
 * clear_cofactor, i.e. [h_eff]P, computed with the endomorphism ψ (RFC 9380 Appendix G.3,
 * after Budroni–Pintore): [x² − x − 1]P + [x − 1]ψ(P) + ψ²([2]P). About five times faster than
 * multiplying by the 636-bit h_eff; the unit tests check both agree.
 */
export function clearCofactorG2(p: G2Jacobian): G2Jacobian {
  const t1 = multiplyByX(p);
  const t2 = g2Psi(p);
  let t3 = g2Add(g2Psi(g2Psi(g2Double(p))), g2Negate(t2));
  t3 = g2Add(t3, multiplyByX(g2Add(t1, t2)));
  t3 = g2Add(t3, g2Negate(t1));
  return g2Add(t3, g2Negate(p));
}

/** hash_to_curve(msg) for G2 with the given DST: a point of G2 in Jacobian form. */
export function hashToG2(message: Uint8Array, dst: Uint8Array): G2Jacobian {
  const [u0, u1] = hashToFieldFp2(message, dst);
  const q0 = isoMap(mapToIsoCurve(u0));
  const q1 = isoMap(mapToIsoCurve(u1));
  return clearCofactorG2(g2Add(q0, q1));
}
