// A plain agent for unit tests of the facts side (callFacts.ts and its parts): each line of its
// session file is one SessionFact as JSON, a prompt shows a call when it shows the call's command,
// and every call is a command. What a real agent's profile adds (its screen, its records) is tested
// with its recordings.
import type { PromptView, SessionFact } from '../../src/agents/common/agentProfile.js';
import type { FactsProfile } from '../../src/agents/common/factApplier.js';
import type { KnownCall } from '../../src/agents/common/callLedger.js';

export class PlainFactsProfile implements FactsProfile<PromptView> {
  /** The versions the facts side told the profile, in order. */
  readonly versions: Array<string | undefined> = [];

  constructor(
    readonly writesRefusedCalls = false,
    readonly decisionsNameTheirCall = false,
  ) {}

  setVersion(version: string | undefined): void {
    this.versions.push(version);
  }

  translateRecord(text: string): SessionFact[] {
    return [JSON.parse(text) as SessionFact];
  }

  promptShowsCall(prompt: PromptView, call: KnownCall): boolean {
    return prompt.command !== undefined && prompt.command === (call.toolInput as { command?: string }).command;
  }

  callKind(): 'command' {
    return 'command';
  }
}

/** A prompt drawn for `command`, with a Yes and a No. */
export function commandPrompt(command: string): PromptView {
  return {
    identity: command,
    kind: 'command',
    title: 'Allow command?',
    command,
    details: {},
    options: [
      { number: 1, label: 'Yes', highlighted: true, row: 5 },
      { number: 2, label: 'No', highlighted: false, row: 6 },
    ],
    highlighted: 1,
  };
}
