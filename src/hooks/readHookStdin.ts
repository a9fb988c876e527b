// Reads the JSON an agent writes to a hook command's stdin, bounded in size and time.
import type { Readable } from 'node:stream';

export type HookStdin =
  | { readonly kind: 'ok'; readonly text: string }
  /** More than maxBytes arrived; the rest was read and discarded so the agent's write completes. */
  | { readonly kind: 'too_large'; readonly bytes: number }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'error'; readonly code: string };

export interface ReadHookStdinOptions {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** Never rejects. A terminal on stdin (someone ran `rec hook` by hand) reads as empty. */
export function readHookStdin(stdin: NodeJS.ReadableStream, opts: ReadHookStdinOptions): Promise<HookStdin> {
  if ((stdin as { isTTY?: boolean }).isTTY) return Promise.resolve({ kind: 'ok', text: '' });
  return new Promise<HookStdin>((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;

    const finish = (result: HookStdin): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
      if (result.kind === 'timeout' || result.kind === 'error') {
        // Let go of the pipe so that an agent which never closes it cannot keep this process alive.
        (stdin as Readable).destroy?.();
      }
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buf.length;
      if (bytes <= opts.maxBytes) chunks.push(buf);
      else chunks.length = 0; // Over the limit: keep draining, keep nothing.
    };
    const onEnd = (): void => {
      finish(
        bytes > opts.maxBytes
          ? { kind: 'too_large', bytes }
          : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') },
      );
    };
    const onError = (err: NodeJS.ErrnoException): void => finish({ kind: 'error', code: err.code ?? 'error' });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), opts.timeoutMs);

    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    stdin.resume();
  });
}
