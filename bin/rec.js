#!/usr/bin/env -S node --max-semi-space-size=1
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// A 1 MB young generation: the relay allocates a buffer per pty read, and with V8's default (up to
// 16 MB per semi-space) those wait for collection long enough to add tens of MB to rec's peak RSS.
import('../dist/cli.js');
