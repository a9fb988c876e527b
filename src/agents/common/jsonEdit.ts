// Inserts strings into a list of a JSON document by editing its text, so that everything else in
// the file stays byte-for-byte as it was: the user's formatting, key order and other settings.
// Only for a document JSON.parse accepted (the caller checks first).

interface Span {
  start: number;
  end: number;
}

class Scanner {
  i = 0;
  constructor(readonly t: string) {}

  ws(): void {
    while (this.i < this.t.length && /\s/.test(this.t[this.i]!)) this.i++;
  }

  /** Skips one value; returns its span. */
  value(): Span {
    this.ws();
    const start = this.i;
    const c = this.t[this.i];
    if (c === '"') this.string();
    else if (c === '{' || c === '[') this.members(c === '{' ? '}' : ']', () => undefined);
    else while (this.i < this.t.length && !/[\s,\]}]/.test(this.t[this.i]!)) this.i++;
    return { start, end: this.i };
  }

  string(): string {
    const start = this.i++;
    while (this.t[this.i] !== '"') this.i += this.t[this.i] === '\\' ? 2 : 1;
    this.i++;
    return JSON.parse(this.t.slice(start, this.i)) as string;
  }

  /** Walks an object's or a list's members; `onKey` sees each key with the span of its value. */
  members(close: string, onKey: (key: string | null, v: Span) => void): void {
    this.i++;
    for (;;) {
      this.ws();
      if (this.t[this.i] === close) {
        this.i++;
        return;
      }
      let key: string | null = null;
      if (close === '}') {
        key = this.string();
        this.ws();
        this.i++; // ':'
      }
      onKey(key, this.value());
      this.ws();
      if (this.t[this.i] === ',') this.i++;
    }
  }
}

/** The span of the object member `key` in the object at `obj`, or null. */
function member(text: string, obj: Span, key: string): Span | null {
  const s = new Scanner(text);
  s.i = obj.start;
  let found: Span | null = null;
  s.members('}', (k, v) => {
    if (k === key && found === null) found = v;
  });
  return found;
}

/** The indentation of the line `at` is on. */
function indentAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Text to insert before `close` (at `end - 1`) of the container at `span`, adding `items`. */
function insertInto(text: string, span: Span, items: readonly string[]): string {
  const inner = text.slice(span.start + 1, span.end - 1);
  const close = span.end - 1;
  if (inner.trim() === '') return text.slice(0, span.start + 1) + items.join(', ') + text.slice(close);
  // After the last member, one per line at the last member's indentation.
  let last = close - 1;
  while (/\s/.test(text[last]!)) last--;
  const indent = indentAt(text, last);
  const multiline = inner.includes('\n');
  const joined = items.map((x) => (multiline ? `,\n${indent}${x}` : `, ${x}`)).join('');
  return text.slice(0, last + 1) + joined + text.slice(last + 1);
}

/** `text` with `values` added to the list at `path` (made when missing), skipping values already there. */
export function addToJsonList(text: string, path: readonly string[], values: readonly string[]): string {
  const s = new Scanner(text);
  let at = s.value();
  for (const [n, key] of path.entries()) {
    const next = member(text, at, key);
    if (next === null) {
      const rest = path.slice(n + 1);
      const literal = rest.reduceRight<string>((inner, k) => `{${JSON.stringify(k)}: ${inner}}`, `[${values.map((v) => JSON.stringify(v)).join(', ')}]`);
      return insertInto(text, at, [`${JSON.stringify(key)}: ${literal}`]);
    }
    at = next;
  }
  const present = new Set<unknown>(JSON.parse(text.slice(at.start, at.end)) as unknown[]);
  const fresh = values.filter((v) => !present.has(v));
  return fresh.length === 0 ? text : insertInto(text, at, fresh.map((v) => JSON.stringify(v)));
}
