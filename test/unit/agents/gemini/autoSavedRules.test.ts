// The reader of Gemini's auto-saved.toml on real files in a temp dir: the block for a shell command
// is found verbatim, in the user's or the project's policies, and nothing else passes for it.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autoSavedRuleFiles, autoSavedShellRule, ruleBlocks, shellRoots } from '../../../../src/agents/gemini/autoSavedRules.js';

/** What Gemini 0.61.0 saved for `touch shell_marker.txt` (docs/gemini.md). */
const TOUCH = ['[[rule]]', 'decision = "allow"', 'priority = 950', 'toolName = "run_shell_command"', 'commandPrefix = [ "touch" ]', 'modes = [ "default", "autoEdit", "yolo" ]'].join('\n');
const NPM_GIT = TOUCH.replace('[ "touch" ]', '[ "npm", "git" ]');
const EDIT = ['[[rule]]', 'decision = "allow"', 'priority = 950', 'toolName = "replace"', 'argsPattern = "a\\\\.txt"'].join('\n');

let dir: string;
let env: NodeJS.ProcessEnv;
let cwd: string;
const userFile = (): string => autoSavedRuleFiles(env, cwd)[0]!;
const projectFile = (): string => autoSavedRuleFiles(env, cwd)[1]!;

function write(file: string, text: string, mtimeSec?: number): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  if (mtimeSec !== undefined) utimesSync(file, mtimeSec, mtimeSec);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-gemini-autosaved-'));
  env = { HOME: join(dir, 'home') };
  cwd = join(dir, 'work');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("Gemini's auto-saved.toml", () => {
  it('lives in ~/.gemini/policies (GEMINI_CLI_HOME first) and in the project\'s .gemini/policies', () => {
    expect(autoSavedRuleFiles(env, cwd)).toEqual([join(dir, 'home/.gemini/policies/auto-saved.toml'), join(cwd, '.gemini/policies/auto-saved.toml')]);
    expect(autoSavedRuleFiles({ ...env, GEMINI_CLI_HOME: join(dir, 'g') }, cwd)[0]).toBe(join(dir, 'g/.gemini/policies/auto-saved.toml'));
  });

  it('splits a file into its [[rule]] blocks, verbatim', () => {
    expect(ruleBlocks(`${EDIT}\n\n${TOUCH}\n`)).toEqual([EDIT, TOUCH]);
    expect(ruleBlocks(`# saved\n${TOUCH}\n[other]\nx = 1\n`)).toEqual([TOUCH]);
    expect(ruleBlocks('')).toEqual([]);
  });

  it('names the commands a shell line starts', () => {
    expect(shellRoots('touch a.txt')).toEqual(['touch']);
    expect(shellRoots('npm test && git status | cat; FOO=1 /usr/bin/env x')).toEqual(['npm', 'git', 'cat', 'env']);
  });

  it("reads back the block saved for the command, in the user's file", () => {
    write(userFile(), `${EDIT}\n\n${TOUCH}\n`);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'touch shell_marker.txt')).toBe(TOUCH);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'npm test && git status')).toBeUndefined();
  });

  it('a block for several roots is the one saved for a line that starts them all', () => {
    write(userFile(), `${NPM_GIT}\n`);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'npm test && git status')).toBe(NPM_GIT);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'npm test')).toBeUndefined();
  });

  it("reads the project's file, the most recently written one first", () => {
    write(userFile(), `${TOUCH}\n`, 1_000);
    const project = TOUCH.replace('"yolo" ]', '"yolo" ]\nallowRedirection = true');
    write(projectFile(), `${project}\n`, 2_000);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'touch x')).toBe(project);
    utimesSync(userFile(), 3_000, 3_000);
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'touch x')).toBe(TOUCH);
  });

  it('takes no block that is not an always-allow of the shell tool, and no file as none', () => {
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'touch x')).toBeUndefined();
    write(userFile(), [TOUCH.replace('"allow"', '"deny"'), TOUCH.replace('950', '100'), TOUCH.replace('run_shell_command', 'write_file'), TOUCH.replace('[ "touch" ]', '[ "touc')].join('\n\n'));
    expect(autoSavedShellRule(autoSavedRuleFiles(env, cwd), 'touch x')).toBeUndefined();
  });
});
