/**
 * A journal that is one JSON document (docs/models/data.md, `records.source` `{"array": PATH}`),
 * streamed into the data kernel, which walks and validates it whole, finds the records array by
 * the source's paths and audits each element where it lies (assembly/data/document.ts). A break
 * in the document, or a document with no array at any path, is refused with the words of the
 * reference's reader (src/journal/json-array-source.ts).
 */
import { checkWrittenChunk } from "../../src/engine-arguments.js";
import {
  DOCUMENT_EXPECTATIONS,
  describeByte,
  documentBreak,
  noRecordsArray,
} from "../../src/journal/json-array-source.js";
import { describeCharacterAt } from "../../src/journal/json-walk.js";
import type { Path } from "../../src/models/data/compiled.js";
import { noDocumentSnapshots } from "../../src/models/data/engine.js";
import type { SessionOwner, StreamedAuditor } from "../streamed-session.js";
import { limitError } from "../streamed-session.js";
import type { DataKernelExports } from "./kernel.js";

/** The kernel's answers (assembly/jsonl.ts, Limit; assembly/data/document.ts, DocumentEnd). */
const LIMIT_NONE = 0;
const DOCUMENT_BROKEN = 3;
const NO_RECORDS = 4;

/** What the kernel found where a document broke (assembly/data/document.ts, Found). */
const FOUND_CHARACTER = 0;
const FOUND_BYTE = 1;

export class DocumentSession<Report> implements StreamedAuditor<Report> {
  private readonly kernel: DataKernelExports;
  private readonly generation: number;

  constructor(
    private readonly owner: SessionOwner<DataKernelExports>,
    private readonly paths: readonly Path[],
    private readonly file: string,
    private readonly memoryMessage: string,
    private readonly readReport: () => Report,
  ) {
    this.kernel = owner.kernel;
    this.generation = ++owner.generation;
    this.check(this.kernel.beginDocument());
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    checkWrittenChunk(chunk);
    for (let at = 0; at < chunk.length; ) {
      const length = Math.min(this.kernel.documentWriteCapacity(), chunk.length - at);
      new Uint8Array(this.kernel.memory.buffer, this.kernel.documentWritePointer(), length).set(
        chunk.subarray(at, at + length),
      );
      at += length;
      this.check(this.kernel.consumeDocument(length));
    }
  }

  finish(): Report {
    this.assertCurrent();
    this.check(this.kernel.finishDocument());
    this.owner.generation += 1; // the report is read; the kernel is free for the next journal
    return this.readReport();
  }

  snapshot(): Uint8Array {
    throw noDocumentSnapshots(this.file);
  }

  advancedSinceResume(): boolean {
    return true;
  }

  private assertCurrent(): void {
    if (this.owner.generation !== this.generation) {
      throw new Error(
        "statefold: this auditor is finished, or its engine has started another journal since",
      );
    }
  }

  private check(answer: number): void {
    if (answer === LIMIT_NONE) return;
    if (answer === NO_RECORDS) throw noRecordsArray(this.paths, this.file);
    if (answer === DOCUMENT_BROKEN) throw this.documentBreak();
    throw limitError(this.kernel, this.file, answer, this.memoryMessage);
  }

  /** The break the kernel found, as the reference's reader words it. */
  private documentBreak(): Error {
    const kernel = this.kernel;
    const found = kernel.documentBreakFound();
    const kind = kernel.documentBreakFoundKind();
    return documentBreak(
      this.file,
      DOCUMENT_EXPECTATIONS[kernel.documentBreakExpected()] as string,
      kind === FOUND_CHARACTER
        ? describeCharacterAt(String.fromCodePoint(found), 0)
        : kind === FOUND_BYTE
          ? describeByte(found)
          : "the end of the text",
      kernel.documentBreakOffset(),
      kernel.documentBreakLine(),
      kernel.documentBreakColumn(),
    );
  }
}
