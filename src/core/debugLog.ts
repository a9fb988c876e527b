// Where a part writes its debug lines (REC_DEBUG=1): a function, so that core stays pure. The file
// behind it is store/debugLog.ts; it is never the terminal (the passthrough is sacred).
export type DebugLog = (message: string) => void;
