// The reason for a rejection, for agents that give no place to type one (Codex, Gemini): the user's
// next message after the refusal, before the agent's next tool call (docs/events.md,
// `reason_source: next_message`). One rule for the live recorder and for `rec merge`: each feeds
// the conversation in order, and the rule says which rejections a user message explains.
//
// A rejection waits unarmed until the session shows what it caused (its call's outcome, or the end
// of the turn). The live recorder decides at the key, ahead of the session file it reads; a user
// message read before that point was written before the refusal (the one that started the turn),
// so it cannot be its reason. Merge reads a whole file in order and arms at the call itself.

export class NextMessageReasons<Id> {
  private _waiting: Array<{ readonly id: Id; armed: boolean }> = [];

  /** A rejection was decided; it takes a reason once armed. */
  rejected(id: Id, armed = false): void {
    this._waiting.push({ id, armed });
  }

  /** The session reached what these rejections caused: messages from now on may be their reason. */
  arm(ids: ReadonlySet<Id>): void {
    for (const w of this._waiting) if (ids.has(w.id)) w.armed = true;
  }

  /** The turn was cut short: the next message is the reason of every waiting rejection of that turn (`ofTurn`, default all). */
  armAll(ofTurn: (id: Id) => boolean = () => true): void {
    for (const w of this._waiting) if (ofTurn(w.id)) w.armed = true;
  }

  /**
   * The agent made a tool call: the armed rejections' turn moved on without a message, so they
   * get none. Unarmed ones stay: the call is a sibling of their batch the session shows late.
   */
  toolCall(): void {
    this._waiting = this._waiting.filter((w) => !w.armed);
  }

  /** The user's message: it is the reason of every armed rejection, returned (and no longer waiting). */
  userMessage(): Id[] {
    const explained = this._waiting.filter((w) => w.armed).map((w) => w.id);
    this._waiting = this._waiting.filter((w) => !w.armed);
    return explained;
  }

  /** The turn ended normally: nothing said later is about these rejections. */
  turnCompleted(): void {
    this._waiting = [];
  }

  /** A rejection taken back (a key the agent ignored). */
  retract(id: Id): void {
    this._waiting = this._waiting.filter((w) => w.id !== id);
  }
}
