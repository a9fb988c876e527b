// Small HTTP pieces every mock model server uses, beside the scaffold (./scaffold.ts).
import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Not JSON: the zod parse that follows reports it as a bad request.
    return undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A list of recorded items with a wait for the first one (past or future) that satisfies a predicate. */
export class RequestLog<T> {
  readonly items: T[] = [];
  private readonly _listeners = new Set<() => void>();

  constructor(private readonly _describe: (item: T) => string) {}

  push(item: T): void {
    this.items.push(item);
    for (const l of [...this._listeners]) l();
  }

  waitFor(predicate: (item: T) => boolean, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = this.items.find(predicate);
        if (!hit) return;
        this._listeners.delete(check);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        this._listeners.delete(check);
        reject(new Error(`no matching request within ${timeoutMs} ms; got ${this.items.length}: ${this.items.map(this._describe).join(', ')}`));
      }, timeoutMs);
      this._listeners.add(check);
      check();
    });
  }
}

/** The token of an `Authorization: Bearer <token>` header (the OpenAI APIs), or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
}

/** A JSON answer with its status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Appends one JSON line per call to `file`; without a file, does nothing (the log is optional). */
export function jsonLines(file: string | undefined): (line: unknown) => void {
  return (line) => {
    if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}
