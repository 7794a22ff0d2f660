// SMS segment counting, as the Messages page shows it: GSM-7 160 per message or 153 per part,
// extension characters count twice, anything outside GSM-7 sends the whole text as UCS-2 (70/67).
import { describe, expect, it } from 'vitest';
import { smsSegments } from '../../src/console/render.js';

describe('smsSegments', () => {
  it.each([
    ['', 'GSM-7', 0, 0],
    ['Your Acme code is 123456.', 'GSM-7', 25, 1],
    ['a'.repeat(160), 'GSM-7', 160, 1],
    ['a'.repeat(161), 'GSM-7', 161, 2],
    ['a'.repeat(306), 'GSM-7', 306, 2],
    ['a'.repeat(307), 'GSM-7', 307, 3],
    ['€'.repeat(80), 'GSM-7', 160, 1],
    ['[]'.repeat(41), 'GSM-7', 164, 2],
    ['Привет', 'UCS-2', 6, 1],
    ['é'.repeat(70) + 'ж', 'UCS-2', 71, 2],
    ['🚨 down', 'UCS-2', 7, 1],
  ] as const)('%j → %s, %i units, %i segment(s)', (text, encoding, units, segments) => {
    expect(smsSegments(text)).toMatchObject({ encoding, units, segments });
  });
});
