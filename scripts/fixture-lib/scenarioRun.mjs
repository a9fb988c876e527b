// @ts-check
// The command line and the loop both fixture recorders share: pick scenarios by name (`--list` lists
// them), record each, report per scenario, exit 1 if any failed.

/** The scenarios named on the command line (all when none); prints the list and exits on `--list`. */
export function chooseScenarios(scenarios) {
  if (process.argv.includes('--list')) {
    for (const s of scenarios) console.log(`${s.name.padEnd(36)} ${s.description}`);
    process.exit(0);
  }
  const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const chosen = names.length ? scenarios.filter((s) => names.includes(s.name)) : scenarios;
  if (chosen.length === 0) throw new Error(`no scenario named ${names.join(', ')}; try --list`);
  return chosen;
}

/** Records each scenario in turn; a failure is reported and the next one still runs. Exits with the outcome. */
export async function recordEach(chosen, record) {
  let failed = 0;
  for (const scenario of chosen) {
    const t0 = Date.now();
    try {
      await record(scenario);
      console.log(`recorded ${scenario.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      failed += 1;
      console.error(`FAILED ${scenario.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
