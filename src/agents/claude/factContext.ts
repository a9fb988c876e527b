// What Claude's transcript and its hooks both tell, kept once for the two translators
// (transcriptFacts.ts, hookFacts.ts): the texts of the agent's version, whether the session id was
// told, and which calls are a subagent's.
import type { ClaudeStrings } from './strings/index.js';
import { subagentOf } from './subagent.js';

export interface ClaudeFactContext {
  /** The texts of the agent's version, as the profile last set them. */
  strings(): ClaudeStrings;
  /** Whether the session id was told already, by a transcript line or a hook: it is told once. */
  sessionSaid: boolean;
  readonly subagents: SubagentLedger;
  /** The folder Claude Code runs in: its .claude/settings.local.json holds the rules it writes. */
  readonly cwd: string;
}

/** Whose a subagent transcript is: the agent's id, and the Agent call that started it once its meta file says. */
interface SubagentFile {
  readonly agentId: string | undefined;
  parentCallId: string | undefined;
}

/** The subagents seen: their transcripts, and the calls each made (from its transcript or its hooks). */
export class SubagentLedger {
  /** Per subagent transcript: whose it is, and the Agent call that started it once its meta file says. */
  private readonly _files = new Map<string, SubagentFile>();
  /** Calls a subagent made, with the agent's id. */
  private readonly _calls = new Map<string, string>();

  isSubagentCall(callId: string): boolean {
    return this._calls.has(callId);
  }

  addCall(callId: string, agentId: string): void {
    this._calls.set(callId, agentId);
  }

  /** agent_id and parent_call_id of a subagent file; the meta file is read again until it names the parent. */
  fileNative(file: string, lineAgentId: string | undefined): Record<string, unknown> {
    let known = this._files.get(file);
    if (!known || known.parentCallId === undefined) {
      const of = subagentOf(file);
      known = { agentId: of?.agent_id ?? lineAgentId, parentCallId: of?.parent_call_id ?? undefined };
      this._files.set(file, known);
    }
    return known.agentId === undefined ? {} : this.native(known.agentId);
  }

  /** agent_id and parent_call_id of a subagent's call, as far as its meta file said yet. */
  native(agentId: string): Record<string, unknown> {
    const parent = [...this._files.values()].find((f) => f.agentId === agentId && f.parentCallId !== undefined)?.parentCallId;
    return { agent_id: agentId, ...(parent !== undefined ? { parent_call_id: parent } : {}) };
  }
}
