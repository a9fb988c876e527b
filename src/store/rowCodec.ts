// One codec per table, made from the zod schema of the row as programs see it: the columns, and how
// each one is stored, follow from the field's type. Every writer encodes and every reader decodes
// through it, so a field cannot be added on one side only (a boolean column once was, and merge
// dropped every event written after it).
import { z } from 'zod';

export type SqlValue = string | number | bigint | null;

/** How a field is kept in SQLite, which has no boolean and no JSON type. */
type Storage = 'text' | 'integer' | 'boolean' | 'json' | 'json_array';

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export interface TableCodec<T> {
  readonly table: string;
  /** The columns, in the schema's order: the same names in SQL, zod and JSON. */
  readonly columns: readonly string[];
  /** A whole row for INSERT: every column, absent values as NULL (arrays as `[]`). */
  encode(value: Partial<T>): Record<string, SqlValue>;
  /** One column's value for SQL (for UPDATE). */
  encodeColumn(column: string, value: unknown): SqlValue;
  /**
   * A row as SQLite returns it → the value, checked by the schema. A column the file does not have
   * (a database written by an older rec, read without migrating) reads as NULL.
   */
  decode(row: Readonly<Record<string, unknown>>): Decoded<T>;
  /**
   * The same, from the values of a raw row (the driver's array mode) in `columns` order: a reader
   * of many rows skips building one object per row before the codec builds its own.
   */
  decodeValues(values: readonly unknown[]): Decoded<T>;
  /**
   * A codec of some of the columns, with the same field definitions: for a reader that needs only
   * those (export leaves the screen and the agent's native record, the bulk of a row, unread).
   */
  pick<K extends keyof T & string>(columns: readonly K[]): TableCodec<Pick<T, K>>;
}

export function tableCodec<S extends z.ZodObject>(table: string, schema: S): TableCodec<z.output<S>> {
  const storage = new Map<string, Storage>();
  for (const [column, field] of Object.entries(schema.shape)) storage.set(column, storageOf(field as z.ZodType));
  const columns = [...storage.keys()];

  const encodeColumn = (column: string, value: unknown): SqlValue => {
    const how = storage.get(column);
    if (how === undefined) throw new Error(`${table} has no column ${column}`);
    if (value === undefined || value === null) return how === 'json_array' ? '[]' : null;
    switch (how) {
      case 'json':
      case 'json_array':
        return JSON.stringify(value);
      case 'boolean':
        return value ? 1 : 0;
      default:
        return value as SqlValue;
    }
  };

  return {
    table,
    columns,
    encodeColumn,
    encode(value) {
      const row: Record<string, SqlValue> = {};
      for (const column of columns) row[column] = encodeColumn(column, (value as Record<string, unknown>)[column]);
      return row;
    },
    decode(row) {
      const out: Record<string, unknown> = {};
      for (const [column, how] of storage) out[column] = decodeColumn(how, row[column]);
      return check(out);
    },
    decodeValues(values) {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) out[columns[i]!] = decodeColumn(storage.get(columns[i]!)!, values[i]);
      return check(out);
    },
    pick<K extends keyof z.output<S> & string>(picked: readonly K[]) {
      const mask = Object.fromEntries(picked.map((column) => [column, true])) as Record<string, true>;
      return tableCodec(table, schema.pick(mask)) as unknown as TableCodec<Pick<z.output<S>, K>>;
    },
  };

  function check(out: Record<string, unknown>): Decoded<z.output<S>> {
    const parsed = schema.safeParse(out);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim() };
  }
}

function decodeColumn(how: Storage, raw: unknown): unknown {
  if (raw === undefined || raw === null) return how === 'json_array' ? [] : null;
  switch (how) {
    case 'json':
    case 'json_array':
      return parseJson(raw);
    case 'boolean':
      // 1/0 as written; a bigint when the driver reads integers safely.
      return raw === 1 || raw === 1n ? true : raw === 0 || raw === 0n ? false : raw;
    case 'integer':
      return typeof raw === 'bigint' ? Number(raw) : raw;
    default:
      return raw;
  }
}

function parseJson(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    // A JSON column holding plain text (a hand-made sidecar's command written as-is): keep the
    // text, and let the schema say whether that is acceptable for the field.
    return raw;
  }
}

/** The storage a field's type implies, looking through nullable / optional / default wrappers. */
function storageOf(field: z.ZodType): Storage {
  let inner: z.ZodType = field;
  for (;;) {
    const def = inner._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === 'nullable' || def.type === 'optional' || def.type === 'default') && def.innerType) {
      inner = def.innerType;
      continue;
    }
    switch (def.type) {
      case 'boolean':
        return 'boolean';
      case 'number':
      case 'int':
      case 'bigint':
        return 'integer';
      case 'string':
      case 'enum':
      case 'literal':
        return 'text';
      case 'array':
        // An array column is never NULL: absent is empty.
        return field === inner ? 'json_array' : 'json';
      default:
        return 'json';
    }
  }
}
