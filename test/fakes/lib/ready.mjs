// @ts-check
// The marker a fake prints once its first frame is on screen, so tests can wait for it instead of
// sleeping. It is an OSC 2 (window title) sequence: invisible on the rendered screen, so screen
// detectors never see it, yet present in the raw byte stream `expect` searches.
export const readyText = (agent) => `fake-${agent} ready`;
export const readyMarker = (agent) => `\x1b]2;${readyText(agent)}\x07`;
