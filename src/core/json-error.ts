// Where JSON text goes wrong. Node 20's JSON.parse messages often carry no position ("Unexpected token
// '}', ... is not valid JSON"), and users need a line and column to fix a payload file, so this small
// strict scanner walks the text to the first offending character. It is only run after JSON.parse fails.

interface JsonErrorLocation {
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly why: string,
  ) {
    super(why);
  }
}

export function locateJsonError(text: string): JsonErrorLocation {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const describe = (at: number) => (at >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[at])}`);
  const expect = (ch: string) => {
    if (text[i] !== ch) throw new Stop(i, `${describe(i)}, expected "${ch}"`);
    i++;
  };
  const str = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) throw new Stop(i, 'unterminated string');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const n = text[i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i, 'invalid \\u escape');
          i += 6;
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else throw new Stop(i, 'invalid escape in string');
        continue;
      }
      if (c.charCodeAt(0) < 0x20) throw new Stop(i, 'control character in string (escape it, e.g. \\n)');
      i++;
    }
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '-' || m[0] === '') throw new Stop(i, `${describe(i)}, expected a value`);
    i += m[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new Stop(i, `${describe(i)}, expected a property name in double quotes`);
        str();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw new Stop(i, `${describe(i)}, expected "," or "}"`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw new Stop(i, `${describe(i)}, expected "," or "]"`);
      }
    }
    if (c === '"') return str();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    throw new Stop(i, `${describe(i)}, expected a value`);
  };

  let stop: Stop;
  try {
    value();
    ws();
    if (i < text.length) throw new Stop(i, `${describe(i)} after the end of the JSON value`);
    stop = new Stop(0, 'invalid JSON');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    stop = e;
  }
  return { ...position(text, stop.offset), message: stop.why };
}

/** 1-based line and column of an offset. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col };
}
