// Dot paths through records (--fields, table columns): picking them out with their nesting, and reading
// their values. A path through an array applies to each element (`steps.stepId`).

const MISSING = Symbol('missing');
const INDEX = /^\d+$/;

/** One dot path out of a value, keeping its nesting; through an array, out of each element. */
function pickPath(v: unknown, path: string[]): unknown {
  if (path.length === 0) return v;
  const [seg, ...rest] = path as [string, ...string[]];
  if (Array.isArray(v) && !INDEX.test(seg)) {
    const items = v.map((e) => pickPath(e, path));
    // Elements without the path stay as {} so that several paths merge element by element.
    return items.some((x) => x !== MISSING) ? items.map((x) => (x === MISSING ? {} : x)) : MISSING;
  }
  if (v !== null && typeof v === 'object' && Object.hasOwn(v, seg)) {
    const inner = pickPath((v as Record<string, unknown>)[seg], rest);
    return inner === MISSING ? MISSING : { [seg]: inner };
  }
  return MISSING;
}

function mergePicked(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => mergePicked(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? mergePicked(out[k], v) : v;
    return out;
  }
  return b;
}

/**
 * Picks dot paths out of a record, keeping their nesting; a path through an array picks out of each
 * element (`steps.stepId`). Missing paths are left out.
 */
export function pickFields(record: unknown, fields: string[]): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return record;
  let out: unknown = {};
  for (const f of fields) {
    const picked = pickPath(record, f.split('.'));
    if (picked !== MISSING) out = mergePicked(out, picked);
  }
  return out;
}

function valueAt(cur: unknown, segs: string[]): unknown {
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      if (INDEX.test(seg)) cur = cur[Number(seg)];
      else {
        // Through an array: the path's value in each element that has it.
        const rest = segs.slice(i);
        return cur.map((e) => valueAt(e, rest)).filter((x) => x !== undefined).flat();
      }
    } else if (typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur;
}

/** A dot path's value, for table cells; through an array, the list of each element's value. */
export function getPath(record: unknown, path: string): unknown {
  return valueAt(record, path.split('.'));
}
