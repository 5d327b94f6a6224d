/**
 * One JSONL journal, streamed (the rules of src/journal/jsonl.ts): chunks of any size are split
 * on line feeds; a line lying whole in a chunk is audited where it lies, and only a line that
 * spans chunks is copied (into `carry`), so memory holds one line at most beyond the DAG and the
 * surfaces. Per line: the JSON scan (which notes bytes ≥ 0x80), UTF-8 validation only when the
 * line holds such a byte or is not JSON, then the event's fields resolved to codes for the audit.
 */
import {
  EVENT_KINDS,
  type IntegrityReason,
  type MalformedProblem,
} from "../../../src/models/dag/events.js";
import {
  decodeString,
  Field,
  JsonLineScanner,
  LineShape,
  skipWhitespace,
  ValueType,
} from "./json-line.js";
import { Kind, type NodeStates, type PreparedDag, Result, SurfaceShape } from "./node-states.js";
import { isValidUtf8 } from "./utf8.js";

const LF = 0x0a;

/**
 * Node's `Buffer#indexOf` is memchr; `Uint8Array#indexOf` is a generic element search about ten
 * times slower per line (measured on the benchmark journals). It takes any Uint8Array as `this`.
 */
const indexOfByte = Buffer.prototype.indexOf as (
  this: Uint8Array,
  value: number,
  byteOffset: number,
) => number;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** The integrity fault the fold stopped at; `line` keeps the bytes for the fault's subject. */
export interface Fault {
  readonly index: number;
  readonly line: number;
  readonly reason: IntegrityReason;
  /** malformed-event: the problem; unknown-*: the line's text (the subject is read from it). */
  readonly detail: MalformedProblem | string | number;
}

const KIND_BYTES: readonly Uint8Array[] = EVENT_KINDS.map((kind) => new TextEncoder().encode(kind));
/** The kinds of each length: the length alone rules most out. */
const KINDS_BY_LENGTH: (number[] | undefined)[] = [];
for (const [kind, bytes] of KIND_BYTES.entries()) {
  KINDS_BY_LENGTH[bytes.length] = [...(KINDS_BY_LENGTH[bytes.length] ?? []), kind];
}
const PASS = new TextEncoder().encode("pass");
const FAIL = new TextEncoder().encode("fail");
const TIMEOUT = new TextEncoder().encode("timeout");

export class JsonlAudit {
  events = 0;
  fault: Fault | null = null;
  tornTail: { line: number; offset: number } | null = null;
  private readonly scanner = new JsonLineScanner();
  private lineNumber = 1;
  private lineOffset = 0;
  private headerPending: boolean;
  private carry = new Uint8Array(1 << 16);
  private carryLength = 0;
  /** Decoded strings (ids, kinds, paths with escapes) land here; decoding never lengthens one. */
  private scratch = new Uint8Array(1 << 16);

  constructor(
    private readonly prepared: PreparedDag,
    readonly states: NodeStates,
    skipHeader: boolean,
  ) {
    this.headerPending = skipHeader;
  }

  feed(chunk: Uint8Array): void {
    let at = 0;
    if (this.carryLength > 0) {
      const lf = indexOfByte.call(chunk, LF, 0);
      this.append(chunk, 0, lf < 0 ? chunk.length : lf);
      if (lf < 0) return;
      this.line(this.carry, 0, this.carryLength, true);
      this.carryLength = 0;
      at = lf + 1;
    }
    for (let lf = indexOfByte.call(chunk, LF, at); lf >= 0; lf = indexOfByte.call(chunk, LF, at)) {
      this.line(chunk, at, lf, true);
      at = lf + 1;
    }
    if (at < chunk.length) this.append(chunk, at, chunk.length);
  }

  /** The final line, when it had no line feed: an event if it parses, else a torn tail. */
  finish(): void {
    if (this.carryLength > 0) this.line(this.carry, 0, this.carryLength, false);
    this.carryLength = 0;
  }

  private append(chunk: Uint8Array, start: number, end: number): void {
    const needed = this.carryLength + end - start;
    if (needed > this.carry.length) {
      const grown = new Uint8Array(Math.max(needed, this.carry.length * 2));
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(start, end), this.carryLength);
    this.carryLength = needed;
  }

  /** bytes[start .. lineFeed) is one line, its line feed at `lineFeed` when `terminated`. */
  private line(bytes: Uint8Array, start: number, lineFeed: number, terminated: boolean): void {
    const end =
      terminated && lineFeed > start && bytes[lineFeed - 1] === CR ? lineFeed - 1 : lineFeed;
    if (this.headerPending) this.headerPending = false;
    else if (!isBlank(bytes, start, end)) {
      if (terminated || this.parses(bytes, start, end)) this.event(bytes, start, end);
      else this.tornTail = { line: this.lineNumber, offset: this.lineOffset };
    }
    this.lineNumber += 1;
    this.lineOffset += lineFeed - start + 1;
  }

  private parses(bytes: Uint8Array, start: number, end: number): boolean {
    const shape = this.scanner.scan(bytes, start, end);
    if (shape === LineShape.INVALID) return false;
    return !this.scanner.sawHighByte || isValidUtf8(bytes, start, end);
  }

  private event(bytes: Uint8Array, start: number, end: number): void {
    const index = this.events++;
    if (this.fault !== null) return; // the fold stopped: later events are only counted
    const fault = this.integrityFault(index, bytes, start, end);
    if (fault !== null) {
      this.fault = fault;
      return;
    }
    const shape =
      this.kindCode === Kind.SURFACE_WIDENED ? this.collectSurface(bytes) : SurfaceShape.ABSENT;
    this.states.audit(
      index,
      this.lineNumber,
      this.nodeCode,
      this.kindCode,
      this.result(bytes),
      shape,
    );
  }

  /** Set by `integrityFault` when there is none: the event's node and kind. */
  private nodeCode = 0;
  private kindCode = 0;

  /** The integrity checks of docs/models/dag.md, "Log integrity", in its order. */
  private integrityFault(
    index: number,
    bytes: Uint8Array,
    start: number,
    end: number,
  ): Fault | null {
    const fault = (reason: IntegrityReason, detail: Fault["detail"]): Fault => ({
      index,
      line: this.lineNumber,
      reason,
      detail,
    });
    const problem = this.malformation(bytes, start, end);
    if (problem !== null) return fault("malformed-event", problem);
    this.nodeCode = this.node(bytes);
    if (this.nodeCode < 0) return fault("unknown-node", textOf(bytes, start, end));
    this.kindCode = this.kind(bytes);
    if (this.kindCode < 0) return fault("unknown-kind", textOf(bytes, start, end));
    if (this.kindCode === Kind.DISCHARGED && !this.states.hasDeposit(this.nodeCode)) {
      return fault("discharge-without-deposit", this.nodeCode);
    }
    return null;
  }

  /** The malformed-event problem of the line, in the reference's order, or null. */
  private malformation(bytes: Uint8Array, start: number, end: number): MalformedProblem | null {
    const shape = this.scanner.scan(bytes, start, end);
    if (shape === LineShape.INVALID) {
      return isValidUtf8(bytes, start, end) ? "invalid-json" : "invalid-utf8";
    }
    if (this.scanner.sawHighByte && !isValidUtf8(bytes, start, end)) return "invalid-utf8";
    if (shape === LineShape.NOT_AN_OBJECT) return "not-an-object";
    if (this.scanner.fieldType[Field.KIND] !== ValueType.STRING) return "kind-not-a-string";
    if (this.scanner.fieldType[Field.ID] !== ValueType.STRING) return "id-not-a-string";
    return null;
  }

  /** Set by `fieldText`: where the field's decoded bytes lie. */
  private textBytes: Uint8Array = this.scratch;
  private textStart = 0;
  private textLength = 0;

  /** Locates a string field's content, decoding it into the scratch buffer when it has escapes. */
  private fieldText(bytes: Uint8Array, field: number): void {
    const start = (this.scanner.fieldStart[field] as number) + 1;
    const end = (this.scanner.fieldEnd[field] as number) - 1;
    if (this.scanner.fieldEscaped[field] === 0) {
      this.textBytes = bytes;
      this.textStart = start;
      this.textLength = end - start;
      return;
    }
    this.decodeIntoScratch(bytes, start, end);
  }

  private decodeIntoScratch(bytes: Uint8Array, start: number, end: number): void {
    if (end - start > this.scratch.length) this.scratch = new Uint8Array(end - start);
    this.textBytes = this.scratch;
    this.textStart = 0;
    this.textLength = decodeString(bytes, start, end, this.scratch, 0);
  }

  private node(bytes: Uint8Array): number {
    this.fieldText(bytes, Field.ID);
    return this.prepared.ids.find(this.textBytes, this.textStart, this.textLength);
  }

  /** The kind's code, or -1 for a kind the model does not know. */
  private kind(bytes: Uint8Array): number {
    this.fieldText(bytes, Field.KIND);
    const candidates = KINDS_BY_LENGTH[this.textLength];
    if (candidates === undefined) return -1;
    for (const kind of candidates) if (this.textIs(KIND_BYTES[kind] as Uint8Array)) return kind;
    return -1;
  }

  private result(bytes: Uint8Array): number {
    if (this.scanner.fieldType[Field.RESULT] !== ValueType.STRING) return Result.OTHER;
    this.fieldText(bytes, Field.RESULT);
    if (this.textIs(PASS)) return Result.PASS;
    if (this.textIs(FAIL)) return Result.FAIL;
    return this.textIs(TIMEOUT) ? Result.TIMEOUT : Result.OTHER;
  }

  private textIs(expected: Uint8Array): boolean {
    if (this.textLength !== expected.length) return false;
    const text = this.textBytes;
    const start = this.textStart;
    for (let i = 0; i < expected.length; i++) if (text[start + i] !== expected[i]) return false;
    return true;
  }

  /** Collects the surface payload's paths; returns its SurfaceShape. */
  private collectSurface(bytes: Uint8Array): number {
    const surfaces = this.states.surfaces;
    surfaces.beginPayload();
    const type = this.scanner.fieldType[Field.SURFACE];
    if (type === ValueType.ABSENT || type === ValueType.NULL) return SurfaceShape.ABSENT;
    if (type !== ValueType.ARRAY) return SurfaceShape.OTHER;
    const end = (this.scanner.fieldEnd[Field.SURFACE] as number) - 1; // the closing bracket
    let at = skipWhitespace(bytes, (this.scanner.fieldStart[Field.SURFACE] as number) + 1, end);
    while (at < end) {
      if (bytes[at] !== QUOTE) return SurfaceShape.OTHER;
      const stringEnd = this.scanner.scanString(bytes, at, end);
      if (this.scanner.escaped) {
        this.decodeIntoScratch(bytes, at + 1, stringEnd - 1);
        surfaces.addToPayload(this.textBytes, this.textStart, this.textLength);
      } else {
        surfaces.addToPayload(bytes, at + 1, stringEnd - at - 2);
      }
      at = skipWhitespace(bytes, stringEnd, end);
      if (bytes[at] === COMMA) at = skipWhitespace(bytes, at + 1, end);
    }
    return SurfaceShape.STRINGS;
  }
}

/** Whether bytes[start .. end) is spaces, tabs and carriage returns only. */
export function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const c = bytes[at];
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

/** The line as text, kept for the rare fault whose subject is read back from it. */
function textOf(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder().decode(bytes.subarray(start, end));
}
