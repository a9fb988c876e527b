// Which session file is a run's, on the REAL pinned agent of this folder (issue 19): the sessions
// suite (test/support/sessionsSuite.ts) over this agent's row (test/support/gemini/sessions.ts). The
// suite is declared here, in the agent's own folder of e2e suites, so that it runs on the Node lines
// that folder runs on (.ci/run).
import { describeSessions } from '../../support/sessionsSuite.js';
import { SESSIONS } from '../../support/gemini/sessions.js';

describeSessions([SESSIONS]);
