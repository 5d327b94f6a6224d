/**
 * The snapshot file: a text envelope around a JSON body.
 *
 *   statefold-snapshot 2          magic and format version
 *   <sha256 of the body, hex>     so a truncated or edited snapshot is refused, not trusted
 *   {…body…}
 *
 * The body holds the kernel's state over the journal's complete lines — node records, interned
 * paths, node surfaces, the report block — with the DAG and the SHA-256 of the journal prefix it
 * covers. The layouts it copies (assembly/state.ts, assembly/audit.ts) are part of the format:
 * changing them means a new version.
 */
import { JournalError } from "../src/journal/errors.js";
import type { DagNode } from "../src/models/dag/dag.js";
import { Sha256 } from "./sha256.js";

export const SNAPSHOT_MAGIC = "statefold-snapshot";
/** 2: a node's surface may be null, a malformed payload's mark (1 had no such mark). */
export const SNAPSHOT_VERSION = 2;

export interface SnapshotBody {
  /** The DAG audited against; null when the journal's first line was not yet seen. */
  readonly dag: { readonly nodes: readonly DagNode[] } | null;
  /** Whether the first line was resolved (header or not) and the kernel started. */
  readonly started: boolean;
  readonly headerPending: boolean;
  readonly prefix: { readonly bytes: number; readonly nextLine: number; readonly sha256: string };
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
  const digest = new Sha256().update(new TextEncoder().encode(json)).hex();
  return new TextEncoder().encode(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${digest}\n${json}`);
}

/** The body of a snapshot, or a `JournalError` naming `file` and what is wrong with it. */
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
  if (new Sha256().update(new TextEncoder().encode(json)).hex() !== digest) {
    throw refuse("its checksum does not match its content: it was truncated or edited");
  }
  try {
    return JSON.parse(json) as SnapshotBody;
  } catch {
    throw refuse("its content is not the JSON its checksum promised");
  }
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
