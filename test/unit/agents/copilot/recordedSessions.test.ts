// The Copilot reader on every events.jsonl the real GitHub Copilot CLI 1.0.102 wrote in the recorded
// scenarios (test/fixtures/copilot/1.0.102/recorded, README there): the calls as the file lists them,
// and for each scenario the decisions its README line says, as far as the file alone tells them
// (docs/copilot.md §3–§5). The sidecar's part (triggers, option labels, partial text) is not here.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NativeFinding, NativeSession } from '../../../../src/readers/nativeSession.js';
import { readEventsFile, RECORDED_DIR } from '../../../support/copilot/readEvents.js';

const NAMES = readdirSync(RECORDED_DIR)
  .filter((f) => f.endsWith('.events.jsonl'))
  .map((f) => f.slice(0, -'.events.jsonl'.length))
  .sort();

type Expected = Partial<NativeFinding> & Pick<NativeFinding, 'type' | 'call_id' | 'undetermined'>;

/** Each scenario's findings, in file order; fields left out are null. */
const EXPECTED: Record<string, Expected[]> = {
  'allow-tool-rule': [],
  'askuser-answer': [],
  'askuser-esc': [],
  'bash-and-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_d2d5d80c9504210c', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'bash-approve-arrows': [
    {type: 'approval', call_id: 'toolu_mock_68c05400946ed017', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'bash-approve-digit': [
    {type: 'approval', call_id: 'toolu_mock_2b20328047ad5186', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'bash-approve-enter': [
    {type: 'approval', call_id: 'toolu_mock_c4f0c922a774c782', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'bash-approve-location': [
    {type: 'approval', call_id: 'toolu_mock_6d5721d7ab0e6956', decided_by: 'user', scope: 'always', ran: 'yes', undetermined: ['trigger']},
  ],
  'bash-pipe-approve': [
    {type: 'approval', call_id: 'toolu_mock_9d903994578b9ab4', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'bash-read-auto': [],
  'bash-reject-ctrlc': [
    {type: 'rejection', call_id: 'toolu_mock_f8b4f50620c07669', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'bash-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_d7869748c1fe5fa6', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'bash-reject-reason-esc': [
    {type: 'rejection', call_id: 'toolu_mock_61b1a36a940babb1', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'bash-reject-reason': [
    {type: 'rejection', call_id: 'toolu_mock_0fd9b40cb96d32c5', kind: 'command', decided_by: 'user', reason: 'please use printf instead', reason_source: 'inline', ran: 'no', undetermined: ['trigger']},
  ],
  'create-approve-location': [
    {type: 'approval', call_id: 'toolu_mock_a9ed844b3a971b4d', decided_by: 'user', scope: 'always', ran: 'yes', undetermined: ['trigger']},
  ],
  'create-approve': [
    {type: 'approval', call_id: 'toolu_mock_965d15365cc4cb03', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'create-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_dfc4cb0b1a2a3ad2', kind: 'edit', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'deny-tool-rule': [
    {type: 'rejection', call_id: 'toolu_mock_af6951f05a273df1', kind: 'permission', decided_by: 'rule', reason_source: 'none', ran: 'no', undetermined: []},
  ],
  'edit-reject-reason': [
    {type: 'rejection', call_id: 'toolu_mock_080231f1a846e695', kind: 'edit', decided_by: 'user', reason: 'please use printf instead', reason_source: 'inline', ran: 'no', undetermined: ['trigger']},
  ],
  'hooks-bash-reject-reason': [
    {type: 'rejection', call_id: 'toolu_mock_3a8a49f5dfb1e406', kind: 'command', decided_by: 'user', reason: 'please use printf instead', reason_source: 'inline', ran: 'no', undetermined: ['trigger']},
  ],
  'hooks-parallel-esc': [
    {type: 'rejection', call_id: 'toolu_mock_ce257be60c7d6bb2', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
    {type: 'skipped', call_id: 'toolu_mock_2ef9937b04be7ad5', ran: 'no', related_call_id: 'toolu_mock_ce257be60c7d6bb2', undetermined: []},
    {type: 'skipped', call_id: 'toolu_mock_26b969cb6f6b876c', ran: 'no', related_call_id: 'toolu_mock_ce257be60c7d6bb2', undetermined: []},
  ],
  'mcp-approve-location': [
    {type: 'approval', call_id: 'toolu_mock_7b7f17ecc2bc47f9', decided_by: 'user', scope: 'always', ran: 'yes', undetermined: ['trigger']},
  ],
  'mcp-approve': [
    {type: 'approval', call_id: 'toolu_mock_04b4eebf7583c2a9', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'mcp-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_be74941e37f6dc30', kind: 'mcp', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'parallel-first-reason': [
    {type: 'rejection', call_id: 'toolu_mock_358e023e967c3d7e', kind: 'command', decided_by: 'user', reason: 'please use printf instead', reason_source: 'inline', ran: 'no', undetermined: ['trigger']},
    {type: 'approval', call_id: 'toolu_mock_1be6e147954c5dba', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
    {type: 'approval', call_id: 'toolu_mock_28b1406d5e782f02', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'parallel-second-esc': [
    {type: 'approval', call_id: 'toolu_mock_97e0c9e33be10d6e', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
    {type: 'rejection', call_id: 'toolu_mock_22591fb2e200f693', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
    {type: 'skipped', call_id: 'toolu_mock_9c0a4530c0016f87', ran: 'no', related_call_id: 'toolu_mock_22591fb2e200f693', undetermined: []},
  ],
  'path-approve-session': [
    {type: 'approval', call_id: 'toolu_mock_189efd27083ae034', decided_by: 'user', ran: 'yes', undetermined: ['trigger', 'scope']},
  ],
  'path-reject-digit': [
    {type: 'rejection', call_id: 'toolu_mock_9d7e42857d2a8629', kind: 'permission', decided_by: 'user', reason_source: 'none', ran: 'no', undetermined: ['trigger']},
  ],
  'path-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_5e54abd18c65e655', kind: 'permission', decided_by: 'user', reason_source: 'none', ran: 'no', undetermined: ['trigger']},
  ],
  'resume-continue': [
    {type: 'approval', call_id: 'toolu_mock_7ef5755d811e08d8', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
    {type: 'approval', call_id: 'toolu_mock_4cc45250a212672e', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'sleep-ctrlc-running': [
    {type: 'approval', call_id: 'toolu_mock_6b65603122574905', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
    {type: 'interruption', call_id: 'toolu_mock_6b65603122574905', kind: 'tool', ran: 'yes', undetermined: ['trigger', 'partial_output']},
  ],
  'sleep-esc-esc-running': [
    {type: 'approval', call_id: 'toolu_mock_e14b957f7ee71f7b', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
    {type: 'interruption', call_id: 'toolu_mock_e14b957f7ee71f7b', kind: 'tool', ran: 'yes', undetermined: ['trigger', 'partial_output']},
  ],
  'slowtext-ctrlc': [
    {type: 'interruption', call_id: null, kind: 'response', undetermined: ['trigger', 'partial_output']},
  ],
  'slowtext-esc-esc': [
    {type: 'interruption', call_id: null, kind: 'response', undetermined: ['trigger', 'partial_output']},
  ],
  'url-approve-always': [
    {type: 'approval', call_id: 'toolu_mock_f98d72a76e66926e', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'scope']},
    {type: 'rejection', call_id: 'toolu_mock_f98d72a76e66926e', kind: 'command', decided_by: 'user', ran: 'no', undetermined: ['trigger', 'reason_source']},
  ],
  'url-approve': [
    {type: 'approval', call_id: 'toolu_mock_4d355b2d0c87a879', decided_by: 'user', scope: 'once', ran: 'yes', undetermined: ['trigger']},
  ],
  'url-reject-esc': [
    {type: 'rejection', call_id: 'toolu_mock_a6021bd8a0178828', kind: 'network', decided_by: 'user', reason_source: 'none', ran: 'no', undetermined: ['trigger']},
  ],
};

interface Line {
  type: string;
  data: Record<string, unknown>;
}

function linesOf(name: string): Line[] {
  return readFileSync(`${RECORDED_DIR}${name}.events.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Line);
}

function read(name: string): Promise<NativeSession> {
  return readEventsFile(`${RECORDED_DIR}${name}.events.jsonl`);
}

/** A finding with its null fields left out, as EXPECTED writes it. */
function brief(f: NativeFinding): Expected {
  const out: Record<string, unknown> = { type: f.type, call_id: f.call_id };
  for (const k of ['kind', 'decided_by', 'scope', 'reason', 'reason_source', 'ran', 'related_call_id'] as const) if (f[k] !== null) out[k] = f[k];
  out['undetermined'] = f.undetermined;
  return out as Expected;
}

function only(s: NativeSession, type: NativeFinding['type']): NativeFinding {
  const found = s.findings.filter((f) => f.type === type);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('copilot 1.0.102 events.jsonl recorded from the real CLI', () => {
  it('every recording with a session file is read, and each has its expected decisions', () => {
    // trust-esc and trust-remember quit before a prompt: no events.jsonl (docs/copilot.md §1).
    expect(NAMES).toHaveLength(37);
    expect(Object.keys(EXPECTED).sort()).toEqual(NAMES);
  });

  for (const name of NAMES) {
    it(`${name}: calls as the file lists them, decisions as its README line says`, async () => {
      const s = await read(name);
      const lines = linesOf(name);
      expect(s.diagnostics).toEqual([]);
      // Every line type of 1.0.102 is known: nothing is kept raw.
      expect(s.unknown_records).toEqual([]);
      const start = lines.find((l) => l.type === 'session.start')!.data;
      expect(s).toMatchObject({ agent: 'copilot', agent_version: '1.0.102', session_id: start['sessionId'], cwd: '<BASE>/work', readable: true });

      const requests = lines.filter((l) => l.type === 'assistant.message').flatMap((l) => l.data['toolRequests'] as Array<Record<string, unknown>>);
      expect(s.calls.map((c) => [c.call_id, c.tool_name, c.tool_input])).toEqual(requests.map((r) => [r['toolCallId'], r['name'], r['arguments']]));
      const completions = lines.filter((l) => l.type === 'tool.execution_complete').map((l) => l.data);
      const results = s.messages.flatMap((m) => m.tool_results);
      expect(results.map((r) => [r.call_id, r.is_error])).toEqual(completions.map((c) => [c['toolCallId'], c['success'] === false]));
      // A call ran when it completed without being refused; a refused, cancelled or cut one did not finish.
      const ran = completions.filter((c) => c['success'] === true).map((c) => c['toolCallId']);
      expect(s.calls.filter((c) => c.fate === 'ran').map((c) => c.call_id)).toEqual(s.calls.map((c) => c.call_id).filter((id) => ran.includes(id)));

      expect(s.findings.map(brief)).toEqual(EXPECTED[name]);
    });
  }

  it('Esc and Ctrl+C at a prompt write the same: a rejection whose trigger the file cannot tell', async () => {
    const [esc, ctrlC] = await Promise.all([read('bash-reject-esc'), read('bash-reject-ctrlc')]);
    const shape = (f: NativeFinding) => ({ ...brief(f), call_id: null, native: { ...(f.native as object), requestId: null } });
    expect(shape(only(esc, 'rejection'))).toEqual(shape(only(ctrlC, 'rejection')));
    expect(only(esc, 'rejection').native).toMatchObject({ request: 'shell', result: { kind: 'cancelled', reason: 'Session aborted' }, abort: 'user_initiated' });
    // The reason typed before Esc is thrown away: nothing of it is in the file.
    expect(only(await read('bash-reject-reason-esc'), 'rejection')).toMatchObject({ reason: null, reason_source: null });
  });

  it('a reason typed into the prompt is the rejection\'s reason, in Copilot\'s words too', async () => {
    const f = only(await read('bash-reject-reason'), 'rejection');
    expect(f.native).toMatchObject({
      result: { kind: 'denied-interactively-by-user', feedback: 'please use printf instead' },
      decisionSource: 'human_response',
      error: { code: 'denied', message: 'The user rejected this tool call. User feedback: please use printf instead' },
    });
  });

  it('"No (Esc)" at the path and URL prompts: refused without a reason, and the turn ends with an abort', async () => {
    for (const [name, kind] of [['path-reject-digit', 'permission'], ['path-reject-esc', 'permission'], ['url-reject-esc', 'network']] as const) {
      const f = only(await read(name), 'rejection');
      expect(f.kind, name).toBe(kind);
      expect(f.native, name).toMatchObject({ result: { kind: 'denied-interactively-by-user' }, error: { code: 'rejected' }, abort: 'user_initiated' });
    }
  });

  it('"don\'t ask again … in this repo" keeps the rule Copilot saved beside the approval', async () => {
    const rules = { 'bash-approve-location': { kind: 'commands', commandIdentifiers: ['node'] }, 'create-approve-location': { kind: 'write' }, 'mcp-approve-location': { kind: 'mcp', serverName: 'marker', toolName: 'touch_marker' } };
    for (const [name, approval] of Object.entries(rules)) {
      const f = only(await read(name), 'approval');
      expect(f.scope, name).toBe('always');
      expect(f.native, name).toMatchObject({ decisions: [{ result: { kind: 'approved-for-location', approval, locationKey: '<BASE>/work' } }] });
    }
  });

  it('a --deny-tool rule refuses with no prompt, and names its rule', async () => {
    const f = only(await read('deny-tool-rule'), 'rejection');
    expect(f.native).toMatchObject({ rules: ['shell(rm)'], error: { code: 'denied' } });
  });

  it('the URL prompt and then the shell prompt of one call: one approval holding both answers', async () => {
    const approved = only(await read('url-approve'), 'approval');
    expect((approved.native as { decisions: Array<{ request: string }> }).decisions.map((d) => d.request)).toEqual(['url', 'shell']);
    const always = await read('url-approve-always');
    expect((only(always, 'approval').native as { decisions: Array<{ request: string }> }).decisions.map((d) => d.request)).toEqual(['url']);
    expect(only(always, 'rejection').native).toMatchObject({ request: 'shell', result: { kind: 'cancelled' } });
  });

  it('a cut while a command runs and a cut streamed answer keep the abort\'s reason (Esc Esc vs Ctrl+C)', async () => {
    expect(only(await read('sleep-esc-esc-running'), 'interruption').native).toEqual({ abort: 'user_abort' });
    expect(only(await read('sleep-ctrlc-running'), 'interruption').native).toEqual({ abort: 'user_initiated' });
    const esc = await read('slowtext-esc-esc');
    expect(only(esc, 'interruption')).toMatchObject({ native: { abort: 'user_abort' }, partial_output: null, message_index: 0 });
    expect(esc.messages.map((m) => m.role)).toEqual(['user']);
    expect(only(await read('slowtext-ctrlc'), 'interruption').native).toEqual({ abort: 'user_initiated' });
  });

  it.each(['hooks-parallel-esc', 'parallel-second-esc'])('%s: the rejected call is the prompt on screen at the Esc; its pending siblings are skipped', async (name) => {
    const s = await read(name);
    const rejected = only(s, 'rejection');
    const call = s.calls.find((c) => c.call_id === rejected.call_id)!;
    expect(lastPromptTitle(readFileSync(`${RECORDED_DIR}${name}.screen.txt`, 'utf8'))).toBe((call.tool_input as { description: string }).description);
    const skipped = s.findings.filter((f) => f.type === 'skipped');
    expect(skipped.length + s.findings.filter((f) => f.type !== 'skipped').length).toBe(s.calls.length);
    for (const f of skipped) expect(f.related_call_id).toBe(rejected.call_id);
  });

  it('a resumed session appends to one file: one session, both runs\' calls', async () => {
    const s = await read('resume-continue');
    expect(s.record_counts).toMatchObject({ 'session.start': 1, 'session.resume': 1, 'session.shutdown': 2 });
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(s.started_at! < s.ended_at!).toBe(true);
  });

  it('the conversation: the typed prompt, the model\'s text and calls, the results as the model was told them', async () => {
    const s = await read('edit-reject-reason');
    expect(s.messages.map((m) => [m.role, m.tool_calls.map((c) => c.tool_name), m.tool_results.map((r) => r.is_error)])).toEqual([
      ['user', [], []],
      ['assistant', ['view'], []],
      ['tool', [], [false]],
      ['assistant', ['edit'], []],
      ['tool', [], [true]],
      ['assistant', [], []],
    ]);
    expect(s.messages[0]!.text).toBe(linesOf('edit-reject-reason').find((l) => l.type === 'user.message')!.data['content']);
    expect(s.messages[4]!.tool_results[0]!.output).toBe('The user rejected this tool call. User feedback: please use printf instead');
  });
});

/** The title of the last permission box on a recorded screen (its first row): the call's description. */
function lastPromptTitle(screens: string): string | undefined {
  const frames = screens.split(/^# /m).filter((f) => f.includes('Do you want to'));
  const rows = frames[frames.length - 1]?.split('\n') ?? [];
  const top = rows.findIndex((r) => r.startsWith('╭'));
  return rows[top + 1]?.replace(/^│\s*|\s*│$/g, '');
}
