// The browser's `/` with a filter set: the filter is shown with a space after it, so that a word typed
// next is a word of its own (`workflow:welcome` + "pwned" is `workflow:welcome pwned`, not
// `workflow:welcomepwned`), whether the keys come one by one or as one chunk with their Enter.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { type KeyContext, onInput } from '../../src/tui/keys.js';
import { type Filter, initialState, type State } from '../../src/tui/model.js';

const plain = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
} as Key;

function browser(filter: Filter) {
  let state: State = initialState(filter);
  const applied: Filter[] = [];
  const ctx = {
    state: () => state,
    update: (f: (s: State) => State) => void (state = f(state)),
    applyFilter: (f: Filter) => void applied.push(f),
    exit: () => undefined,
    loadPage: () => undefined,
    openDetail: () => undefined,
    retrigger: () => undefined,
    width: 80,
    rows: 24,
    pageRows: 20,
    time: {},
    scope: {},
  } as unknown as KeyContext;
  return { ctx, applied, input: () => (state.mode.kind === 'filter' ? state.mode.input : undefined) };
}

describe('/ with a filter set', () => {
  it('leaves a space after it: a word typed one key at a time is a word of its own', () => {
    const b = browser({ workflow: 'welcome' });
    onInput(b.ctx, '/', plain);
    expect(b.input()).toBe('workflow:welcome ');
    for (const ch of 'pwned') onInput(b.ctx, ch, plain);
    expect(b.input()).toBe('workflow:welcome pwned');
    onInput(b.ctx, '', { ...plain, return: true });
    expect(b.applied).toEqual([{ workflow: 'welcome', text: 'pwned' }]);
  });

  it('the same when the word and its Enter arrive as one chunk', () => {
    const b = browser({ workflow: 'welcome', status: 'failed' });
    onInput(b.ctx, '/', plain);
    onInput(b.ctx, 'sub:ada\r', plain);
    expect(b.applied).toEqual([{ status: 'failed', workflow: 'welcome', subscriber: 'ada' }]);
  });

  it('no filter set: nothing before the cursor', () => {
    const b = browser({});
    onInput(b.ctx, '/', plain);
    expect(b.input()).toBe('');
  });
});
