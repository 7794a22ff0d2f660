// The email block editor stores a TipTap/Maily-style JSON document. The engine turns it into one Liquid
// template producing HTML, so that rendering, variable analysis and issues treat block emails exactly
// like HTML ones. Supported nodes (anything else renders its children):
//   doc, paragraph, heading, text (marks: bold, italic, underline, strike, code, link), hardBreak,
//   horizontalRule, spacer, blockquote, bulletList, orderedList, listItem, section, columns, column,
//   footer, button, image, logo, variable, and `for`/`repeat` loops over an array (`attrs.each`).
// Any node may carry `attrs.showIfKey`: it renders only when that variable is truthy.

export interface BlockNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: Array<{ type?: string; attrs?: Record<string, unknown> }>;
  content?: BlockNode[];
}

/** A block document given as an object or as its JSON text; null when the value is not one. */
export function parseBlockDocument(value: unknown): BlockNode | null {
  let candidate = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!trimmed.startsWith('{')) return null;
    try {
      candidate = JSON.parse(trimmed);
    } catch {
      return null;
    }
  }
  if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) return null;
  const doc = candidate as BlockNode;
  return doc.type === 'doc' && (doc.content === undefined || Array.isArray(doc.content)) ? doc : null;
}

const LIQUID = /(\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\})/;

/** Escapes HTML in literal text but leaves Liquid expressions intact (their quotes must survive). */
export function escapeOutsideLiquid(text: string, attribute = false): string {
  return text
    .split(LIQUID)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      const escaped = part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return attribute ? escaped.replace(/"/g, '&quot;') : escaped;
    })
    .join('');
}

interface Loop {
  path: string;
  alias: string;
}

function stripBraces(expression: string): string {
  return expression
    .replace(/^\s*\{\{\s*/, '')
    .replace(/\s*\}\}\s*$/, '')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Inside a loop over `payload.items`, `payload.items.title` means the current item's title. */
function rewritePath(path: string, loops: readonly Loop[]): string {
  let out = path;
  for (let i = loops.length - 1; i >= 0; i -= 1) {
    const loop = loops[i] as Loop;
    out = out.replace(new RegExp(`(^|[^\\w.])${escapeRegExp(loop.path)}(?=\\.|\\[|\\s|\\||$)`, 'g'), `$1${loop.alias}`);
  }
  return out;
}

function rewriteLiquid(text: string, loops: readonly Loop[]): string {
  if (loops.length === 0) return text;
  return text
    .split(LIQUID)
    .map((part, i) => (i % 2 === 1 ? rewritePath(part, loops) : part))
    .join('');
}

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  // Attributes come from users' JSON: an object is not text (and String() throws on one whose
  // toString is not a function), so it reads as empty.
  return typeof value === 'object' || typeof value === 'function' ? '' : String(value);
}

function quoteLiquid(text: string): string {
  return `"${text.replace(/"/g, "'")}"`;
}

function variableOutput(id: string, loops: readonly Loop[], fallback?: unknown): string {
  const path = rewritePath(stripBraces(id), loops);
  const fb = str(fallback);
  return fb ? `{{ ${path} | default: ${quoteLiquid(fb)} }}` : `{{ ${path} }}`;
}

/** An attribute that is either literal text (maybe with Liquid) or, when flagged, a variable id. */
function attrValue(node: BlockNode, name: string, variableFlag: string, loops: readonly Loop[]): string {
  const raw = str(node.attrs?.[name]);
  if (node.attrs?.[variableFlag] === true && raw) return variableOutput(raw, loops);
  return escapeOutsideLiquid(rewriteLiquid(raw, loops), true);
}

const ALIGN = new Set(['left', 'center', 'right', 'justify']);
function alignCss(node: BlockNode): string {
  const align = str(node.attrs?.textAlign);
  return ALIGN.has(align) ? `text-align:${align};` : '';
}
function alignStyle(node: BlockNode): string {
  const css = alignCss(node);
  return css ? ` style="${css}"` : '';
}

const SPACER_HEIGHTS: Record<string, number> = { sm: 8, md: 16, lg: 32, xl: 64 };

function markWrap(html: string, marks: BlockNode['marks'], loops: readonly Loop[]): string {
  let out = html;
  for (const mark of marks ?? []) {
    switch (mark.type) {
      case 'bold':
        out = `<strong>${out}</strong>`;
        break;
      case 'italic':
        out = `<em>${out}</em>`;
        break;
      case 'underline':
        out = `<u>${out}</u>`;
        break;
      case 'strike':
        out = `<s>${out}</s>`;
        break;
      case 'code':
        out = `<code>${out}</code>`;
        break;
      case 'link': {
        const href = attrValue({ attrs: mark.attrs ?? {} }, 'href', 'isUrlVariable', loops);
        out = `<a href="${href}" target="_blank" rel="noopener noreferrer">${out}</a>`;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function buttonHtml(node: BlockNode, loops: readonly Loop[]): string {
  const text = attrValue(node, 'text', 'isTextVariable', loops);
  const url = attrValue(node, 'url', 'isUrlVariable', loops);
  const align = ALIGN.has(str(node.attrs?.alignment)) ? str(node.attrs?.alignment) : 'left';
  const color = escapeOutsideLiquid(str(node.attrs?.buttonColor) || '#000000', true);
  const textColor = escapeOutsideLiquid(str(node.attrs?.textColor) || '#ffffff', true);
  const outline = node.attrs?.variant === 'outline';
  const style = outline
    ? `color:${color};border:2px solid ${color};background:transparent`
    : `color:${textColor};background:${color};border:2px solid ${color}`;
  return `<div style="text-align:${align};margin:16px 0"><a href="${url}" target="_blank" rel="noopener noreferrer" style="${style};display:inline-block;padding:10px 20px;border-radius:6px;text-decoration:none;font-weight:600">${text}</a></div>`;
}

function imageHtml(node: BlockNode, loops: readonly Loop[]): string {
  const src = attrValue(node, 'src', 'isSrcVariable', loops);
  const alt = escapeOutsideLiquid(rewriteLiquid(str(node.attrs?.alt), loops), true);
  const dims = ['width', 'height']
    .map((d) =>
      node.attrs?.[d] !== undefined && node.attrs?.[d] !== null && node.attrs?.[d] !== 'auto'
        ? ` ${d}="${escapeOutsideLiquid(str(node.attrs?.[d]), true)}"`
        : '',
    )
    .join('');
  const img = `<img src="${src}" alt="${alt}"${dims} style="max-width:100%;height:auto">`;
  const link = str(node.attrs?.externalLink);
  const wrapped = link
    ? `<a href="${attrValue(node, 'externalLink', 'isExternalLinkVariable', loops)}" target="_blank" rel="noopener noreferrer">${img}</a>`
    : img;
  const align = ALIGN.has(str(node.attrs?.alignment)) ? str(node.attrs?.alignment) : 'center';
  return `<div style="text-align:${align}">${wrapped}</div>`;
}

function children(node: BlockNode, loops: Loop[]): string {
  return (node.content ?? []).map((child) => nodeHtml(child, loops)).join('');
}

function loopHtml(node: BlockNode, loops: Loop[]): string {
  const each = stripBraces(str(node.attrs?.each));
  if (!each) return children(node, loops);
  const alias = loops.length === 0 ? 'item' : `item${loops.length + 1}`;
  const collection = rewritePath(each, loops);
  const iterations = Number(node.attrs?.iterations);
  const limit = Number.isInteger(iterations) && iterations > 0 ? ` limit: ${iterations}` : '';
  const inner = children(node, [...loops, { path: each, alias }]);
  return `{% for ${alias} in ${collection}${limit} %}${inner}{% endfor %}`;
}

function nodeBody(node: BlockNode, loops: Loop[]): string {
  switch (node.type) {
    case 'doc':
      return children(node, loops);
    case 'text':
      return markWrap(escapeOutsideLiquid(rewriteLiquid(str(node.text), loops)), node.marks, loops);
    case 'variable':
      return markWrap(variableOutput(str(node.attrs?.id), loops, node.attrs?.fallback), node.marks, loops);
    case 'paragraph':
      return `<p${alignStyle(node)}>${children(node, loops)}</p>`;
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 1));
      return `<h${level}${alignStyle(node)}>${children(node, loops)}</h${level}>`;
    }
    case 'hardBreak':
      return '<br>';
    case 'horizontalRule':
      return '<hr>';
    case 'spacer': {
      const h = node.attrs?.height;
      const px = typeof h === 'number' ? h : (SPACER_HEIGHTS[str(h)] ?? 16);
      return `<div style="height:${px}px;line-height:${px}px">&nbsp;</div>`;
    }
    case 'blockquote':
      return `<blockquote>${children(node, loops)}</blockquote>`;
    case 'bulletList':
      return `<ul>${children(node, loops)}</ul>`;
    case 'orderedList':
      return `<ol>${children(node, loops)}</ol>`;
    case 'listItem':
      return `<li>${children(node, loops)}</li>`;
    case 'footer':
      return `<footer style="${alignCss(node)}font-size:12px;color:#64748b">${children(node, loops)}</footer>`;
    case 'section':
    case 'columns':
    case 'column':
      return `<div>${children(node, loops)}</div>`;
    case 'button':
      return buttonHtml(node, loops);
    case 'image':
    case 'logo':
      return imageHtml(node, loops);
    case 'for':
    case 'repeat':
      return loopHtml(node, loops);
    default:
      return children(node, loops);
  }
}

function nodeHtml(node: BlockNode, loops: Loop[]): string {
  if (node === null || typeof node !== 'object') return '';
  const html = nodeBody(node, loops);
  const showIf = stripBraces(str(node.attrs?.showIfKey));
  return showIf ? `{% if ${rewritePath(showIf, loops)} %}${html}{% endif %}` : html;
}

/** The Liquid template (HTML with Liquid) equivalent to a block document. */
export function blockDocumentToLiquid(doc: BlockNode): string {
  return nodeHtml(doc, []);
}
