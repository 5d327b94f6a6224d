import { JsonArraySource } from "../../src/journal/json-array-source.js";
import type { Path } from "../../src/models/data/compiled.js";
import { noDocumentSnapshots } from "../../src/models/data/engine.js";
import type { SessionOwner, StreamedAuditor } from "../streamed-session.js";
import { limitError } from "../streamed-session.js";
import type { DataKernelExports } from "./kernel.js";

/** The kernel's limit codes (assembly/jsonl.ts, Limit). */
const LIMIT_NONE = 0;
const LIMIT_MEMORY = 1;

export class DocumentSession<Report> implements StreamedAuditor<Report> {
  private readonly kernel: DataKernelExports;
  private readonly source: JsonArraySource;
  private readonly generation: number;

  constructor(
    private readonly owner: SessionOwner<DataKernelExports>,
    paths: readonly Path[],
    private readonly file: string,
    private readonly memoryMessage: string,
    private readonly readReport: () => Report,
  ) {
    this.kernel = owner.kernel;
    this.source = new JsonArraySource(paths, file);
    this.generation = ++owner.generation;
    this.check(this.kernel.beginElements());
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    for (const element of this.source.push(chunk)) {
      const room = this.kernel.elementRoom(element.bytes.length, element.line);
      if (room === 0) this.check(LIMIT_MEMORY);
      new Uint8Array(this.kernel.memory.buffer, room, element.bytes.length).set(element.bytes);
      this.check(this.kernel.auditElement(element.bytes.length, element.line));
    }
  }

  finish(): Report {
    this.assertCurrent();
    this.source.end();
    this.check(this.kernel.finishElements());
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

  private check(limit: number): void {
    if (limit !== LIMIT_NONE) throw limitError(this.kernel, this.file, limit, this.memoryMessage);
  }
}
