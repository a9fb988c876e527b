// The merged JSON reuses the agent's own JSON text for long strings (src/merge/rawLiterals.ts):
// the output must be what JSON.stringify writes (byte for byte where the agent escapes as
// JSON.stringify does, the same value where it escapes otherwise), whatever the strings hold.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { joinSession } from '../../../src/merge/joinSession.js';
import type { MergedSession } from '../../../src/merge/mergedSession.js';
import { ELEMENTS_PER_PIECE, encodeLine, findLiteral, MIN_LITERAL_CHARS, mergedJsonLine } from '../../../src/merge/rawLiterals.js';
import { readSessionFile } from '../../../src/merge/readSession.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-literals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Agent = string;

/** Long text holding everything JSON.stringify escapes, and what it does not. */
function long(tag: string, n = 400): string {
  const pieces = ['plain words', 'a "quoted" word', 'back\\slash', 'line\nbreak', 'tab\there', 'é and ü', 'emoji 😀', 'nul\u0000here', 'the text \\u0000', 'a/slash', 'cr\r'];
  let s = `${tag}:`;
  for (let i = 0; s.length < n; i++) s += ` ${pieces[i % pieces.length]} ${i}`;
  return s;
}

/**
 * One session per agent in its own record shapes, with three long strings (a user text, an
 * assistant text, a tool output) and a short output that reads like rawLiterals' marker.
 * `literal` writes each long string's JSON text: JSON.stringify's, or another valid spelling.
 */
function sessionLines(agent: Agent, literal: (s: string) => string): { lines: string[]; longs: string[] } {
  const [user, assistant, output] = [long('user'), long('assistant', 600), long('output', 1200)];
  const L = literal;
  const ts = '"2026-11-22T10:00:00.000Z"';
  let lines: string[];
  if (agent === 'codex') {
    const item = (payload: string) => `{"timestamp":${ts},"type":"response_item","payload":${payload}}`;
    lines = [
      `{"timestamp":${ts},"type":"session_meta","payload":{"id":"0199a1b2-0000-7000-8000-000000000001","timestamp":${ts},"cwd":"/work","originator":"codex-tui","cli_version":"0.169.0","source":"cli","model_provider":"openai"}}`,
      item(`{"type":"message","role":"user","content":[{"type":"input_text","text":${L(user)}}]}`),
      item(`{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}","call_id":"call_1"}`),
      item(`{"type":"function_call_output","call_id":"call_1","output":${L(output)}}`),
      item(`{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"pwd\\"}","call_id":"call_2"}`),
      item(`{"type":"function_call_output","call_id":"call_2","output":"\\u00007x"}`),
      item(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":${L(assistant)}}]}`),
    ];
  } else if (agent === 'claude') {
    const meta = (uuid: string, type: string) =>
      `"parentUuid":null,"isSidechain":false,"uuid":"${uuid}","timestamp":${ts},"cwd":"/work","sessionId":"5539cf59-f689-e49c-47f6-705413a3b621","version":"2.1.328","type":"${type}"`;
    const result = (id: string, content: string) =>
      `{${meta(`u-${id}`, 'user')},"message":{"role":"user","content":[{"tool_use_id":"${id}","type":"tool_result","content":${content},"is_error":false}]},"toolUseResult":{"stdout":${content},"stderr":"","interrupted":false}}`;
    const use = (id: string, msg: string) =>
      `{${meta(`a-${id}`, 'assistant')},"message":{"id":"${msg}","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"${id}","name":"Bash","input":{"command":"ls"}}]}}`;
    lines = [
      `{${meta('u-1', 'user')},"message":{"role":"user","content":${L(user)}}}`,
      `{${meta('a-1', 'assistant')},"message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":${L(assistant)}}]}}`,
      use('toolu_1', 'msg_2'),
      result('toolu_1', L(output)),
      use('toolu_2', 'msg_3'),
      result('toolu_2', '"\\u00007x"'),
    ];
  } else if (agent === 'gemini') {
    const call = (id: string, out: string) =>
      `{"id":"${id}","name":"run_shell_command","args":{"command":"ls"},"status":"success","timestamp":${ts},"result":[{"functionResponse":{"id":"${id}","name":"run_shell_command","response":{"output":${out}}}}]}`;
    lines = [
      `{"sessionId":"a84c1746-7e3c-2be0-5883-e13a1ef0fe6d","projectHash":"7b2e","startTime":${ts},"lastUpdated":${ts},"kind":"main"}`,
      `{"id":"m1","timestamp":${ts},"type":"user","content":[{"text":${L(user)}}]}`,
      // Gemini writes a model message again once its tools have run; the last copy counts.
      `{"id":"m2","timestamp":${ts},"type":"gemini","content":${L(assistant)},"model":"gemini-2.5-flash"}`,
      `{"id":"m2","timestamp":${ts},"type":"gemini","content":${L(assistant)},"toolCalls":[${call('c1', L(output))},${call('c2', '"\\u00007x"')}],"model":"gemini-2.5-flash"}`,
    ];
  } else if (agent === 'copilot') {
    let n = 0;
    const ev = (type: string, data: string) => `{"type":"${type}","data":${data},"id":"e-${++n}","timestamp":${ts},"parentId":${n === 1 ? 'null' : `"e-${n - 1}"`}}`;
    const call = (id: string) => `{"toolCallId":"${id}","toolName":"bash","arguments":{"command":"ls","description":"List"}}`;
    lines = [
      ev('session.start', `{"sessionId":"7951ea01-1d20-4920-9cd4-5f71f6489dd7","version":1,"producer":"copilot-agent","copilotVersion":"1.0.102","startTime":${ts},"context":{"cwd":"/work"}}`),
      ev('user.message', `{"content":${L(user)},"messageId":"u1"}`),
      ev('assistant.turn_start', '{"turnId":"0"}'),
      ev('assistant.message', `{"messageId":"a1","content":${L(assistant)},"toolRequests":[{"toolCallId":"t1","name":"bash","arguments":{"command":"ls"}},{"toolCallId":"t2","name":"bash","arguments":{"command":"ls"}}]}`),
      ev('tool.execution_start', call('t1')),
      ev('tool.execution_complete', `{"toolCallId":"t1","success":true,"result":{"content":${L(output)}}}`),
      ev('tool.execution_start', call('t2')),
      ev('tool.execution_complete', '{"toolCallId":"t2","success":true,"result":{"content":"\\u00007x"}}'),
    ];
  } else {
    throw new Error(`no test session of ${agent}: add its record shapes here`);
  }
  return { lines, longs: [user, assistant, output] };
}

async function merged(agent: Agent, name: string, literal: (s: string) => string, keep = true) {
  const { lines, longs } = sessionLines(agent, literal);
  const file = join(dir, `${agent}-${name}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = await readSessionFile(file, agent, undefined, keep ? MIN_LITERAL_CHARS : null);
  expect(r.session, `${agent}: the test session reads`).not.toBeNull();
  const session: MergedSession = joinSession(r.session!, { events: [], runIds: [], source: 'file', files: [file] });
  // The test only means something if the long strings reached the merged messages.
  const texts = session.messages.flatMap((m) => [m.text, ...m.tool_results.map((t) => t.output)]);
  for (const s of longs) expect(texts, `${agent}: ${s.slice(0, 12)} is in the merged messages`).toContain(s);
  expect(texts).toContain('\u00007x');
  return { session, lines: r.keptLines };
}

const canonical = (s: string) => JSON.stringify(s);
/** Valid JSON that JSON.stringify would not write: every `e` as \u0065 and `/` as \/. */
const otherSpelling = (s: string) => JSON.stringify(s).replace(/e/g, '\\u0065').replace(/\//g, '\\/');

describe('findLiteral', () => {
  const v = 'x'.repeat(20);
  it('returns the literal, quotes included, of the key whose string decodes to the value', () => {
    expect(findLiteral(`{"a":1,"text":"${v}"}`, ['"text":"'], v)).toBe(`"${v}"`);
    const escaped = 'line\nand "quote" and \\ and é 😀';
    const line = `{"text":${JSON.stringify(escaped)},"n":1}`;
    expect(findLiteral(line, ['"text":"'], escaped)).toBe(JSON.stringify(escaped));
    const spelled = '"\\u0078\\/y"'; // x/y
    expect(findLiteral(`{"text":${spelled}}`, ['"text":"'], 'x/y')).toBe(spelled);
  });

  it('passes over other literals of the key and tries the next key', () => {
    const line = `{"text":"${'y'.repeat(20)}","b":{"text":"short"},"content":"${v}","text":"${v}"}`;
    expect(findLiteral(line, ['"text":"', '"content":"'], v)).toBe(`"${v}"`);
    expect(findLiteral(`{"content":"${v}"}`, ['"text":"', '"content":"'], v)).toBe(`"${v}"`);
    // Longer and escaped, so it has to be decoded to be told apart.
    const other = `{"b":{"text":"${'y'.repeat(30)}\\n"},"text":"${v}"}`;
    expect(findLiteral(other, ['"text":"'], v)).toBe(`"${v}"`);
  });

  it('does not take a key written inside a string, or text that only reads like the value', () => {
    // The first "text" is part of a string value; the value itself is the second one.
    const line = `{"note":"say \\"text\\":\\"${v}\\" here","text":"${v}"}`;
    const at = line.lastIndexOf(`"${v}"`);
    expect(findLiteral(line, ['"text":"'], v)).toBe(line.slice(at, at + v.length + 2));
    // A backslash and an n (two characters) are not the newline that \n spells.
    expect(findLiteral(`{"text":"a\\nb"}`, ['"text":"'], 'a\\nb')).toBeNull();
    expect(findLiteral(`{"text":"a\\\\nb"}`, ['"text":"'], 'a\\nb')).toBe('"a\\\\nb"');
  });

  it('gives null where the value is not there as a compact key and string', () => {
    expect(findLiteral(`{"text": "${v}"}`, ['"text":"'], v)).toBeNull();
    expect(findLiteral(`{"text":["${v}"]}`, ['"text":"'], v)).toBeNull();
    expect(findLiteral(`{"other":"${v}"}`, ['"text":"'], v)).toBeNull();
  });
});

describe('mergedJsonLine', () => {
  for (const agent of AGENT_NAMES) {
    it(`${agent}: writes exactly what JSON.stringify writes, with and without the kept lines`, async () => {
      const { session, lines } = await merged(agent, 'canonical', canonical);
      expect(lines!.size).toBeGreaterThan(0);
      const expected = `${JSON.stringify(session)}\n`;
      expect(Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8')).toBe(expected);
      expect(Buffer.from(mergedJsonLine(session, null, false)).toString('utf8')).toBe(expected);
      expect(Buffer.from(mergedJsonLine(session, lines, true)).toString('utf8')).toBe(`${JSON.stringify(session, null, 2)}\n`);
      // The session is left as it was found.
      expect(`${JSON.stringify(session)}\n`).toBe(expected);
    });

    it(`${agent}: reuses the agent's own spelling of each long string, and the JSON means the same`, async () => {
      const { session, lines } = await merged(agent, 'spelled', otherSpelling);
      const out = Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8');
      expect(out.endsWith('\n')).toBe(true);
      // Only the agent's literals hold \u0065: all three long strings were taken from the file.
      const taken = sessionLines(agent, otherSpelling).longs.filter((s) => out.includes(otherSpelling(s)));
      expect(taken).toHaveLength(3);
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(session)));
    });
  }

  it('without the kept lines, every string is stringified as before', async () => {
    const { session } = await merged('codex', 'unkept', otherSpelling, false);
    const out = Buffer.from(mergedJsonLine(session, null, false)).toString('utf8');
    expect(out).toBe(`${JSON.stringify(session)}\n`);
    expect(out).not.toContain('\\u0065');
  });

  it('a quote, a NUL and digits ending a string of the session are not taken for a marker', async () => {
    const { session, lines } = await merged('claude', 'almost-marker', otherSpelling);
    const first = session.messages[0]!;
    const before = first.text;
    first.text = 'say "\u00000'; // JSON: "say \"\u00000" - a quote, then what a marker holds
    try {
      const out = Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8');
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(session)));
      // Still spliced: the other long strings keep the agent's spelling.
      expect(out).toContain('\\u0065');
    } finally {
      first.text = before;
    }
  });

  it('a string of the session that reads exactly like a marker makes it write the plain way', async () => {
    const { session, lines } = await merged('gemini', 'marker', otherSpelling);
    // This session is spliced as it stands (the agent's spelling shows), so a plain output below
    // can only come from the fallback.
    expect(Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8')).toContain('\\u0065');
    // The first message's text replaced by what rawLiterals' first marker would be.
    const first = session.messages[0]!;
    const before = first.text;
    first.text = '\u00000';
    try {
      const out = Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8');
      expect(out).toBe(`${JSON.stringify(session)}\n`);
    } finally {
      first.text = before;
    }
  });
});

/** The session with its messages repeated (deep copies) past several pieces of the top-level arrays. */
function lengthened(session: MergedSession): MergedSession {
  const n = session.messages.length;
  const count = 3 * ELEMENTS_PER_PIECE + 5;
  const messages = Array.from({ length: count }, (_, i) => ({ ...structuredClone(session.messages[i % n]!), index: i }));
  return { ...session, messages };
}

describe('mergedJsonLine on top-level arrays longer than a piece', () => {
  for (const agent of AGENT_NAMES) {
    it(`${agent}: writes exactly what JSON.stringify writes, pieces and long strings spliced`, async () => {
      const { session: short, lines } = await merged(agent, 'long-canonical', canonical);
      const session = lengthened(short);
      const expected = `${JSON.stringify(session)}\n`;
      expect(Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8')).toBe(expected);
      expect(Buffer.from(mergedJsonLine(session, null, false)).toString('utf8')).toBe(expected);
      expect(Buffer.from(mergedJsonLine(session, lines, true)).toString('utf8')).toBe(`${JSON.stringify(session, null, 2)}\n`);
      expect(`${JSON.stringify(session)}\n`).toBe(expected);
    });
  }

  it("the agent's spellings show in every piece, and the JSON means the same", async () => {
    const { session: short, lines } = await merged('codex', 'long-spelled', otherSpelling);
    const session = lengthened(short);
    const out = Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8');
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(session)));
    // Each copy of a message with a long string carries the agent's literal.
    const longCopies = session.messages.filter((m) => (m.text?.length ?? 0) >= MIN_LITERAL_CHARS || m.tool_results.some((r) => (r.output?.length ?? 0) >= MIN_LITERAL_CHARS));
    expect(longCopies.length).toBeGreaterThan(ELEMENTS_PER_PIECE); // so they span several pieces
    expect(out.split('\\u0065').length - 1).toBeGreaterThanOrEqual(longCopies.length);
  });

  it('a string that reads like any marker, a long string\'s or an array\'s, makes it write the plain way', async () => {
    const { session: short, lines } = await merged('claude', 'long-marker', otherSpelling);
    const session = lengthened(short);
    const first = session.messages[0]!;
    const before = first.text;
    // Markers are numbered long strings first, then arrays: 0 … 200 covers both here. A marker
    // inside a piece that names its own array must not send the splice round in circles.
    try {
      for (let n = 0; n <= 200; n++) {
        first.text = `\u0000${n}`;
        const out = Buffer.from(mergedJsonLine(session, lines, false)).toString('utf8');
        expect(out, `marker ${n}`).toBe(`${JSON.stringify(session)}\n`);
      }
    } finally {
      first.text = before;
    }
  });
});

describe('encodeLine', () => {
  const parts = ['{"a":"', 'ascii', ' é ü ', '😀 \u2028', '"}'];
  const expected = `${parts.join('')}\n`;
  it('writes the parts and a newline as UTF-8, sized for the worst case or exactly', () => {
    for (const exactFrom of [Number.MAX_SAFE_INTEGER, 0]) {
      const out = encodeLine(parts, exactFrom);
      expect(Buffer.from(out).toString('utf8')).toBe(expected);
      expect(out.byteLength).toBe(Buffer.byteLength(expected));
    }
    // Sized exactly, the bytes are the whole buffer (a worker hands the whole buffer over).
    expect(encodeLine(parts, 0).buffer.byteLength).toBe(Buffer.byteLength(expected));
  });
});
