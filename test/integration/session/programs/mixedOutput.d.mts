/** Yields `total` bytes of deterministic agent-like output in blocks (see mixedOutput.mjs). */
export function mixedOutputBlocks(total: number, seed?: number): Generator<Buffer>;
