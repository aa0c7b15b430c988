/**
 * A small SQL layout for scripts/hot-statements.ts, so that the checked-in hot statements read like SQL written by
 * hand: a line for each main clause, a statement in parentheses indented below its line, a long clause one item (or
 * one condition) a line.
 */

/** A word, a quoted literal or name, a comma or a parenthesis, and whether space came before it. */
interface Token {
  text: string;
  spaced: boolean;
}

/** What is between a pair of parentheses (or a whole statement). */
interface Group {
  items: Node[];
  spaced: boolean;
}

type Node = Token | Group;

/** The clauses a line starts with, longest first. */
const CLAUSES = [
  'for no key update',
  'for key share',
  'do update set',
  'for update',
  'for share',
  'insert into',
  'delete from',
  'on conflict',
  'union all',
  'order by',
  'group by',
  'inner join',
  'left join',
  'right join',
  'full join',
  'cross join',
  'with',
  'select',
  'from',
  'where',
  'values',
  'update',
  'set',
  'returning',
  'union',
  'join',
  'having',
  'limit',
  'offset',
].map((clause) => clause.split(' '));

/** A statement in parentheses longer than this is laid out below its line. */
const SHORT = 80;
/** A clause longer than this at its indent is laid out one item (or one condition) a line. */
const WIDTH = 100;
const INDENT = '  ';

/** A statement's SQL as hot-statements.sql shows it: a line for each clause, nested statements indented. */
export function layOut(sql: string): string {
  return body(parse(sql), '').join('\n');
}

function parse(sql: string): Node[] {
  const stack: Group[] = [{ items: [], spaced: false }];
  let spaced = false;
  let at = 0;
  while (at < sql.length) {
    const char = sql[at]!;
    if (/\s/.test(char)) {
      spaced = true;
      at += 1;
      continue;
    }
    let end = at + 1;
    if (char === "'" || char === '"') {
      // A quoted literal or name, its doubled quotes included.
      while (end < sql.length && !(sql[end] === char && sql[end + 1] !== char)) end += sql[end] === char ? 2 : 1;
      end += 1;
    } else if (!'(),'.includes(char)) {
      while (end < sql.length && !/[\s(),'"]/.test(sql[end]!)) end += 1;
    }
    const text = sql.slice(at, end);
    if (text === '(') {
      const group: Group = { items: [], spaced };
      stack.at(-1)!.items.push(group);
      stack.push(group);
    } else if (text === ')') {
      if (stack.length === 1) throw new Error(`unbalanced parentheses in ${sql}`);
      stack.pop();
    } else {
      stack.at(-1)!.items.push({ text, spaced });
    }
    spaced = false;
    at = end;
  }
  if (stack.length !== 1) throw new Error(`unbalanced parentheses in ${sql}`);
  return stack[0]!.items;
}

const isGroup = (node: Node): node is Group => 'items' in node;
const word = (node: Node | undefined) => (node && !isGroup(node) ? node.text.toLowerCase() : undefined);

/** How many items the clause starting at `index` names (0: none starts there). */
function clauseAt(items: Node[], index: number): number {
  // `is distinct from` compares: its `from` is no clause.
  if (word(items[index]) === 'from' && word(items[index - 1]) === 'distinct') return 0;
  const found = CLAUSES.find((clause) => clause.every((part, offset) => word(items[index + offset]) === part));
  return found?.length ?? 0;
}

function flat(nodes: Node[]): string {
  let text = '';
  for (const node of nodes) {
    const glued = text === '' || text.endsWith('(') || (!isGroup(node) && node.text === ',');
    text += (node.spaced && !glued ? ' ' : '') + (isGroup(node) ? `(${flat(node.items)})` : node.text);
  }
  return text;
}

/** A statement in parentheses, laid out on lines of its own: long, or holding one that is. */
function breaks(group: Group, always: boolean): boolean {
  if (clauseAt(group.items, 0) === 0) return false;
  return always || flat(group.items).length > SHORT || group.items.some((item) => isGroup(item) && holdsBreak(item));
}

function holdsBreak(group: Group): boolean {
  return breaks(group, false) || group.items.some((item) => isGroup(item) && holdsBreak(item));
}

/** A statement's lines at `indent`: a line for each clause, its items on lines of their own when it is long. */
function body(items: Node[], indent: string): string[] {
  const clauses: Array<{ head: string; content: Node[] }> = [];
  for (let index = 0; index < items.length;) {
    const length = clauseAt(items, index);
    if (length > 0) {
      clauses.push({ head: flat(items.slice(index, index + length)), content: [] });
      index += length;
      continue;
    }
    if (clauses.length === 0) clauses.push({ head: '', content: [] });
    clauses.at(-1)!.content.push(items[index]!);
    index += 1;
  }
  return clauses.flatMap(({ head, content }) => clause(head, content, indent));
}

function clause(head: string, content: Node[], indent: string): string[] {
  // The statements of a WITH are each laid out below their name.
  const always = head === 'with';
  const line = `${indent}${[head, flat(content)].filter(Boolean).join(' ')}`;
  const broken = content.some((item) => isGroup(item) && (breaks(item, always) || holdsBreak(item)));
  if (!broken && line.length <= WIDTH) return [line];
  const conditions = head === 'where';
  const pieces = split(content, conditions ? 'and' : ',');
  if (pieces.length === 1) return inline(head, content, indent, always);
  const lines = [`${indent}${head}`];
  for (const [index, piece] of pieces.entries()) {
    const pieceLines = inline(conditions && index > 0 ? 'and' : '', piece, indent + INDENT, always);
    if (!conditions && index < pieces.length - 1) pieceLines[pieceLines.length - 1] += ',';
    lines.push(...pieceLines);
  }
  return lines;
}

/** The items between top-level separators (`,` or `and`), the separators left out. */
function split(content: Node[], separator: string): Node[][] {
  const pieces: Node[][] = [[]];
  for (const node of content) {
    if (word(node) === separator) pieces.push([]);
    else pieces.at(-1)!.push(node);
  }
  return pieces.filter((piece) => piece.length > 0);
}

/** Items on one line after `head`, but for the statements in parentheses that break: those below, indented. */
function inline(head: string, nodes: Node[], indent: string, always: boolean): string[] {
  const lines: string[] = [];
  let line = `${indent}${head}`;
  const add = (node: Node, text: string) => {
    const glued = line.trim() === '' || line.endsWith('(') || text === ',';
    line += (node.spaced && !glued ? ' ' : '') + text;
  };
  const emit = (node: Node, outermost: boolean) => {
    if (!isGroup(node)) return add(node, node.text);
    if (breaks(node, outermost && always)) {
      add(node, '(');
      lines.push(line, ...body(node.items, indent + INDENT));
      line = `${indent})`;
    } else if (holdsBreak(node)) {
      add(node, '(');
      for (const item of node.items) emit(item, false);
      line += ')';
    } else {
      add(node, `(${flat(node.items)})`);
    }
  };
  for (const [index, node] of nodes.entries()) {
    // The first item follows the head with a space, whatever the text had.
    emit(index === 0 && head !== '' ? { ...node, spaced: true } : node, true);
  }
  return [...lines, line];
}
