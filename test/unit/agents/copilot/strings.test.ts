import { describe, expect, it } from 'vitest';
import { copilotOptionRules } from '../../../../src/agents/copilot/optionRules.js';
import { COPILOT_VERSIONS, copilotStringsFor, LATEST_COPILOT_STRINGS } from '../../../../src/agents/copilot/strings/index.js';
import { COPILOT_1_0_102 } from '../../../../src/agents/copilot/strings/v1_0_102.js';
import { isVerifiedVersion } from '../../../../src/agents/verifiedVersions.js';
import devPackage from '../../../../package.json' with { type: 'json' };

describe('copilot strings: one list of verified versions', () => {
  it('reads a verified version with its own texts, any other with the newest, which is unverified', () => {
    expect(copilotStringsFor('1.0.102')).toBe(COPILOT_1_0_102);
    expect(copilotStringsFor('1.0.999')).toBe(LATEST_COPILOT_STRINGS);
    expect(copilotStringsFor(undefined)).toBe(LATEST_COPILOT_STRINGS);
    expect(isVerifiedVersion(COPILOT_VERSIONS, '1.0.999')).toBe(false);
  });

  it('the newest verified version is the devDependency pin', () => {
    expect(COPILOT_VERSIONS.at(-1)!.version).toBe(devPackage.devDependencies['@github/copilot']);
    for (const v of COPILOT_VERSIONS) expect(v.strings.version).toBe(v.version);
  });
});

describe('copilot 1.0.102 option rules (docs/copilot.md §3)', () => {
  const rules = copilotOptionRules(COPILOT_1_0_102);
  it.each([
    ['Yes', { decision: 'approve', scope: 'once' }],
    ["Yes, and don't ask again for `node` in this repo (/w)", { decision: 'approve', scope: 'always' }],
    ["Yes, and don't ask again for file operations when in this repo (/w)", { decision: 'approve', scope: 'always' }],
    ['Yes, and don\'t ask again for tool "touch_marker" from "marker" in this repo (/w)', { decision: 'approve', scope: 'always' }],
    ['Yes, and remember this path for this session', { decision: 'approve', scope: 'session' }],
    ['Yes, allow file-tool read-only access to the listed directory for this session', { decision: 'approve', scope: 'session' }],
    ['Yes, and approve all URLs from "http://127.0.0.1:9" for the rest of the running session', { decision: 'approve', scope: 'session' }],
    ['Yes, and approve all URLs from "http://127.0.0.1:9" permanently', { decision: 'approve', scope: 'always' }],
    ['No, and tell Copilot what to do differently (Esc to stop)', { decision: 'reject', endsTurn: true, opensField: true }],
    ['No (Esc)', { decision: 'reject', endsTurn: true }],
  ])('%s', (label, meaning) => {
    expect(rules.meaning(label)).toEqual(meaning);
  });

  it('keys: Ctrl+C refuses at a prompt and cuts a running turn; Esc chooses no option; no hidden letters', () => {
    expect(rules).toMatchObject({ ctrlCRejects: true, ctrlCInterrupts: true, escChoosesRejectOption: false, hiddenRejectLetters: [], selectionWraps: false });
    expect(rules.meaning('Maybe')).toBeUndefined();
  });
});
