// The `[[scenario:<name>]]` marker with which a prompt picks its scripted replies, for the mocks
// whose agents have no convention of their own (generateContent, Chat Completions). The Responses
// and Messages mocks keep the markers their research notes used (`SCN=`, `SCENARIO `).

/** The scenario named in a prompt, e.g. `shell` in "[[scenario:shell]] please do the thing". */
export function bracketedScenario(text: string): string | undefined {
  return /\[\[scenario:([\w-]+)\]\]/.exec(text)?.[1];
}

/** The prompt without its marker (and the space after it): what the `say` scenarios echo. */
export function withoutBracketedScenario(text: string): string {
  return text.replace(/\[\[scenario:[\w-]+\]\]\s*/, '').trim();
}
