/**
 * The snapshot file: a text envelope around a JSON body, the same for every model.
 *
 *   statefold-snapshot 3          magic and format version
 *   <sha256 of the body, hex>     so a truncated or edited snapshot is refused, not trusted
 *   {…body…}
 *
 * The body names its model, and holds the SHA-256 of the journal prefix it covers and the
 * kernel's state over the journal's complete lines. A `dag` body: node records, interned paths,
 * node surfaces, the report block, with the DAG (the layouts it copies, assembly/dag/state.ts
 * and assembly/dag/audit.ts, are part of the format). An `operations` body: the kernel's state
 * as assembly/operations/snapshot.ts writes it. An `executive` body: the journal's header, the
 * machine's state as an executive snapshot (docs/models/executive.md, "Snapshots" — checked as
 * `restore` checks one) and the report block (assembly/executive/audit.ts). Changing any of them
 * means a new version.
 */

import { sha256 } from "../src/digest/sha256.js";
import { JournalError } from "../src/journal/errors.js";
import type { DagNode } from "../src/models/dag/dag.js";

export const SNAPSHOT_MAGIC = "statefold-snapshot";
/**
 * 3: a body names its model (2 was dag-only); 2: a node's surface may be null, a malformed
 * payload's mark (1 had no such mark).
 */
export const SNAPSHOT_VERSION = 3;

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
  /** The DAG audited against; null when the journal's first line was not yet seen. */
  readonly dag: { readonly nodes: readonly DagNode[] } | null;
  /** Base64 of the node records, 16 bytes per node. */
  readonly nodeRecords: string;
  /** Base64 of each interned path's bytes (WTF-8), in id order. */
  readonly paths: readonly string[];
  /** Per node, its surface as path ids; null when the stored payload is malformed. */
  readonly surfaces: readonly (readonly number[] | null)[];
  /** Base64 of the report block, and of the integrity subject it points to. */
  readonly report: string;
  readonly subject: string;
}

export function encodeSnapshot(body: SnapshotBody): Uint8Array {
  const json = JSON.stringify(body);
  const digest = sha256().update(new TextEncoder().encode(json)).hex();
  return new TextEncoder().encode(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${digest}\n${json}`);
}

/**
 * The body of a snapshot, or a `JournalError` naming `file` and what is wrong with it. The
 * caller checks that the body's model is the journal's (`snapshotOfModel`).
 */
export function decodeSnapshot(bytes: Uint8Array, file: string): SnapshotBody {
  const refuse = (why: string) => new JournalError(file, `refusing the snapshot: ${why}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse("it is not a statefold snapshot (not UTF-8 text)");
  }
  const firstBreak = text.indexOf("\n");
  const secondBreak = text.indexOf("\n", firstBreak + 1);
  const [magic, version] = text.slice(0, Math.max(firstBreak, 0)).split(" ");
  if (firstBreak < 0 || magic !== SNAPSHOT_MAGIC) throw refuse("it is not a statefold snapshot");
  if (version !== String(SNAPSHOT_VERSION)) {
    throw refuse(
      `expected format version ${SNAPSHOT_VERSION}, found ${JSON.stringify(version)}; audit the whole journal again`,
    );
  }
  if (secondBreak < 0) throw refuse("it is truncated");
  const digest = text.slice(firstBreak + 1, secondBreak);
  const json = text.slice(secondBreak + 1);
  if (sha256().update(new TextEncoder().encode(json)).hex() !== digest) {
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

/**
 * Base64 (RFC 4648, padded) in one pass over typed arrays: a snapshot of a large DAG is tens of
 * megabytes, and `btoa` over a string built from char codes ran at a few MB/s.
 */
export function toBase64(bytes: Uint8Array): string {
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

/** The bytes of padded base64; a character outside the alphabet or a wrong length is an error. */
export function fromBase64(text: string): Uint8Array {
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
