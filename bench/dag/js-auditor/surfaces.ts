/**
 * File surfaces: paths interned once per journal, and per node the set of path ids its current
 * surface holds. A surface event collects its payload's distinct ids, stamping each in `marks`;
 * "the payload keeps every current path" is then one pass over the node's ids, and storing the
 * payload one copy. A payload that is no array of strings is stored as a mark that the surface is
 * malformed, which no later payload keeps. Memory is O(distinct paths + Σ current surface sizes).
 */
import { ByteTable } from "./byte-table.js";

const NO_PATHS = new Int32Array(0);

export class Surfaces {
  private paths = new ByteTable();
  /** Per path: the stamp of the last payload that named it. */
  private marks = new Uint32Array(256);
  private stamp = 0;
  /** Per node: its surface's path ids in the first `lengths[node]` slots. */
  private blocks: Int32Array[] = [];
  private lengths = new Int32Array(0);
  /** Per node: 1 while its surface is a malformed payload. */
  private malformed = new Uint8Array(0);
  private payload = new Int32Array(64);
  payloadLength = 0;

  /** Every node's surface empty, no paths. */
  reset(nodeCount: number): void {
    this.paths = new ByteTable();
    this.marks.fill(0);
    this.stamp = 0;
    this.blocks = new Array<Int32Array>(nodeCount).fill(NO_PATHS);
    this.lengths = new Int32Array(nodeCount);
    this.malformed = new Uint8Array(nodeCount);
  }

  beginPayload(): void {
    this.payloadLength = 0;
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  /** Adds the path with these (decoded) bytes to the payload, once. */
  addToPayload(bytes: Uint8Array, start: number, length: number): void {
    const path = this.paths.intern(bytes, start, length);
    if (path >= this.marks.length) {
      const grown = new Uint32Array(this.marks.length * 2);
      grown.set(this.marks);
      this.marks = grown;
    }
    if (this.marks[path] === this.stamp) return;
    this.marks[path] = this.stamp;
    if (this.payloadLength === this.payload.length) {
      const grown = new Int32Array(this.payload.length * 2);
      grown.set(this.payload);
      this.payload = grown;
    }
    this.payload[this.payloadLength++] = path;
  }

  /** Whether the payload holds every path of the node's current surface; never a malformed one. */
  payloadKeepsSurface(node: number): boolean {
    if (this.malformed[node] === 1) return false;
    const block = this.blocks[node] as Int32Array;
    const length = this.lengths[node] as number;
    for (let i = 0; i < length; i++) {
      if (this.marks[block[i] as number] !== this.stamp) return false;
    }
    return true;
  }

  /** The node's surface becomes the payload's paths. */
  storePayload(node: number): void {
    let block = this.blocks[node] as Int32Array;
    if (block.length < this.payloadLength) {
      block = new Int32Array(Math.max(4, this.payloadLength, block.length * 2));
      this.blocks[node] = block;
    }
    block.set(this.payload.subarray(0, this.payloadLength));
    this.lengths[node] = this.payloadLength;
    this.malformed[node] = 0;
  }

  storeMalformed(node: number): void {
    this.lengths[node] = 0;
    this.malformed[node] = 1;
  }
}
