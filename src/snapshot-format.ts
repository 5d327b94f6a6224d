/**
 * The snapshot file, the same for every model:
 *
 *   statefold-snapshot 6          magic and format version
 *   <sha256 of the body, hex>     so a truncated or edited snapshot is refused, not trusted
 *   {…fields…}                    the body: its fields that are not bytes, one line of JSON,
 *   <sections>                    then those that are bytes, raw
 *
 * The JSON line ends with `"sections":{"<field>":[offset,length],…}`: where each byte field lies,
 * its offset counted from the binary part, which starts at the first multiple of 8 bytes (from the
 * file's start) after the line's feed; each section starts at a multiple of 8 too, zeros between.
 *
 * The body names its model, and holds the SHA-256 of the journal prefix it covers and the
 * kernel's state over the journal's complete lines: each model's bindings say which fields
 * (bindings/<model>/snapshot-body.ts), and the layouts they copy are part of the format. Changing
 * any of them means a new version.
 */

import { sha256 } from "./digest/sha256.js";
import { JournalError } from "./journal/errors.js";
import { isModelName, type ModelName } from "./models/registry.js";

export const SNAPSHOT_MAGIC = "statefold-snapshot";
/**
 * 6: the byte fields are raw sections after the JSON (5 held them as base64 strings inside it:
 * decoding, checking and encoding ~13 MB of base64 was a fifth of a resume over a 10⁵-node DAG);
 * 5: a dag body whose DAG is the journal header's says so instead of holding it (the prefix holds
 * the header, and a resume reads it there: parsing 10⁵ nodes out of the body cost more than the
 * rest of a resume); 4: a dag body's paths and surfaces are packed (3 had a string per path and
 * an array per surface: 10⁵ surfaces took longer to restore than to audit); 3: a body names its
 * model (2 was dag-only); 2: a node's surface may be null, a malformed payload's mark.
 */
export const SNAPSHOT_VERSION = 6;

/**
 * The `model` of a snapshot of a journal audited with a model defined by data (a model file is
 * no registered model): its body also names the file's `name` and the table it was compiled to
 * (bindings/data/snapshot-body.ts).
 */
export const DATA_MODEL_SNAPSHOT = "data";

export type SnapshotModel = ModelName | typeof DATA_MODEL_SNAPSHOT;

/** What every body holds: how far the journal was read, and the hash of what was. */
export interface SnapshotPrefix {
  /** Whether the first line was resolved (header or not) and the kernel started. */
  readonly started: boolean;
  readonly headerPending: boolean;
  readonly prefix: { readonly bytes: number; readonly nextLine: number; readonly sha256: string };
}

/**
 * A snapshot's body: what every model's holds, and the model's own fields — plain JSON values, or
 * bytes (`Uint8Array`), which go into sections. Each model's bindings say which fields it holds.
 */
export interface SnapshotBody extends SnapshotPrefix {
  /** The model whose journal the snapshot covers. */
  readonly model: SnapshotModel;
  /** `REFERENCE_ENGINE` in a reference engine's snapshot, which holds no state; absent in a kernel's. */
  readonly engine?: typeof REFERENCE_ENGINE;
  readonly [field: string]: unknown;
}

/** A reference engine's snapshot says so: it holds its prefix alone (src/reference-auditor.ts). */
export const REFERENCE_ENGINE = "reference";

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * u32s as little-endian bytes, whatever the platform's byte order: where it is little-endian, a
 * `Uint32Array`'s own bytes (a view).
 */
export function u32Bytes(values: ArrayLike<number>): Uint8Array {
  if (LITTLE_ENDIAN && values instanceof Uint32Array)
    return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i] as number, true);
  return bytes;
}

/**
 * Little-endian bytes as u32s — a view of them where the platform is little-endian and they lie
 * aligned (a section of a snapshot does), else a copy; null when their length is no multiple of 4.
 */
export function u32sOf(bytes: Uint8Array): Uint32Array | null {
  if (bytes.length % 4 !== 0) return null;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const values = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = view.getUint32(i * 4, true);
  return values;
}

/** The snapshot file's head: magic, version, the body's SHA-256 in hex; always this long. */
const HEAD_BYTES = `${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${"0".repeat(64)}\n`.length;
const SECTION_ALIGNMENT = 8;

function alignedUp(offset: number): number {
  return Math.ceil(offset / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;
}

/** The snapshot file of a body: its head, the JSON of its other fields, its byte fields' sections. */
export function encodeSnapshot<Body extends SnapshotBody>(body: Body): Uint8Array {
  const fields: Record<string, unknown> = {};
  const sections: Record<string, [number, number]> = {};
  const parts: [number, Uint8Array][] = [];
  let binaryBytes = 0;
  for (const [name, value] of Object.entries(body)) {
    if (!(value instanceof Uint8Array)) {
      fields[name] = value;
      continue;
    }
    const offset = alignedUp(binaryBytes);
    sections[name] = [offset, value.length];
    parts.push([offset, value]);
    binaryBytes = offset + value.length;
  }
  const line = new TextEncoder().encode(`${JSON.stringify({ ...fields, sections })}\n`);
  const binaryAt = alignedUp(HEAD_BYTES + line.length);
  const bytes = new Uint8Array(binaryAt + binaryBytes);
  bytes.set(line, HEAD_BYTES);
  for (const [offset, part] of parts) bytes.set(part, binaryAt + offset);
  const digest = sha256().update(bytes.subarray(HEAD_BYTES)).hex();
  new TextEncoder().encodeInto(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${digest}\n`, bytes);
  return bytes;
}

const LF = 0x0a;

/**
 * The body of a snapshot, or a `JournalError` naming `file` and what is wrong with it. Its byte
 * fields are views of `bytes`, which must stay as they are while the body is in use. The caller
 * checks that the body's model is the journal's (`snapshotOfModel`).
 */
export function decodeSnapshot(bytes: Uint8Array, file: string): SnapshotBody {
  const refuse = (why: string) => new JournalError(file, `refusing the snapshot: ${why}`);
  const strict = new TextDecoder("utf-8", { fatal: true });
  const firstBreak = bytes.indexOf(LF);
  const secondBreak = firstBreak < 0 ? -1 : bytes.indexOf(LF, firstBreak + 1);
  let head: string;
  try {
    head = strict.decode(
      bytes.subarray(0, secondBreak < 0 ? Math.min(bytes.length, HEAD_BYTES) : secondBreak),
    );
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
  const lineEnd = bytes.indexOf(LF, secondBreak + 1);
  let fields: unknown;
  try {
    fields = JSON.parse(strict.decode(bytes.subarray(secondBreak + 1, Math.max(lineEnd, 0))));
  } catch {
    throw refuse("its content is not the JSON its checksum promised");
  }
  const body = withSections(fields, bytes, alignedUp(lineEnd + 1));
  if (body === null) throw refuse("its sections do not lie where its JSON says");
  if (!isModelName(body.model) && body.model !== DATA_MODEL_SNAPSHOT)
    throw refuse("it names no model statefold has");
  return body as unknown as SnapshotBody;
}

/** The fields with each section's bytes in place of where it lies; null when one lies outside. */
function withSections(
  fields: unknown,
  bytes: Uint8Array,
  binaryAt: number,
): Record<string, unknown> | null {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return null;
  const { sections, ...body } = fields as Record<string, unknown>;
  if (typeof sections !== "object" || sections === null || Array.isArray(sections)) return null;
  for (const [name, where] of Object.entries(sections)) {
    if (!Array.isArray(where) || where.length !== 2) return null;
    const [offset, length] = where as unknown[];
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return null;
    const start = binaryAt + (offset as number);
    const end = start + (length as number);
    if ((offset as number) < 0 || (length as number) < 0 || end > bytes.length) return null;
    if (start % SECTION_ALIGNMENT !== 0 || name in body) return null;
    body[name] = bytes.subarray(start, end);
  }
  return body;
}

/** The body when it is a snapshot of a journal of `model`; else a `JournalError` saying whose it is. */
export function snapshotOfModel<Body extends SnapshotBody>(
  body: SnapshotBody,
  model: Body["model"],
  file: string,
): Body {
  if (body.engine === REFERENCE_ENGINE) {
    throw new JournalError(
      file,
      "refusing the snapshot: the reference engine took it, and it holds no state to resume from: resume it with the reference engine, or audit the whole journal",
    );
  }
  if (body.model !== model) {
    throw new JournalError(
      file,
      `refusing the snapshot: it is a snapshot of ${withArticle(body.model)} journal, and this is ${withArticle(model)} journal`,
    );
  }
  return body as Body;
}

function withArticle(model: SnapshotModel): string {
  return `${/^[aeiou]/.test(model) ? "an" : "a"} ${model}`;
}
