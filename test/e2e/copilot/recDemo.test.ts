// `rec demo` on the REAL pinned agent of this folder: the demo suite (test/support/demoSuite.ts)
// over this agent's row (test/support/copilot/demo.ts). The suite is declared here, in the agent's
// own folder of e2e suites, where .ci/run finds it by its path (it chooses by path which e2e files
// run on the other Node lines).
import { describeDemo } from '../../support/demoSuite.js';
import { DEMO } from '../../support/copilot/demo.js';

describeDemo([DEMO]);
