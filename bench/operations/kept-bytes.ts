/**
 * `npm run bench:kept-bytes`: what the operations kernel keeps per id (README, "The operations
 * kernel"; docs/models/operations.md, "State"). For journals of 300 000, 500 000 and 800 000 of
 * one kind of thing — finished ops, finished ops with one settled effect each, or live steps of
 * one op — it finds by bisection the least `memoryLimitBytes` the journal audits in, and prints
 * that divided by the count. Ids are 8 bytes. The figures move with where the id tables are
 * between their doublings, which is why three counts are measured. Memory, not time: the machine's
 * load does not change them.
 */
import { modelNamed } from "../../src/models/registry.js";

const COUNTS = [300_000, 500_000, 800_000];
const PAGE_BYTES = 65_536;
const REQUEST = '{"provider":"p","model":"m","api":"a"}';

const id = (prefix: string, i: number) => `${prefix}${String(i).padStart(7, "0")}`;

/** Per kind, the lines the i-th thing takes. */
const KINDS: Readonly<Record<string, (i: number) => string>> = {
  "finished op": (i) =>
    [
      `{"kind":"accepted","op":"${id("o", i)}","strand":"s"}`,
      `{"kind":"finished","op":"${id("o", i)}","outcome":"completed","at":0}`,
    ].join("\n"),
  "finished op with one settled effect": (i) =>
    [
      `{"kind":"accepted","op":"${id("o", i)}","strand":"s"}`,
      `{"kind":"intent","op":"${id("o", i)}","key":"k","effect":"${id("e", i)}","attempt":1,"at":0,"request":${REQUEST}}`,
      `{"kind":"settled","op":"${id("o", i)}","effect":"${id("e", i)}","outcome":"ok","at":0}`,
      `{"kind":"finished","op":"${id("o", i)}","outcome":"completed","at":0}`,
    ].join("\n"),
  "live step (its op running)": (i) =>
    (i === 0 ? '{"kind":"accepted","op":"o","strand":"s"}\n' : "") +
    `{"kind":"intent","op":"o","key":"${id("k", i)}","effect":"${id("e", i)}","attempt":1,"at":0,"request":${REQUEST}}`,
};

function journal(count: number, line: (i: number) => string): Uint8Array {
  const lines = ['{"statefold":"journal","version":1,"model":"operations"}'];
  for (let i = 0; i < count; i++) lines.push(line(i));
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

async function auditsWithin(bytes: Uint8Array, memoryLimitBytes: number): Promise<boolean> {
  const engine = await modelNamed("operations").kernel({ flavour: "simd", memoryLimitBytes });
  return engine.auditBytes(bytes).then(
    () => true,
    () => false,
  );
}

/** The least memory, to the page, the journal audits in. */
async function leastMemory(bytes: Uint8Array): Promise<number> {
  let fails = PAGE_BYTES;
  let fits = 2 ** 31;
  while (fits - fails > PAGE_BYTES) {
    const middle = Math.floor((fails + fits) / 2 / PAGE_BYTES) * PAGE_BYTES;
    if (await auditsWithin(bytes, middle)) fits = middle;
    else fails = middle;
  }
  return fits;
}

for (const [kind, line] of Object.entries(KINDS)) {
  const perCount: string[] = [];
  for (const count of COUNTS) {
    const least = await leastMemory(journal(count, line));
    perCount.push(`${count.toLocaleString("en")}: ${Math.round(least / count)} B`);
  }
  console.log(`${kind}: ${perCount.join(", ")}`);
}
