// Which session file is a run's, on the REAL pinned agent of this folder (issue 19): the sessions
// suite (test/support/sessionsSuite.ts) over this agent's row (test/support/claude/sessions.ts).
// The suite is declared here, in the agent's own folder of e2e suites, where .ci/run finds it by
// its path (it chooses by path which e2e files run on the other Node lines).
import { describeSessions } from '../../support/sessionsSuite.js';
import { SESSIONS } from '../../support/claude/sessions.js';

describeSessions([SESSIONS]);
