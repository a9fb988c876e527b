// @ts-check
// The layers of src/, checked by dependency-cruiser (scripts/check-layers, run by scripts/test): a
// violation fails the suite. Imports only point down:
//
//   core                                  pure: types, schemas, rules; no I/O, no other layer
//   session · screen · store · hooks      the live pipeline's parts and the sidecar (over core)
//   readers                               the kit every agent's reader is built with (the conversation)
//   agents                                one module per agent (live and offline), the shared recorder, the registry
//   merge                                 files read and joined with the sidecar
//   stats · rules                         figures and permission rules over merged sessions
//   report                                the HTML page of `rec report`, built over stats' figures
//   export                                the sidecar's decisions as OTLP log records (over store)
//   lab                                   the offline bench: mock model servers, isolated agent homes, a
//                                         pty driver and key scripts (rec doctor, rec demo, and the e2e
//                                         suites). An agent's own bench, src/agents/<name>/bench/, is of
//                                         this layer: it lives in the agent's folder so that the agent is
//                                         one folder, and its row loads it lazily (loadBench), never statically.
//   commands · cli                        argv, terminal output, wiring
//
// test/integration/layers/checkLayers.test.ts plants a violation of each rule in a scratch copy and sees it fail.
// The type is on a const: on `module.exports =` TypeScript takes it for the export's type without
// checking the object against it.
/** @type {import('dependency-cruiser').IConfiguration} */
const config = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'core holds types, schemas and rules that every layer shares: no file, process or network I/O, and no other layer.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { pathNot: ['^src/core/', '^node_modules/zod/'] },
    },
    {
      name: 'parts-only-import-core',
      comment: 'session, screen and store meet the rest only through interfaces in core (ScreenView, EventSink).',
      severity: 'error',
      from: { path: '^src/(session|screen|store)/' },
      to: { path: '^src/(?!core/|session/|screen/|store/)' },
    },
    {
      name: 'parts-stay-apart',
      comment: 'the pty, the screen model and the store do not know each other; commands/ wires them.',
      severity: 'error',
      from: { path: '^src/(session|screen|store)/' },
      to: { path: '^src/(session|screen|store)/', pathNot: '^src/$1/' },
    },
    {
      name: 'hooks-only-import-core-and-debug-log',
      severity: 'error',
      from: { path: '^src/hooks/' },
      to: { path: '^src/(?!core/|hooks/|store/debugLog\\.ts$)' },
    },
    {
      name: 'agents-point-down',
      comment: 'an agent module is below merge, stats and commands (agents/registry.ts does not import commands/), and reaches the store only through core/sink.ts.',
      severity: 'error',
      from: { path: '^src/agents/', pathNot: '^src/agents/[^/]+/bench/' },
      to: { path: '^src/(merge|stats|commands|cli|store|session|screen|hooks)[/.]' },
    },
    {
      name: 'agents-do-not-import-each-other',
      comment: 'one folder per agent; only the registry names them all.',
      severity: 'error',
      from: { path: '^src/agents/([^/]+)/', pathNot: '^src/agents/common/' },
      to: { path: '^src/agents/[^/]+/', pathNot: ['^src/agents/$1/', '^src/agents/common/'] },
    },
    {
      name: 'readers-do-not-import-merge',
      comment: 'the readers kit is below the agent modules that use it: it names no agent.',
      severity: 'error',
      from: { path: '^src/readers/' },
      to: { path: '^src/(agents|merge|stats|commands|cli|store|session|screen|hooks)[/.]' },
    },
    {
      name: 'merge-imports-neither-stats-nor-commands',
      comment: 'argv parsing and terminal UI live in commands/; merge is called with plain options.',
      severity: 'error',
      from: { path: '^src/merge/' },
      to: { path: '^src/(stats|rules|report|commands|cli|session|screen)[/.]' },
    },
    {
      name: 'sqlite-only-in-store',
      comment: 'sidecar queries live in store/ (the driver is store/sqliteDriver.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: ['^node_modules/better-sqlite3', '^src/store/sqliteDriver\\.ts$'] },
    },
    {
      name: 'export-over-store-only',
      comment: 'export reads the sidecar through store/ and sends with the OpenTelemetry packages; argv and output live in commands/.',
      severity: 'error',
      from: { path: '^src/export/' },
      to: { path: '^src/(agents|readers|merge|stats|commands|cli|session|screen|hooks)[/.]' },
    },
    {
      name: 'lab-below-commands',
      comment: 'the lab (mock models, isolation, the pty driver) is a part rec doctor uses: commands import it, never the reverse, and nothing below commands needs it.',
      severity: 'error',
      from: { path: ['^src/lab/', '^src/agents/[^/]+/bench/'] },
      to: { path: '^src/(merge|stats|rules|report|export|commands|cli|hooks)[/.]' },
    },
    {
      name: 'only-commands-import-lab',
      comment: 'an agent\'s bench is lab too (its row reaches it only through the rule below).',
      severity: 'error',
      from: { path: '^src/(?!lab/|commands/|cli\\.ts$)', pathNot: ['^src/agents/[^/]+/(bench/|module\\.ts$)', '^src/agents/agentModule\\.ts$'] },
      to: { path: ['^src/lab/', '^src/agents/[^/]+/bench/'] },
    },
    {
      name: 'a-row-loads-its-bench-lazily',
      comment: 'a registry row loads node builtins and strings only (rec hook reads it): it reaches the lab through its own bench/bench.ts, by a dynamic import, and nothing else of it.',
      severity: 'error',
      from: { path: '^src/agents/([^/]+)/module\\.ts$' },
      to: { path: ['^src/lab/', '^src/agents/[^/]+/bench/'], pathNot: '^src/agents/$1/bench/bench\\.ts$' },
    },
    {
      name: 'agent-contract-names-the-bench-type-only',
      comment: 'AgentModule.loadBench returns the lab\'s AgentBench: the contract names that type, and loads nothing of the lab.',
      severity: 'error',
      from: { path: '^src/agents/agentModule\\.ts$' },
      to: { path: '^src/lab/', pathNot: '^src/lab/bench\\.ts$' },
    },
    {
      name: 'agent-contract-imports-the-bench-as-a-type',
      severity: 'error',
      from: { path: '^src/agents/agentModule\\.ts$' },
      to: { path: '^src/lab/bench\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'a-row-never-imports-its-bench-statically',
      severity: 'error',
      from: { path: '^src/agents/[^/]+/module\\.ts$' },
      to: { path: '^src/agents/[^/]+/bench/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'stats-below-commands',
      severity: 'error',
      from: { path: '^src/stats/' },
      to: { path: '^src/(report|commands|cli)[/.]' },
    },
    {
      name: 'report-below-commands',
      comment: 'the page is built from plain data (stats and merge below it); argv, files and the terminal are the command\'s part.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/(commands|cli|session|screen|store|hooks)[/.]' },
    },
    {
      name: 'rules-below-commands',
      comment: 'rec rules builds its report from merged sessions like stats, beside it: neither knows the other, and argv and terminal output stay in commands/.',
      severity: 'error',
      from: { path: '^src/rules/' },
      to: { path: '^src/(commands|cli|stats|session|screen|hooks)[/.]' },
    },
    {
      name: 'stats-does-not-import-rules',
      severity: 'error',
      from: { path: '^src/stats/' },
      to: { path: '^src/rules/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a lazy import (registry row → the adapter it loads on demand) is not a cycle of the layers.',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is a symlink in worktrees: keep its path, so that rules can name packages.
    preserveSymlinks: true,
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
module.exports = config;
