import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { JournalDigests } from "../digest/journal-digests.js";
import { hexOfDigest, sha256 } from "../digest/sha256.js";
import { JournalError } from "./errors.js";
import { isGzipped } from "./read-file-bytes.js";
import type { HashedPrefix, ResumableFile } from "./resumable-file.js";

/** Bytes a chunk holds at most. */
const CHUNK_BYTES = 1 << 20;
/** Chunks read ahead at most, while the consumer works on one. */
const SLOTS = 4;
/** A read of the prefix: half the slots, so that one is read while the other is hashed. */
const PREFIX_READ_BYTES = (SLOTS / 2) * CHUNK_BYTES;

/** A slot's word: a chunk's length (0: the input ended), or one of these. */
const FREE = -1;
const FAILED = -2;
/** The word after the slots': the length of a failed read's message, in the failed slot. */
const MESSAGE_LENGTH = SLOTS;

/**
 * A prefix the thread hashes before it reads on (`resumableFile`) shares a block: its state word
 * and whether its length is known yet (i32s), its length and how many bytes the file had of it
 * (f64s), then their SHA-256.
 */
const PREFIX_PENDING = 0;
const PREFIX_HASHED = 1;
const PREFIX_FAILED = 2;
/** Where in the block: the length (once known), how many bytes the file had of it, the digest. */
const PREFIX_LENGTH_AT = 8;
const PREFIX_HAD_AT = 16;
const PREFIX_DIGEST_AT = 24;
const PREFIX_BLOCK_BYTES = PREFIX_DIGEST_AT + 32;

/**
 * The bytes of an open descriptor — the standard input of `statefold audit -` — as a stream of
 * chunks of up to a mebibyte, each valid until the next one is requested.
 *
 * A pipe holds 64 KiB at a time. Node's stream of it hands each 64 KiB over as its own chunk
 * through an event, a Buffer and a promise, which for `statefold gen … | statefold audit -` cost
 * 0.5–1.4 s of CPU time per 1.3 GB here, a fifth of the audit; and whatever reads on the audit's
 * thread leaves the writer blocked on a full pipe while the audit works. So the first mebibyte is
 * read here with blocking reads — an input that ends within it (one small journal) starts no
 * thread — and the rest by a thread of its own, which reads ahead into shared slots while the
 * consumer audits. Where no thread can be started, the blocking reads go on here, the event loop
 * getting a turn between chunks.
 *
 * A descriptor opened non-blocking answers EAGAIN when it has nothing yet: its bytes from there on
 * come from `fallback` (Node's stream, which waits for them without blocking).
 *
 * The same reading thread reads a journal file for a first snapshotting gate, hashing as it reads
 * (`readFileHashed`).
 */
export async function* readDescriptorChunks(
  fd: number,
  name: string,
  fallback: () => AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  let filled = fill(fd, buffer, name);
  // Started before the first chunk is handed over, so the thread reads while it is audited.
  const reader = filled.end === "full" ? startReader(fd, null, false) : null;
  if (reader !== null) {
    try {
      yield buffer;
      yield* reader.chunks(name);
    } finally {
      reader.stop();
    }
    return;
  }
  while (true) {
    if (filled.bytes > 0) yield buffer.subarray(0, filled.bytes);
    if (filled.end === "would-block") {
      yield* fallback();
      return;
    }
    if (filled.end === "end-of-input") return;
    await new Promise((resolve) => setImmediate(resolve));
    filled = fill(fd, buffer, name);
  }
}

interface Filled {
  readonly bytes: number;
  readonly end: "full" | "end-of-input" | "would-block";
}

function fill(fd: number, buffer: Uint8Array, name: string): Filled {
  let bytes = 0;
  while (bytes < buffer.length) {
    let read: number;
    try {
      read = readSync(fd, buffer, bytes, buffer.length - bytes, null);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code === "EAGAIN") return { bytes, end: "would-block" };
      // Windows reports the end of a pipe as an error.
      if (code === "EOF") return { bytes, end: "end-of-input" };
      throw new JournalError(name, `cannot read: ${message}`);
    }
    if (read === 0) return { bytes, end: "end-of-input" };
    bytes += read;
  }
  return { bytes, end: "full" };
}

/**
 * The reading thread: fills the slots in turn, each as far as it holds or until the input ends or
 * pauses (EAGAIN, then asked again a few milliseconds later), publishes the chunk's length in the
 * slot's word, and waits for the slot to be freed before it fills it again. The end of the input
 * is a slot of length 0; a failed read is FAILED, its message in the slot's bytes (so that it is
 * there when the consumer sees the slot, as a posted message might not yet be). Hashing, it notes
 * beside every slot it publishes, the end's included, the digest of the complete lines so far;
 * given a prefix, it first reads and hashes that without publishing it.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { read, readSync } = require("node:fs");
const { fd, words, slots, digests, prefix } = workerData;
const lengths = new Int32Array(words);
const bytes = new Uint8Array(slots);
const nap = new Int32Array(new SharedArrayBuffer(4));
const { createHash } = require("node:crypto");
const hashing = digests === null ? null : {
  ends: new Float64Array(digests, 0, ${SLOTS}),
  digests: new Uint8Array(digests, ${SLOTS * 8}),
};
/** Where the next read starts: null, where the descriptor is, unless a prefix was read by position. */
let position = null;

function startHashing() {
  hashing.hash = createHash("sha256");
  hashing.read = 0;
  hashing.linesEnd = 0;
  hashing.linesDigest = createHash("sha256").digest();
}
if (hashing !== null) startHashing();

/** Hashes the bytes read next, noting the SHA-256 of the input's complete lines so far. */
function hashChunk(chunk) {
  const h = hashing;
  const lastFeed = chunk.lastIndexOf(10);
  if (lastFeed >= 0) {
    h.hash.update(chunk.subarray(0, lastFeed + 1));
    h.linesEnd = h.read + lastFeed + 1;
    h.linesDigest = h.hash.copy().digest();
  }
  h.hash.update(chunk.subarray(lastFeed + 1));
  h.read += chunk.length;
}

function noteDigest(slot) {
  hashing.ends[slot] = hashing.linesEnd;
  hashing.digests.set(hashing.linesDigest, slot * 32);
}

/** Fails the slot with the error's message in its bytes. */
function failSlot(slot, error) {
  const message = new TextEncoder().encode(error.message).subarray(0, ${CHUNK_BYTES});
  bytes.set(message, slot * ${CHUNK_BYTES});
  lengths[${MESSAGE_LENGTH}] = message.length;
  publish(slot, ${FAILED});
}

/** Reads into \`buffer\` from \`position\` on libuv's pool: the bytes read, a view of it. */
function readAt(buffer, position) {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, position, (error, bytesRead) =>
      error === null ? resolve(buffer.subarray(0, bytesRead)) : reject(error),
    );
  });
}

/**
 * Reads and hashes the input's first bytes without handing them over (the slots, none yet
 * published, serve as the buffers) until they are the prefix, whose length comes when the caller
 * knows it: hashing starts before, and starts over in the rare case that it went past the prefix.
 * Each read is started before the bytes of the one before are hashed, so that the copy out of the
 * page cache (on libuv's pool) and the hash run side by side: one after the other, they were the
 * longest part of a resume. Then notes how many bytes the file had of the prefix and their
 * SHA-256, and resolves true to read on after them; false when a read failed (slot 0 says why).
 */
async function hashPrefix() {
  const words = new Int32Array(prefix, 0, 2);
  const length = new Float64Array(prefix, ${PREFIX_LENGTH_AT}, 1);
  const end = () => (Atomics.load(words, 1) === 1 ? length[0] : Infinity);
  const halves = [bytes.subarray(0, ${PREFIX_READ_BYTES}), bytes.subarray(${PREFIX_READ_BYTES}, ${2 * PREFIX_READ_BYTES})];
  let turn = 0;
  /** Starts reading what follows \`position\` of the prefix; null when nothing does. */
  const readFrom = (position) => {
    const wanted = Math.min(${PREFIX_READ_BYTES}, end() - position);
    if (wanted <= 0) return null;
    turn ^= 1;
    return readAt(halves[turn].subarray(0, wanted), position);
  };
  let hashed = 0;
  let reading = readFrom(0);
  for (;;) {
    if (hashed > end()) {
      await reading?.catch(() => null);
      startHashing();
      hashed = 0;
      reading = readFrom(0);
    }
    if (hashed === end()) break;
    let chunk;
    try {
      chunk = await (reading ?? readFrom(hashed));
    } catch (error) {
      Atomics.store(words, 0, ${PREFIX_FAILED});
      Atomics.notify(words, 0);
      failSlot(0, error);
      return false;
    }
    reading = null;
    if (chunk.length === 0) {
      if (end() !== Infinity) break; // the file is shorter than the prefix
      Atomics.wait(words, 1, 0);
      continue;
    }
    reading = readFrom(hashed + chunk.length);
    hashChunk(chunk);
    hashed += chunk.length;
  }
  // Reading on reuses the slots: a read begun before the prefix's length was known must be over.
  await reading?.catch(() => null);
  position = hashed;
  new Float64Array(prefix, ${PREFIX_HAD_AT}, 1)[0] = hashed;
  new Uint8Array(prefix, ${PREFIX_DIGEST_AT}, 32).set(hashing.hash.copy().digest());
  Atomics.store(words, 0, ${PREFIX_HASHED});
  Atomics.notify(words, 0);
  return true;
}

/** Publishes the slot once it is free, the digest of the complete lines so far beside it. */
function publish(slot, length) {
  while (Atomics.load(lengths, slot) !== ${FREE}) Atomics.wait(lengths, slot, Atomics.load(lengths, slot));
  if (hashing !== null) noteDigest(slot);
  Atomics.store(lengths, slot, length);
  Atomics.notify(lengths, slot);
}

/** Reads into the slot: its length and whether the input ended, or the error of a failed read. */
function fill(slot) {
  const start = slot * ${CHUNK_BYTES};
  let filled = 0;
  while (filled < ${CHUNK_BYTES}) {
    let read;
    try {
      read = readSync(fd, bytes, start + filled, ${CHUNK_BYTES} - filled, position);
      if (position !== null) position += read;
    } catch (error) {
      if (error.code === "EOF") return { filled, ended: true };
      if (error.code !== "EAGAIN") return { error };
      if (filled > 0) break;
      Atomics.wait(nap, 0, 0, 5);
      continue;
    }
    if (read === 0) return { filled, ended: true };
    filled += read;
  }
  return { filled, ended: false };
}

/** Fills the slots in turn until the input ends or a read fails. */
function readOn() {
  for (let slot = 0; ; slot = (slot + 1) % ${SLOTS}) {
    while (Atomics.load(lengths, slot) !== ${FREE}) Atomics.wait(lengths, slot, Atomics.load(lengths, slot));
    const chunk = fill(slot);
    if (chunk.error !== undefined) {
      failSlot(slot, chunk.error);
      break;
    }
    if (chunk.filled > 0) {
      if (hashing !== null) {
        hashChunk(bytes.subarray(slot * ${CHUNK_BYTES}, slot * ${CHUNK_BYTES} + chunk.filled));
      }
      publish(slot, chunk.filled);
      if (!chunk.ended) continue;
      slot = (slot + 1) % ${SLOTS};
    }
    if (chunk.ended) {
      publish(slot, 0);
      break;
    }
  }
}

if (prefix === null) readOn();
else hashPrefix().then((hashed) => hashed && readOn());
`;

/** Atomics.waitAsync (Node 16 and later; the project's TypeScript library predates it). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      words: Int32Array,
      index: number,
      value: number,
    ):
      | { readonly async: false; readonly value: string }
      | { readonly async: true; readonly value: Promise<string> };
  }
).waitAsync;

interface Reader {
  chunks(name: string): AsyncGenerator<Uint8Array>;
  /** Tells a thread started `prefixed` how long the prefix is. */
  knowPrefix(bytes: number): void;
  /** The prefix the thread hashed before reading on; null when reading it failed. */
  prefix(): Promise<HashedPrefix | null>;
  stop(): void;
}

/** A file read and hashed by the reading thread: its chunks, and the digests of its complete lines. */
export interface HashedJournal {
  readonly chunks: AsyncIterable<Uint8Array>;
  readonly digests: JournalDigests;
}

/**
 * A journal file read by a thread of its own that hashes its complete lines as it reads them:
 * what a snapshotting gate needs hashed, done where the bytes already are. Fed to the auditor's
 * own hash instead, each byte would be copied to a hashing thread by the auditing thread (a
 * 300 MB journal: ~80 ms of the audit's thread, a tenth of the gate). Null for anything but a
 * regular file of more than a chunk (the plain reader then reads it, and reports a failure to
 * open it), for a gzipped one, or where no thread can start.
 */
export function readFileHashed(path: string): HashedJournal | null {
  const digests = new LineDigests();
  const reader = hashingReader(path, digests, false);
  if (reader === null) return null;
  const chunks = async function* () {
    try {
      yield* reader.chunks(path);
    } finally {
      reader.stop();
    }
  };
  return { chunks: chunks(), digests };
}

/**
 * A journal file to resume on. A regular file of more than a chunk has a thread start hashing it
 * at once, before the snapshot is even read: the prefix's length, which the snapshot holds, comes
 * later (`afterPrefix`). `fromStart` gives its bytes from the start (the chunks of a peek at its
 * model, say) for what reads them: a dag header's DAG, or a resume that streams after all.
 */
export function resumableFile(
  path: string,
  fromStart: () => AsyncIterable<Uint8Array>,
): ResumableFile {
  const digests = new LineDigests();
  const reader = hashingReader(path, digests, true);
  let taken = false;
  return {
    fromStart,
    afterPrefix(bytes) {
      if (reader === null || taken) return null;
      taken = true;
      // A prefix of a chunk or less reads faster on the audit's thread than a thread answers.
      if (bytes <= CHUNK_BYTES) {
        reader.stop();
        return null;
      }
      reader.knowPrefix(bytes);
      return {
        chunks: reader.chunks(path),
        digests,
        prefix: () => reader.prefix(),
        stop: () => reader.stop(),
      };
    },
    close: () => reader?.stop(),
  };
}

/**
 * The reading thread on a regular file of more than a chunk, hashing what it reads (a prefix
 * first, when `prefixed`); null for anything else, or where no thread starts.
 */
function hashingReader(path: string, digests: LineDigests, prefixed: boolean): Reader | null {
  // A gzipped journal's lines are its decompressed bytes: its reader decompresses, its auditor hashes.
  if (isGzipped(path)) return null;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  const stats = fstatSync(fd);
  const reader =
    stats.isFile() && stats.size > CHUNK_BYTES ? startReader(fd, digests, true, prefixed) : null;
  if (reader === null) closeSync(fd);
  return reader;
}

/** Per slot, what the reading thread notes: where the complete lines end (f64), and their digest. */
const DIGEST_BYTES = 32;

/**
 * The digests the reading thread notes beside each slot, and of them the one of the last chunk
 * handed over: the complete lines the auditor has been given.
 */
class LineDigests implements JournalDigests {
  readonly shared = new SharedArrayBuffer(SLOTS * (8 + DIGEST_BYTES));
  private readonly ends = new Float64Array(this.shared, 0, SLOTS);
  private readonly digests = new Uint8Array(this.shared, SLOTS * 8);
  private linesEnd = 0;
  /** Null: the digest of no bytes. */
  private linesDigest: Uint8Array | null = null;

  /** The slot's chunk is handed over. */
  handOver(slot: number): void {
    this.linesEnd = this.ends[slot] as number;
    this.linesDigest = this.digests.slice(slot * DIGEST_BYTES, (slot + 1) * DIGEST_BYTES);
  }

  hex(bytes: number): string {
    if (bytes !== this.linesEnd) {
      throw new Error(
        `statefold: the journal's reader hashed its first ${this.linesEnd} bytes, not ${bytes}`,
      );
    }
    return this.linesDigest === null ? sha256().hex() : hexOfDigest(this.linesDigest);
  }
}

/**
 * Starts the reading thread on `fd`; with `digests`, it hashes what it reads. With `closeWhenDone`
 * the descriptor is closed once the thread has exited (never while it may still read it).
 */
function startReader(
  fd: number,
  digests: LineDigests | null,
  closeWhenDone: boolean,
  prefixed = false,
): Reader | null {
  const lengths = new Int32Array(new SharedArrayBuffer((SLOTS + 1) * 4)).fill(FREE);
  const slots = new Uint8Array(new SharedArrayBuffer(SLOTS * CHUNK_BYTES));
  const prefix = new SharedArrayBuffer(PREFIX_BLOCK_BYTES);
  const prefixWords = new Int32Array(prefix, 0, 2);
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        fd,
        words: lengths.buffer,
        slots: slots.buffer,
        digests: digests === null ? null : digests.shared,
        prefix: prefixed ? prefix : null,
      },
      // Not the process's flags: a preloaded module (`node -r`) or a profiler is for the program,
      // not for a thread that only reads.
      execArgv: [],
    });
  } catch {
    return null;
  }
  // A consumer that stops early leaves the thread in a read: it must not keep the process alive.
  // It is held only while the consumer waits on it: a promise of `Atomics.waitAsync` does not
  // keep Node's event loop alive, and with nothing else pending Node would exit mid-journal.
  worker.unref();
  let failure = "the reading thread stopped";
  // A thread that dies without a word (out of memory) fails the slot it was to fill, so the
  // consumer waiting on it hears of it instead of waiting for ever.
  const failAll = () => {
    for (let slot = 0; slot < SLOTS; slot++) {
      if (Atomics.compareExchange(lengths, slot, FREE, FAILED) === FREE)
        Atomics.notify(lengths, slot);
    }
    if (Atomics.compareExchange(prefixWords, 0, PREFIX_PENDING, PREFIX_FAILED) === PREFIX_PENDING)
      Atomics.notify(prefixWords, 0);
  };
  /** Waits for `words[index]` to change from `value`, the thread held alive meanwhile. */
  const awaitChange = async (words: Int32Array, index: number, value: number) => {
    const waiting = waitAsync(words, index, value);
    if (!waiting.async) return;
    worker.ref();
    await waiting.value;
    worker.unref();
  };
  worker.on("error", (error: Error) => {
    failure = error.message;
    failAll();
  });
  worker.on("exit", failAll);
  if (closeWhenDone) worker.on("exit", () => closeSync(fd));
  return {
    async *chunks(name: string) {
      for (let slot = 0; ; slot = (slot + 1) % SLOTS) {
        await awaitChange(lengths, slot, FREE);
        const length = Atomics.load(lengths, slot);
        if (length === FAILED) {
          const message = lengths[MESSAGE_LENGTH] as number;
          const reason =
            message < 0
              ? failure
              : new TextDecoder().decode(
                  slots.slice(slot * CHUNK_BYTES, slot * CHUNK_BYTES + message),
                );
          throw new JournalError(name, `cannot read: ${reason}`);
        }
        digests?.handOver(slot);
        if (length === 0) return;
        yield slots.subarray(slot * CHUNK_BYTES, slot * CHUNK_BYTES + length);
        Atomics.store(lengths, slot, FREE);
        Atomics.notify(lengths, slot);
      }
    },
    knowPrefix(bytes: number) {
      new Float64Array(prefix, PREFIX_LENGTH_AT, 1)[0] = bytes;
      Atomics.store(prefixWords, 1, 1);
      Atomics.notify(prefixWords, 1);
    },
    async prefix() {
      await awaitChange(prefixWords, 0, PREFIX_PENDING);
      if (Atomics.load(prefixWords, 0) !== PREFIX_HASHED) return null;
      const bytes = new Float64Array(prefix, PREFIX_HAD_AT, 1)[0] as number;
      return { bytes, sha256: hexOfDigest(new Uint8Array(prefix, PREFIX_DIGEST_AT, DIGEST_BYTES)) };
    },
    stop() {
      void worker.terminate();
    },
  };
}
