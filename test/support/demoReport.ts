// Reading what `rec demo` prints after the agent exits, for every agent's demo e2e.

/** The rows of the table under the line starting with `title`: cells split on two or more spaces. */
export function tableAfter(report: string, title: string): string[][] {
  const lines = report.slice(report.indexOf(title)).split('\n').slice(2);
  const rows: string[][] = [];
  for (const l of lines) {
    if (l.trim() === '') break;
    rows.push(l.trim().split(/\s{2,}/));
  }
  return rows;
}
