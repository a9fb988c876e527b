// @ts-check
// The "Run in background" half of fake-codex: after the TUI exits, Codex's app-server daemon
// finishes the turn and keeps appending to the rollout (README §2). This detached process does that.
import { CodexRollout } from './codexRollout.mjs';
import { waitForStatusFile } from './commandRunner.mjs';
import * as S from './codexStrings.mjs';

export async function finishInBackground({ rollout: state, turn, work }) {
  const r = new CodexRollout({ state });
  if (work.kind === 'stream') {
    await new Promise((resolve) => setTimeout(resolve, work.remainingMs));
    r.agentMessage(turn, work.text);
    r.tokenUsage(turn);
    r.tokenCount();
    r.taskComplete(turn, work.text);
    return 0;
  }
  const outputs = [];
  for (const call of work.calls) {
    let output;
    if (call.kind === 'patch') {
      r.fileChangeCompleted(turn, { callId: call.callId, path: call.path, content: call.content ?? '', startedAtMs: call.startedAt });
      output = S.rollout.patchOutput(call.path);
    } else {
      const res = await waitForStatusFile(call.statusFile, call.outputFile);
      r.commandCompleted(turn, { callId: call.callId, cmd: call.cmd, pid: 0, output: res.output, exitCode: res.exitCode, startedAtMs: call.startedAt, durationMs: Date.now() - call.startedAt });
      output = S.rollout.execOutput({ chunkId: call.callId.slice(-6), exitCode: res.exitCode, output: res.output });
    }
    r.functionCallOutput(turn, call.callId, output);
    outputs.push({ callId: call.callId, output });
  }
  r.tokenCount();
  const text = S.mockAnswers.final(outputs);
  r.agentMessage(turn, text);
  r.tokenUsage(turn);
  r.tokenCount();
  r.taskComplete(turn, text);
  return 0;
}
