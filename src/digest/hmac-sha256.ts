/**
 * HMAC-SHA-256 (RFC 2104 over FIPS 180-4), on the streaming SHA-256 beside it: a digest only the
 * holder of the key can compute, so a snapshot signed with one is tamper-evident.
 */
import { type Sha256, sha256 } from "./sha256.js";

const BLOCK_BYTES = 64;

function digestBytes(hash: Sha256): Uint8Array {
  const hex = hash.hex();
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The HMAC-SHA-256 of `message` under `key`, as lowercase hex. */
export function hmacSha256Hex(key: Uint8Array, message: Uint8Array): string {
  const blockKey = new Uint8Array(BLOCK_BYTES);
  blockKey.set(key.length > BLOCK_BYTES ? digestBytes(sha256().update(key)) : key);
  const inner = new Uint8Array(BLOCK_BYTES);
  const outer = new Uint8Array(BLOCK_BYTES);
  for (let i = 0; i < BLOCK_BYTES; i++) {
    inner[i] = (blockKey[i] as number) ^ 0x36;
    outer[i] = (blockKey[i] as number) ^ 0x5c;
  }
  const innerDigest = digestBytes(sha256().update(inner).update(message));
  return sha256().update(outer).update(innerDigest).hex();
}
