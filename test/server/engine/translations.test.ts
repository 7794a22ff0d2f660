// The translation lookup the renderer uses: which locale a subscriber reads, how a dotted key is
// found in nested and flat texts, what a missing key prints, and how `{{t.key}}` is put into
// templates (plain text and a block-editor JSON body alike).
import { describe, expect, it } from 'vitest';
import { localeChain, lookupKey, normalizeLocale, translateControls, translator } from '../../../src/server/engine/translations.js';

const contents = {
  en_US: { welcome: { title: 'Welcome', body: 'Hi {{subscriber.firstName}}' }, only: { en: 'English only' } },
  de_DE: { 'welcome.title': 'Willkommen' },
  de_CH: { welcome: { title: 'Grüezi' } },
  fr_CA: { welcome: { title: 'Bienvenue' } },
};

describe('localeChain', () => {
  it("reads the subscriber's locale, then its language's (the language's own region first), then the default", () => {
    const available = Object.keys(contents);
    expect(localeChain('de_CH', available)).toEqual(['de_CH', 'de_DE', 'en_US']);
    expect(localeChain('de_AT', available)).toEqual(['de_DE', 'de_CH', 'en_US']);
    expect(localeChain('fr_FR', available)).toEqual(['fr_CA', 'en_US']);
    expect(localeChain('ja_JP', available)).toEqual(['en_US']);
    expect(localeChain(undefined, available)).toEqual(['en_US']);
    expect(localeChain('de-at', available)).toEqual(['de_DE', 'de_CH', 'en_US']);
    expect(localeChain('ja_JP', available, 'fr_CA')).toEqual(['fr_CA']);
  });

  it('normalises what a subscriber may have been given', () => {
    expect(normalizeLocale('de-AT')).toBe('de_AT');
    expect(normalizeLocale('DE')).toBe('de');
    expect(normalizeLocale(42)).toBeUndefined();
  });
});

describe('lookupKey', () => {
  it('finds a path through nested objects, flat dotted keys or both', () => {
    expect(lookupKey({ a: { b: { c: 1 } } }, ['a', 'b', 'c'])).toBe(1);
    expect(lookupKey({ 'a.b.c': 2 }, ['a', 'b', 'c'])).toBe(2);
    expect(lookupKey({ 'a.b': { c: 3 } }, ['a', 'b', 'c'])).toBe(3);
    expect(lookupKey({ a: { 'b.c': 4 } }, ['a', 'b', 'c'])).toBe(4);
    expect(lookupKey({ a: { b: 5 } }, ['a', 'x'])).toBeUndefined();
    expect(lookupKey({ constructor: 1 }, ['toString'])).toBeUndefined();
  });
});

describe('translator', () => {
  it('falls back key by key, and prints a key found nowhere as its path', () => {
    const t = translator({ contents }, 'de_AT');
    expect(t('welcome.title')).toBe('Willkommen');
    expect(t('only.en')).toBe('English only');
    expect(t('no.such.key')).toBe('no.such.key');
    // An object is not a text.
    expect(t('welcome')).toBe('welcome');
  });
});

describe('translateControls', () => {
  it('puts the texts into every string, leaving Liquid in them for the renderer', () => {
    const out = translateControls({ subject: '{{ t.welcome.title }}!', body: '{{t.welcome.body}}', n: 1 }, { contents }, 'en_US');
    expect(out).toEqual({ subject: 'Welcome!', body: 'Hi {{subscriber.firstName}}', n: 1 });
  });

  it('keeps a JSON body JSON', () => {
    const body = JSON.stringify({ type: 'doc', content: [{ type: 'text', text: '{{t.q}}' }] });
    const out = translateControls({ body }, { contents: { en_US: { q: 'say "hi"\n' } } }, 'en_US');
    expect(JSON.parse(out.body).content[0].text).toBe('say "hi"\n');
  });

  it('changes nothing without a bundle (translations off)', () => {
    const controls = { subject: '{{t.welcome.title}}' };
    expect(translateControls(controls, undefined, 'de_DE')).toBe(controls);
  });
});
