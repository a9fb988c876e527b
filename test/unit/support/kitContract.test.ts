// Every agent's test kit keeps the one kit contract (test/support/kitContract.ts): the same files,
// the same exported names, the same shapes (the `satisfies` below fail the type check otherwise).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { REPO_ROOT } from '../../support/agentVersions.js';
import * as claudeDemo from '../../support/claude/demo.js';
import * as claudeEnv from '../../support/claude/env.js';
import * as claudeSession from '../../support/claude/recSession.js';
import * as claudeRun from '../../support/claude/recordedRun.js';
import * as claudeSampleReplay from '../../support/claude/sampleReplay.js';
import * as claudeSamples from '../../support/claude/samples.js';
import * as claudeSessions from '../../support/claude/sessions.js';
import * as codexDemo from '../../support/codex/demo.js';
import * as codexEnv from '../../support/codex/env.js';
import * as codexSession from '../../support/codex/recSession.js';
import * as codexRun from '../../support/codex/recordedRun.js';
import * as codexSampleReplay from '../../support/codex/sampleReplay.js';
import * as codexSamples from '../../support/codex/samples.js';
import * as codexSessions from '../../support/codex/sessions.js';
import * as copilotDemo from '../../support/copilot/demo.js';
import * as copilotEnv from '../../support/copilot/env.js';
import * as copilotSession from '../../support/copilot/recSession.js';
import * as copilotRun from '../../support/copilot/recordedRun.js';
import * as copilotSampleReplay from '../../support/copilot/sampleReplay.js';
import * as copilotSamples from '../../support/copilot/samples.js';
import * as copilotSessions from '../../support/copilot/sessions.js';
import * as geminiDemo from '../../support/gemini/demo.js';
import * as geminiEnv from '../../support/gemini/env.js';
import * as geminiSession from '../../support/gemini/recSession.js';
import * as geminiRun from '../../support/gemini/recordedRun.js';
import * as geminiSampleReplay from '../../support/gemini/sampleReplay.js';
import * as geminiSamples from '../../support/gemini/samples.js';
import * as geminiSessions from '../../support/gemini/sessions.js';
import { KIT_CONTRACT, type KitDemo, type KitEnv, type KitRecordedRun, type KitRecSession, type KitSampleReplay, type KitSamples, type KitSessions } from '../../support/kitContract.js';

interface Kit {
  readonly env: KitEnv;
  readonly recSession: KitRecSession;
  readonly recordedRun: KitRecordedRun;
  readonly samples: KitSamples;
  readonly sampleReplay: KitSampleReplay;
  readonly demo: KitDemo;
  readonly sessions: KitSessions;
}

const KITS: Record<string, Kit> = {
  codex: { env: codexEnv, recSession: codexSession, recordedRun: codexRun, samples: codexSamples, sampleReplay: codexSampleReplay, demo: codexDemo, sessions: codexSessions } satisfies Kit,
  gemini: { env: geminiEnv, recSession: geminiSession, recordedRun: geminiRun, samples: geminiSamples, sampleReplay: geminiSampleReplay, demo: geminiDemo, sessions: geminiSessions } satisfies Kit,
  claude: { env: claudeEnv, recSession: claudeSession, recordedRun: claudeRun, samples: claudeSamples, sampleReplay: claudeSampleReplay, demo: claudeDemo, sessions: claudeSessions } satisfies Kit,
  copilot: { env: copilotEnv, recSession: copilotSession, recordedRun: copilotRun, samples: copilotSamples, sampleReplay: copilotSampleReplay, demo: copilotDemo, sessions: copilotSessions } satisfies Kit,
};

describe('the test kits keep one contract', () => {
  it('every agent in the registry has a kit, and no kit is for an agent the registry lacks', () => {
    expect(Object.keys(KITS).sort()).toEqual([...AGENT_NAMES].sort());
  });

  it.each(AGENT_NAMES)("%s's kit has every file of the contract", (agent) => {
    const files = readdirSync(join(REPO_ROOT, 'test', 'support', agent));
    for (const file of Object.keys(KIT_CONTRACT)) expect(files, agent).toContain(`${file}.ts`);
  });

  it.each(AGENT_NAMES)("%s's kit exports every name of the contract, of the kind it names", (agent) => {
    const kit = KITS[agent]!;
    for (const [file, names] of Object.entries(KIT_CONTRACT)) {
      const exported = kit[file as keyof Kit] as unknown as Record<string, unknown>;
      for (const name of names) {
        const kind = /^[A-Z_]+$/.test(name) ? ['string', 'number', 'object'] : ['function'];
        expect(kind, `${agent}/${file}.ts ${name}`).toContain(typeof exported[name]);
      }
    }
  });
});
