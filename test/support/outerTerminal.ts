// The user's terminal, as a real @xterm/headless fed everything `rec` wrote to it, read back as the
// state a shell would find after rec exits. xterm.js has no kitty keyboard protocol, so a small
// handler keeps its stacks (one per screen, as the protocol asks) on the same parser.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless');

export interface OuterTerminalState {
  screen: 'normal' | 'alternate';
  cursorHidden: boolean;
  mouseTracking: string;
  mouseEncoding: string;
  bracketedPaste: boolean;
  focusReports: boolean;
  applicationCursorKeys: boolean;
  applicationKeypad: boolean;
  /** Entries pushed on the kitty keyboard stacks and not popped. */
  kittyMain: number;
  kittyAlternate: number;
}

/** What a terminal starts with: the state rec must leave behind. */
export const PRISTINE: OuterTerminalState = {
  screen: 'normal',
  cursorHidden: false,
  mouseTracking: 'none',
  mouseEncoding: 'DEFAULT',
  bracketedPaste: false,
  focusReports: false,
  applicationCursorKeys: false,
  applicationKeypad: false,
  kittyMain: 0,
  kittyAlternate: 0,
};

/** xterm.js's own state for what its public API does not show (cursor visibility, mouse encoding). */
interface XtermCore {
  _core: {
    coreService: { isCursorHidden: boolean };
    coreMouseService: { activeEncoding: string };
  };
}

export async function outerTerminalState(output: string, cols = 100, rows = 30): Promise<OuterTerminalState> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  const kitty = { normal: 0, alternate: 0 };
  const stack = () => term.buffer.active.type;
  term.parser.registerCsiHandler({ prefix: '>', final: 'u' }, () => {
    kitty[stack()]++;
    return true;
  });
  term.parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => {
    const n = typeof params[0] === 'number' && params[0] > 0 ? params[0] : 1;
    kitty[stack()] = Math.max(0, kitty[stack()] - n);
    return true;
  });
  try {
    await new Promise<void>((resolve) => term.write(output, resolve));
    const core = (term as unknown as XtermCore)._core;
    return {
      screen: term.buffer.active.type,
      cursorHidden: core.coreService.isCursorHidden,
      mouseTracking: term.modes.mouseTrackingMode,
      mouseEncoding: core.coreMouseService.activeEncoding,
      bracketedPaste: term.modes.bracketedPasteMode,
      focusReports: term.modes.sendFocusMode,
      applicationCursorKeys: term.modes.applicationCursorKeysMode,
      applicationKeypad: term.modes.applicationKeypadMode,
      kittyMain: kitty.normal,
      kittyAlternate: kitty.alternate,
    };
  } finally {
    term.dispose();
  }
}
