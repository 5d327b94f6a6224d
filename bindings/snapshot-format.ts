/**
 * The snapshot file: a text envelope around a JSON body, the same for every model.
 *
 *   statefold-snapshot 5          magic and format version
 *   <sha256 of the body, hex>     so a truncated or edited snapshot is refused, not trusted
 *   {…body…}
 *
 * The body names its model, and holds the SHA-256 of the journal prefix it covers and the
 * kernel's state over the journal's complete lines. A `dag` body: node records, interned paths,
 * node surfaces, the report block, with the DAG or word that it is the header's (the layouts it
 * copies, assembly/dag/state.ts and assembly/dag/audit.ts, are part of the format). An `operations` body: the kernel's state
 * as assembly/operations/snapshot.ts writes it. An `executive` body: the journal's header, the
 * machine's state as an executive snapshot (docs/models/executive.md, "Snapshots" — checked as
 * `restore` checks one) and the report block (assembly/executive/audit.ts). Changing any of them
 * means a new version.
 */

import { sha256 } from "../src/digest/sha256.js";
import { NodeBuffer } from "../src/journal/bytes.js";
import { JournalError } from "../src/journal/errors.js";
import type { DagNode } from "../src/models/dag/dag.js";

export const SNAPSHOT_MAGIC = "statefold-snapshot";
/**
 * 5: a dag body whose DAG is the journal header's says so instead of holding it (the prefix holds
 * the header, and a resume reads it there: parsing 10⁵ nodes out of the body cost more than the
 * rest of a resume); 4: a dag body's paths and surfaces are packed, four base64 strings (3 had a
 * string per path and an array per surface: 10⁵ surfaces took longer to restore than to audit);
 * 3: a body names its model (2 was dag-only); 2: a node's surface may be null, a malformed
 * payload's mark.
 */
export const SNAPSHOT_VERSION = 5;

/** A dag body's `dag` when the DAG is the one the journal's header line carries. */
export const HEADER_DAG = "header";

/** What every body holds: how far the journal was read, and the hash of what was. */
export interface SnapshotPrefix {
  /** Whether the first line was resolved (header or not) and the kernel started. */
  readonly started: boolean;
  readonly headerPending: boolean;
  readonly prefix: { readonly bytes: number; readonly nextLine: number; readonly sha256: string };
}

export type SnapshotBody = DagSnapshotBody | OperationsSnapshotBody | ExecutiveSnapshotBody;

export interface ExecutiveSnapshotBody extends SnapshotPrefix {
  readonly model: "executive";
  /** The journal's first line, its header: the run's spec and budget (the prefix covers it). */
  readonly header: string;
  /** The machine's state over the lines audited, as an executive snapshot's text. */
  readonly machine: string;
  /** Base64 of the report block, its recorded-decision pointers zeroed. */
  readonly report: string;
  /** Each listed mismatch's recorded decision, as the journal spelled it. */
  readonly recorded: readonly string[];
}

export interface OperationsSnapshotBody extends SnapshotPrefix {
  readonly model: "operations";
  /** Base64 of the kernel's state (assembly/operations/snapshot.ts). */
  readonly state: string;
}

export interface DagSnapshotBody extends SnapshotPrefix {
  readonly model: "dag";
  /**
   * The DAG audited against: HEADER_DAG when it is the journal header's (the prefix holds it),
   * else its nodes; null when the journal's first line was not yet seen.
   */
  readonly dag: { readonly nodes: readonly DagNode[] } | typeof HEADER_DAG | null;
  /** Base64 of the node records, 16 bytes per node. */
  readonly nodeRecords: string;
  /** Base64 of every interned path's bytes (WTF-8), one after another in id order. */
  readonly pathBytes: string;
  /** Base64 of a u32 (little-endian) per path: where its bytes end in `pathBytes`. */
  readonly pathEnds: string;
  /**
   * Base64 of a u32 per node: how many path ids its surface holds, or `MALFORMED_SURFACE` when
   * the stored payload is malformed; the ids, u32 each, follow one another in `surfaceIds`.
   */
  readonly surfaceLengths: string;
  readonly surfaceIds: string;
  /** Base64 of the report block, and of the integrity subject it points to. */
  readonly report: string;
  readonly subject: string;
}

/** A surface length that marks a malformed stored payload (no surface can hold 2³² − 1 ids). */
export const MALFORMED_SURFACE = 0xffffffff;

/** u32s as little-endian bytes, whatever the platform's byte order. */
export function u32Bytes(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i] as number, true);
  return bytes;
}

/** Little-endian bytes as u32s; null when their length is no multiple of 4. */
export function u32sOf(bytes: Uint8Array): Uint32Array | null {
  if (bytes.length % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const values = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = view.getUint32(i * 4, true);
  return values;
}

/** The snapshot file's head: magic, version, the body's SHA-256 in hex; always this long. */
const HEAD_BYTES = `${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${"0".repeat(64)}\n`.length;

/**
 * The snapshot file: its head and the body's JSON. The body is encoded after room left for the
 * head — a body is megabytes, and copying it into place cost as much as encoding it — and in Node
 * a body of ASCII (any whose DAG ids are; the base64 fields always) is copied in as Latin-1,
 * which needs no UTF-8 encoding.
 */
export function encodeSnapshot(body: SnapshotBody): Uint8Array {
  const json = JSON.stringify(body);
  let bytes: Uint8Array;
  if (NodeBuffer !== undefined && NodeBuffer.byteLength(json, "utf8") === json.length) {
    const buffer = NodeBuffer.allocUnsafe(HEAD_BYTES + json.length);
    buffer.write(json, HEAD_BYTES, "latin1");
    bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  } else {
    const encoded = new TextEncoder().encode(json);
    bytes = new Uint8Array(HEAD_BYTES + encoded.length);
    bytes.set(encoded, HEAD_BYTES);
  }
  const digest = sha256().update(bytes.subarray(HEAD_BYTES)).hex();
  new TextEncoder().encodeInto(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${digest}\n`, bytes);
  return bytes;
}

const LF = 0x0a;

/**
 * The body of a snapshot, or a `JournalError` naming `file` and what is wrong with it. The
 * caller checks that the body's model is the journal's (`snapshotOfModel`).
 */
export function decodeSnapshot(bytes: Uint8Array, file: string): SnapshotBody {
  const refuse = (why: string) => new JournalError(file, `refusing the snapshot: ${why}`);
  const firstBreak = bytes.indexOf(LF);
  const secondBreak = firstBreak < 0 ? -1 : bytes.indexOf(LF, firstBreak + 1);
  let head: string;
  let json: string;
  try {
    const strict = new TextDecoder("utf-8", { fatal: true });
    head = strict.decode(bytes.subarray(0, secondBreak < 0 ? bytes.length : secondBreak));
    json = secondBreak < 0 ? "" : strict.decode(bytes.subarray(secondBreak + 1));
  } catch {
    throw refuse("it is not a statefold snapshot (not UTF-8 text)");
  }
  const [magic, version] = head.slice(0, Math.max(head.indexOf("\n"), 0)).split(" ");
  if (firstBreak < 0 || magic !== SNAPSHOT_MAGIC) throw refuse("it is not a statefold snapshot");
  if (version !== String(SNAPSHOT_VERSION)) {
    throw refuse(
      `expected format version ${SNAPSHOT_VERSION}, found ${JSON.stringify(version)}; audit the whole journal again`,
    );
  }
  if (secondBreak < 0) throw refuse("it is truncated");
  const digest = head.slice(head.indexOf("\n") + 1);
  if (
    sha256()
      .update(bytes.subarray(secondBreak + 1))
      .hex() !== digest
  ) {
    throw refuse("its checksum does not match its content: it was truncated or edited");
  }
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw refuse("its content is not the JSON its checksum promised");
  }
  const model = (body as { model?: unknown } | null)?.model;
  if (model !== "dag" && model !== "operations" && model !== "executive") {
    throw refuse("it names no model statefold has");
  }
  return body as SnapshotBody;
}

const BASE64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT_CODES = new TextEncoder().encode(BASE64_DIGITS);
const DIGIT_VALUES = new Int16Array(128).fill(-1);
for (const [value, code] of DIGIT_CODES.entries()) DIGIT_VALUES[code] = value;
const PAD = 0x3d; // "="

/** Padded base64 as `fromBase64` accepts it: Buffer's own decoder skips what is not base64. */
const PADDED_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Base64 (RFC 4648, padded) of the bytes: Node's Buffer codes it several times faster than the
 * typed-array code below (a resumed gate over a 10⁵-node DAG decodes and encodes ~30 MB of it).
 */
export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer === undefined) return toBase64Portable(bytes);
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}

/**
 * The bytes of padded base64, in an array of their own; a character outside the alphabet or a
 * wrong length is an error.
 */
export function fromBase64(text: string): Uint8Array {
  if (NodeBuffer === undefined) return fromBase64Portable(text);
  if (text.length % 4 !== 0) throw new Error("base64 of a length that is not a multiple of 4");
  if (!PADDED_BASE64.test(text)) throw new Error("a character that is not base64");
  // A copy: a small Buffer is a view into a pool shared with others.
  return new Uint8Array(NodeBuffer.from(text, "base64"));
}

/**
 * Base64 (RFC 4648, padded) in one pass over typed arrays, where there is no Buffer (a browser):
 * a snapshot of a large DAG is tens of megabytes, and `btoa` over a string built from char codes
 * ran at a few MB/s.
 */
export function toBase64Portable(bytes: Uint8Array): string {
  const out = new Uint8Array(4 * Math.ceil(bytes.length / 3));
  let at = 0;
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const word =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[at++] = DIGIT_CODES[word >> 18] as number;
    out[at++] = DIGIT_CODES[(word >> 12) & 63] as number;
    out[at++] = DIGIT_CODES[(word >> 6) & 63] as number;
    out[at++] = DIGIT_CODES[word & 63] as number;
  }
  const left = bytes.length - i;
  if (left > 0) {
    const word = ((bytes[i] as number) << 16) | (left === 2 ? (bytes[i + 1] as number) << 8 : 0);
    out[at++] = DIGIT_CODES[word >> 18] as number;
    out[at++] = DIGIT_CODES[(word >> 12) & 63] as number;
    out[at++] = left === 2 ? (DIGIT_CODES[(word >> 6) & 63] as number) : PAD;
    out[at++] = PAD;
  }
  return new TextDecoder().decode(out);
}

/** `fromBase64` where there is no Buffer. */
export function fromBase64Portable(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error("base64 of a length that is not a multiple of 4");
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    let word = 0;
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      const value = code === PAD && i + j >= text.length - padding ? 0 : (DIGIT_VALUES[code] ?? -1);
      if (value < 0) throw new Error("a character that is not base64");
      word = (word << 6) | value;
    }
    bytes[at++] = word >> 16;
    if (at < bytes.length) bytes[at++] = (word >> 8) & 255;
    if (at < bytes.length) bytes[at++] = word & 255;
  }
  return bytes;
}

/** The body when it is a snapshot of a journal of `model`; else a `JournalError` saying whose it is. */
export function snapshotOfModel<M extends SnapshotBody["model"]>(
  body: SnapshotBody,
  model: M,
  file: string,
): Extract<SnapshotBody, { model: M }> {
  if (body.model !== model) {
    throw new JournalError(
      file,
      `refusing the snapshot: it is a snapshot of ${withArticle(body.model)} journal, and this is ${withArticle(model)} journal`,
    );
  }
  return body as Extract<SnapshotBody, { model: M }>;
}

function withArticle(model: SnapshotBody["model"]): string {
  return model === "dag" ? "a dag" : `an ${model}`;
}
