// Where JSON text goes wrong. JSON.parse's messages often carry no position ("Unexpected token '}', ...
// is not valid JSON"), and users need a line and column to fix a payload file, so this small strict
// scanner walks the text to the first offending character. It is only run after JSON.parse fails.

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
  const scan = new Scanner(text);
  let stop: Stop;
  try {
    scan.value();
    scan.ws();
    if (scan.i < text.length) throw new Stop(scan.i, `${scan.describe(scan.i)} after the end of the JSON value`);
    stop = new Stop(0, 'invalid JSON');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    stop = e;
  }
  return { ...position(text, stop.offset), message: stop.why };
}

/** Walks one JSON value, throwing Stop at the first character that is not JSON. */
class Scanner {
  i = 0;
  constructor(private readonly text: string) {}

  ws(): void {
    const { text } = this;
    while (this.i < text.length && (text[this.i] === ' ' || text[this.i] === '\t' || text[this.i] === '\n' || text[this.i] === '\r')) this.i++;
  }

  describe(at: number): string {
    return at >= this.text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(this.text[at])}`;
  }

  private expect(ch: string): void {
    if (this.text[this.i] !== ch) throw new Stop(this.i, `${this.describe(this.i)}, expected "${ch}"`);
    this.i++;
  }

  private str(): void {
    const { text } = this;
    this.expect('"');
    for (;;) {
      if (this.i >= text.length) throw new Stop(this.i, 'unterminated string');
      const c = text[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const n = text[this.i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) throw new Stop(this.i, 'invalid \\u escape');
          this.i += 6;
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) this.i += 2;
        else throw new Stop(this.i, 'invalid escape in string');
        continue;
      }
      if (c.charCodeAt(0) < 0x20) throw new Stop(this.i, 'control character in string (escape it, e.g. \\n)');
      this.i++;
    }
  }

  private num(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (!m || m[0] === '-' || m[0] === '') throw new Stop(this.i, `${this.describe(this.i)}, expected a value`);
    this.i += m[0].length;
  }

  /** After the opening brace. */
  private object(): void {
    const { text } = this;
    this.ws();
    if (text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (text[this.i] !== '"') throw new Stop(this.i, `${this.describe(this.i)}, expected a property name in double quotes`);
      this.str();
      this.ws();
      this.expect(':');
      this.value();
      this.ws();
      if (text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (text[this.i] === '}') {
        this.i++;
        return;
      }
      throw new Stop(this.i, `${this.describe(this.i)}, expected "," or "}"`);
    }
  }

  /** After the opening bracket. */
  private array(): void {
    const { text } = this;
    this.ws();
    if (text[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.value();
      this.ws();
      if (text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (text[this.i] === ']') {
        this.i++;
        return;
      }
      throw new Stop(this.i, `${this.describe(this.i)}, expected "," or "]"`);
    }
  }

  value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '{' || c === '[') {
      this.i++;
      return c === '{' ? this.object() : this.array();
    }
    if (c === '"') return this.str();
    for (const lit of ['true', 'false', 'null']) {
      if (this.text.startsWith(lit, this.i)) {
        this.i += lit.length;
        return;
      }
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.num();
    throw new Stop(this.i, `${this.describe(this.i)}, expected a value`);
  }
}

/** 1-based line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
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
