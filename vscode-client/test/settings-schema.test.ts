/**
 * package.json `contributes.configuration` agrees with the server's pydantic settings model:
 * same names, types, defaults, enums, bounds and descriptions. The server prints its model with
 * `python -m evalsubmit.lsp.settings --schema` (pydantic JSON schema, camelCase aliases).
 * Python: $EVALSUBMIT_PYTHON, else the repo's .venv/bin/python (`make setup`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_KEYS, SECRET_KEYS } from '../src/settings';

const ROOT = path.resolve(__dirname, '..', '..');
const PYTHON = process.env.EVALSUBMIT_PYTHON ?? path.join(ROOT, '.venv', 'bin', 'python');
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const contributed: Record<string, Record<string, unknown>> = pkg.contributes.configuration.properties;

type Schema = Record<string, any>;

/** One property of the pydantic schema in the vocabulary of VS Code settings. */
interface Expected {
  types: string[];
  default: unknown;
  description: string;
  enum?: string[];
  items?: unknown;
  additionalProperties?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

function deref(schema: Schema, node: Schema): Schema {
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/$defs/', '');
    return { ...schema.$defs[name], ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')) };
  }
  return node;
}

/** Flattens nested models into dotted keys, like VS Code settings (`platform.baseUrl`). */
function flatten(schema: Schema, node: Schema, prefix = ''): Record<string, Expected> {
  const out: Record<string, Expected> = {};
  for (const [name, raw] of Object.entries<Schema>(node.properties ?? {})) {
    const prop = deref(schema, raw);
    const key = prefix + name;
    if (prop.type === 'object' && prop.properties) {
      Object.assign(out, flatten(schema, prop, `${key}.`));
      continue;
    }
    const variants: Schema[] = prop.anyOf ? prop.anyOf : [prop];
    const types = variants.map((v) => (v.type === 'null' ? 'null' : v.type)).filter(Boolean);
    const main = variants.find((v) => v.type !== 'null') ?? {};
    const implicitDefault = main.type === 'array' ? [] : main.type === 'object' ? {} : undefined;
    out[key] = {
      types,
      default: 'default' in prop ? prop.default : implicitDefault,
      description: prop.description,
      ...(main.enum ? { enum: main.enum } : {}),
      ...(main.items ? { items: main.items } : {}),
      ...(main.additionalProperties ? { additionalProperties: main.additionalProperties } : {}),
      ...(prop.minimum !== undefined ? { minimum: prop.minimum } : {}),
      ...(prop.maximum !== undefined ? { maximum: prop.maximum } : {}),
      ...(prop.exclusiveMinimum !== undefined ? { exclusiveMinimum: prop.exclusiveMinimum } : {}),
    };
  }
  return out;
}

function serverSchema(): Schema {
  const r = spawnSync(PYTHON, ['-m', 'evalsubmit.lsp.settings', '--schema'], { encoding: 'utf8', timeout: 60_000 });
  if (r.error || r.status !== 0) {
    throw new Error(
      `"${PYTHON} -m evalsubmit.lsp.settings --schema" failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}` +
        '\nRun `make setup` or set EVALSUBMIT_PYTHON.',
    );
  }
  return JSON.parse(r.stdout);
}

describe('settings agree with the server model', () => {
  const schema = serverSchema();
  const expected = flatten(schema, schema);
  const serverKeys = Object.keys(expected).sort();
  const clientOnly = new Set(CLIENT_KEYS.map((k) => `evalsubmit.${k}`));
  const secret = new Set<string>(SECRET_KEYS);

  it('the same keys: every server field is contributed (but the token), every other contribution is client-only', () => {
    expect(serverKeys.length).toBeGreaterThan(5);
    const contributedServerKeys = Object.keys(contributed)
      .filter((k) => !clientOnly.has(k))
      .map((k) => k.replace(/^evalsubmit\./, ''))
      .sort();
    expect(contributedServerKeys).toEqual(serverKeys.filter((k) => !secret.has(k)));
    expect(serverKeys).toContain('platform.token'); // kept in SecretStorage by the client
  });

  it.each(Object.keys(expected).filter((k) => !SECRET_KEYS.includes(k as never)))('evalsubmit.%s: type, default, description, constraints', (key) => {
    const want = expected[key];
    const got = contributed[`evalsubmit.${key}`];
    expect(got, `evalsubmit.${key} is not contributed`).toBeDefined();
    const gotTypes = Array.isArray(got.type) ? got.type : [got.type];
    // An optional string of the server (string | null, default null) is a text box in VS Code:
    // type "string", default "", which the client sends as null.
    const textBox = [...want.types].sort().join() === 'null,string' && want.default === null;
    // pydantic "number" fields accept ints; VS Code "number" covers both too.
    expect([...gotTypes].sort()).toEqual(textBox ? ['string'] : [...want.types].sort());
    expect(got.default).toEqual(textBox ? '' : want.default);
    expect(got.description).toBe(want.description);
    expect(got.enum).toEqual(want.enum);
    if (want.items) expect(got.items).toEqual(want.items);
    if (want.additionalProperties) expect(got.additionalProperties).toEqual(want.additionalProperties);
    expect(got.minimum).toEqual(want.minimum);
    expect(got.maximum).toEqual(want.maximum);
    expect(got.exclusiveMinimum).toEqual(want.exclusiveMinimum);
  });
});
