import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../../src/server/engine/sanitize.js';

describe('sanitizeHtml', () => {
  it.each([
    ['<p>Hello <b>you</b></p>', '<p>Hello <b>you</b></p>'],
    ['<p>a</p><script>alert(1)</script><p>b</p>', '<p>a</p><p>b</p>'],
    ['<SCRIPT SRC=//x.js></SCRIPT>ok', 'ok'],
    ['<img src="x.png" onerror="alert(1)" alt="x">', '<img src="x.png" alt="x">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="https://example.com/?a=1&b=2" target="_blank">x</a>', '<a href="https://example.com/?a=1&b=2" target="_blank">x</a>'],
    ['<a href="/inbox">x</a><a href="mailto:a@b.c">m</a>', '<a href="/inbox">x</a><a href="mailto:a@b.c">m</a>'],
    ['<iframe src="https://evil"></iframe>after', 'after'],
    ['<svg><script>alert(1)</script></svg>x', 'x'],
    ['<div style="color:red">c</div>', '<div style="color:red">c</div>'],
    ['<div style="width: expression(alert(1))">c</div>', '<div>c</div>'],
    ['<form action="/x"><input name="a"></form>text', 'text'],
    ['1 < 2 and <3', '1 &lt; 2 and &lt;3'],
    ['<!-- secret --><p>x</p>', '<p>x</p>'],
    [
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=x"></head><body>b</body></html>',
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta content="0;url=x"></head><body>b</body></html>',
    ],
    [
      '<table cellpadding="0"><tr><td colspan="2" bgcolor="#fff">t</td></tr></table>',
      '<table cellpadding="0"><tr><td colspan="2" bgcolor="#fff">t</td></tr></table>',
    ],
    ['<p title=\'say "hi"\'>q</p>', '<p title="say &quot;hi&quot;">q</p>'],
    ['<br/><hr />', '<br><hr>'],
  ])('%s', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });
});
