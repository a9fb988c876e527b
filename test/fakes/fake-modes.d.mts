export declare const MODES: Record<string, [on: string, off: string]>;
export declare const READY: string;
export declare const DONE: string;
