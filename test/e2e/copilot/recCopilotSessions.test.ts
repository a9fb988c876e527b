// The sessions suite (test/support/sessionsSuite.ts) on the REAL pinned GitHub Copilot CLI: two
// runs side by side in one folder, and each way to resume a session, over this agent's row
// (test/support/copilot/sessions.ts).
import { describeSessions } from '../../support/sessionsSuite.js';
import { SESSIONS } from '../../support/copilot/sessions.js';

describeSessions([SESSIONS]);
