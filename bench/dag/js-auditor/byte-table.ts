/**
 * A set of byte strings numbered in insertion order (0, 1, 2, ...): the auditor's id table and
 * path table. Open addressing with linear probing, at most half full, over keyed hashes; a slot's
 * tag (the full hash) is compared before the bytes. Growing doubles the slots and rehashes.
 */
import { HalfSipHash } from "./half-siphash.js";

const INITIAL_ENTRIES = 256;

export class ByteTable {
  private readonly hasher = new HalfSipHash();
  /** Per slot: entry + 1, 0 when empty. */
  private slots = new Int32Array(INITIAL_ENTRIES * 2);
  private tags = new Uint32Array(INITIAL_ENTRIES * 2);
  /** Entry e's bytes are bytes[starts[e] .. starts[e + 1]). */
  private starts = new Int32Array(INITIAL_ENTRIES + 1);
  private bytes = new Uint8Array(INITIAL_ENTRIES * 16);
  size = 0;

  /** The entry holding exactly source[start .. start + length), or -1. */
  find(source: Uint8Array, start: number, length: number): number {
    return this.probe(source, start, length, this.hasher.hash(source, start, length));
  }

  /** The entry holding these bytes, added if new. */
  intern(source: Uint8Array, start: number, length: number): number {
    const hash = this.hasher.hash(source, start, length);
    const found = this.probe(source, start, length, hash);
    return found >= 0 ? found : this.add(source, start, length, hash);
  }

  private probe(source: Uint8Array, start: number, length: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] as number) - 1;
      if (entry < 0) return -1;
      if (this.tags[slot] === hash && this.holds(entry, source, start, length)) return entry;
    }
  }

  private holds(entry: number, source: Uint8Array, start: number, length: number): boolean {
    const from = this.starts[entry] as number;
    if ((this.starts[entry + 1] as number) - from !== length) return false;
    for (let i = 0; i < length; i++) {
      if (this.bytes[from + i] !== source[start + i]) return false;
    }
    return true;
  }

  private add(source: Uint8Array, start: number, length: number, hash: number): number {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const entry = this.size++;
    const from = this.starts[entry] as number;
    if (from + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, from + length));
      grown.set(this.bytes.subarray(0, from));
      this.bytes = grown;
    }
    this.bytes.set(source.subarray(start, start + length), from);
    if (entry + 2 > this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[entry + 1] = from + length;
    this.place(entry, hash);
    return entry;
  }

  private place(entry: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
    this.tags[slot] = hash;
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldTags = this.tags;
    this.slots = new Int32Array(oldSlots.length * 2);
    this.tags = new Uint32Array(oldSlots.length * 2);
    for (let slot = 0; slot < oldSlots.length; slot++) {
      const entry = (oldSlots[slot] as number) - 1;
      if (entry >= 0) this.place(entry, oldTags[slot] as number);
    }
  }
}
