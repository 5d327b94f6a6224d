/**
 * A model file's text read as data (docs/models/data.md, "The file"): JSON (`.json`) or YAML
 * (`.yaml`, `.yml`, read as the JSON data model). Objects become `Map`s so that the order the
 * file writes its kinds, entities and fields is the order the report lists them, whatever the
 * names (a plain object would put `"200"` before `"created"`); and every value's place is kept,
 * so that a refusal names the line and column beside the JSON Pointer.
 */
import { isAlias, isMap, isScalar, isSeq, type Node, parseDocument } from "yaml";
import { JournalError } from "../../journal/errors.js";
import { parseJsonFile } from "../../journal/json-file.js";
import { walkJson } from "../../journal/json-walk.js";
import { textPosition } from "../../journal/text-position.js";
import { checkModel, type Locate, ModelFileError, pointerOf } from "./check.js";
import type { CompiledModel } from "./compiled.js";
import { type ModelFormat, modelFormatOf } from "./model-format.js";

export interface ModelText {
  /** The file's data: objects as `Map`s in the file's order. */
  readonly value: unknown;
  readonly locate: Locate;
}

export { type ModelFormat, modelFormatOf } from "./model-format.js";

/** The model the bytes of a file of that name state (in a browser too: no file system needed). */
export function parseModelFile(bytes: Uint8Array, file: string): CompiledModel {
  const format = modelFormatOf(file);
  if (format === null)
    throw new JournalError(
      file,
      "a model file is JSON (.json) or YAML (.yaml, .yml); this name says neither",
    );
  const { value, locate } = readModelText(bytes, file, format);
  return checkModel(value, file, locate);
}

export function readModelText(bytes: Uint8Array, file: string, format: ModelFormat): ModelText {
  return format === "json" ? readJson(bytes, file) : readYaml(bytes, file);
}

function readJson(bytes: Uint8Array, file: string): ModelText {
  const { value, origin } = parseJsonFile(bytes, file, "a model file");
  const offsets = new Map<string, number>();
  const memberOrder = new Map<string, string[]>();
  walkJson(origin.text, (path, offset) => {
    offsets.set(pointerOf(path), offset);
    const last = path[path.length - 1];
    if (typeof last !== "string") return;
    const parent = pointerOf(path.slice(0, -1));
    const members = memberOrder.get(parent) ?? [];
    if (!members.includes(last)) members.push(last);
    memberOrder.set(parent, members);
  });
  const ordered = (member: unknown, pointer: string): unknown => {
    if (Array.isArray(member))
      return member.map((item, index) => ordered(item, `${pointer}/${index}`));
    if (typeof member !== "object" || member === null) return member;
    const keys = memberOrder.get(pointer) ?? [];
    const record = member as Record<string, unknown>;
    return new Map(keys.map((key) => [key, ordered(record[key], pointer + pointerOf([key]))]));
  };
  return { value: ordered(value, ""), locate: locateIn(origin.text, offsets) };
}

/** The most nodes an aliased YAML file may expand to: aliases must not multiply a small file into a huge one. */
const YAML_NODES_MAX = 1_000_000;

function readYaml(bytes: Uint8Array, file: string): ModelText {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ModelFileError(file, "", "expected UTF-8 text, found bytes that are not UTF-8");
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error !== undefined) {
    const { line, column } = textPosition(text, error.pos[0]);
    throw new ModelFileError(file, "", `not YAML: ${error.message.split("\n")[0]}`, line, column);
  }
  const offsets = new Map<string, number>();
  let nodes = 0;
  const convert = (node: unknown, path: (string | number)[]): unknown => {
    nodes += 1;
    if (nodes > YAML_NODES_MAX)
      throw new ModelFileError(
        file,
        pointerOf(path),
        `expands to more than ${YAML_NODES_MAX} values through aliases`,
      );
    if (node === null || node === undefined) return null;
    const range = (node as Node).range;
    if (range !== undefined && range !== null) offsets.set(pointerOf(path), range[0]);
    if (isAlias(node)) {
      const target = node.resolve(document);
      if (target === undefined)
        throw new ModelFileError(
          file,
          pointerOf(path),
          `the alias *${node.source} names no anchor`,
        );
      return convert(target, path);
    }
    refuseLocalTag(node as Node, text, file, path);
    if (isScalar(node)) return node.value;
    if (isSeq(node)) return node.items.map((item, index) => convert(item, [...path, index]));
    if (isMap(node)) {
      const members = new Map<string, unknown>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : null;
        if (key === null)
          throw new ModelFileError(
            file,
            pointerOf(path),
            "a key must be a plain value, not a list or an object",
          );
        members.set(key, convert(pair.value, [...path, key]));
      }
      return members;
    }
    throw new ModelFileError(file, pointerOf(path), "holds a YAML value that has no JSON form");
  };
  return { value: convert(document.contents, []), locate: locateIn(text, offsets) };
}

/**
 * A model file is data, so a YAML tag has no meaning in it; one written `!x` is most often text
 * that YAML read as a tag — `!=` in `check: [$a, !=, 3]` — and is named so, with the fix.
 */
function refuseLocalTag(
  node: Node,
  text: string,
  file: string,
  path: readonly (string | number)[],
): void {
  const { tag, range } = node;
  if (tag === undefined || tag.startsWith("tag:yaml.org,2002:")) return;
  // The node's range starts at its value, after the tag: the place named is the tag's own.
  const value = range?.[0] ?? 0;
  const written = text.lastIndexOf(tag, value);
  const { line, column } = textPosition(text, written < 0 ? value : written);
  throw new ModelFileError(
    file,
    pointerOf(path),
    `YAML reads ${tag} as a tag, and a model file has none: to write the text ${tag}, quote it ("${tag}")`,
    line,
    column,
  );
}

/** Finds the nearest place the file writes: a missing member is reported where its object is. */
function locateIn(text: string, offsets: ReadonlyMap<string, number>): Locate {
  return (path) => {
    for (let length = path.length; length >= 0; length -= 1) {
      const offset = offsets.get(pointerOf(path.slice(0, length)));
      if (offset !== undefined) return textPosition(text, offset);
    }
    return null;
  };
}
