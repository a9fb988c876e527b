// The live recorder (ClaudeProfile.translateRecord) and rec merge's reader (ClaudeTranscriptReader)
// read a transcript through one schema and one tool_result rule (sessionRecords.ts): fed the same
// files, they must say the same about every call — who refused it, with what reason, whether it ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaudeProfile } from '../../../../src/agents/claude/profile.js';
import type { SessionFact } from '../../../../src/agents/common/agentProfile.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { blankScreen, TestScreen } from '../../../support/testScreen.js';
import { SAMPLES_DIR } from '../../../support/claude/samples.js';

interface Said {
  refusedBy?: string;
  reason?: string;
  aborted?: boolean;
  ran?: boolean;
}

function liveSays(lines: readonly string[]): Map<string, Said> {
  const profile = new ClaudeProfile({ env: {}, cwd: '/', startedAt: new Date(0), screen: new TestScreen(blankScreen()) });
  const said = new Map<string, Said>();
  const of = (id: string) => said.get(id) ?? said.set(id, {}).get(id)!;
  for (const fact of lines.flatMap((l) => profile.translateRecord(l)) as SessionFact[]) {
    if (fact.type === 'output') {
      of(fact.callId).aborted = fact.aborted;
      if (fact.reason !== undefined) of(fact.callId).reason = fact.reason;
    } else if (fact.type === 'refused') of(fact.callId).refusedBy = fact.decidedBy;
    else if (fact.type === 'ran') of(fact.callId).ran = true;
  }
  return said;
}

const TRANSCRIPTS = readdirSync(join(SAMPLES_DIR, 'transcript')).filter((f) => f.endsWith('.jsonl') && !f.startsWith('24-'));

describe('claude transcripts: the live recorder and merge apply one rule', () => {
  it.each(TRANSCRIPTS)('%s', async (name) => {
    const file = join(SAMPLES_DIR, 'transcript', name);
    const merged = (await readSessionFile(file, 'claude')).session!;
    const live = liveSays(readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== ''));
    for (const f of merged.findings) {
      if (f.call_id === null) continue;
      const said = live.get(f.call_id) ?? {};
      if (f.type === 'approval') expect(said.aborted, `${f.call_id} approved`).toBe(false);
      else expect(said.aborted, `${f.call_id} ${f.type}`).toBe(true);
      if (f.type === 'rejection' && f.decided_by !== 'user') expect(said.refusedBy, f.call_id).toBe(f.decided_by);
      if (f.type === 'rejection' && f.decided_by === 'user') expect(said.refusedBy, f.call_id).toBeUndefined();
      if (f.reason !== null) expect(said.reason, f.call_id).toBe(f.reason);
      if (f.type === 'interruption') expect(said.ran, f.call_id).toBe(true);
    }
  });
});
