// Small HTTP pieces both mock model servers use (responsesServer.ts for Codex, geminiServer.ts for Gemini).
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Listens on 127.0.0.1 at an ephemeral port; resolves with the port. */
export async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Drops open connections (a stream the client still holds) and closes the server. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
