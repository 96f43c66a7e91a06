/**
 * What GitHub's log view makes of a step's output: workflow commands (`::group::`,
 * `::debug::`, `::add-mask::`, annotations) are interpreted, never shown. Groups are
 * folded to their title and line count, debug lines hidden (as without step debug
 * logging), annotations highlighted even inside a folded group, masked values shown as
 * `***`. Also a plain-text reading of a job summary's Markdown.
 */

export interface LogViewOptions {
  /** Show the lines of each group under its title instead of folding it. */
  expand?: boolean;
  /** ANSI colors for titles and annotations. */
  color?: boolean;
}

const ANNOTATION_LABELS: Record<string, [string, string]> = {
  error: ['Error', '31'],
  warning: ['Warning', '33'],
  notice: ['Notice', '36'],
};

/** `%25`, `%0D`, `%0A` (and in properties `%3A`, `%2C`) as the runner's toolkit escapes them. */
function unescape(text: string): string {
  return text
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n')
    .replace(/%3A/gi, ':')
    .replace(/%2C/gi, ',')
    .replace(/%25/g, '%');
}

interface Command {
  name: string;
  properties: Record<string, string>;
  message: string;
}

function parseCommand(line: string): Command | undefined {
  const match = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/i.exec(line);
  if (!match) return undefined;
  const properties: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) properties[pair.slice(0, at).trim()] = unescape(pair.slice(at + 1));
  }
  return {
    name: (match[1] as string).toLowerCase(),
    properties,
    message: unescape(match[3] ?? ''),
  };
}

export function renderGitHubLog(output: string, options: LogViewOptions = {}): string {
  const masks: string[] = [];
  const paint = (code: string, text: string) =>
    options.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  const mask = (text: string) => masks.reduce((out, secret) => out.split(secret).join('***'), text);

  const shown: string[] = [];
  let group: { title: string; lines: string[]; annotations: string[] } | undefined;
  const closeGroup = () => {
    if (!group) return;
    const count = group.lines.length;
    const counted = `(${count} line${count === 1 ? '' : 's'})`;
    if (options.expand) {
      shown.push(`${paint('1', `▾ ${group.title}`)} ${paint('2', counted)}`);
      shown.push(...group.lines.map((line) => `  ${line}`));
    } else {
      shown.push(`${paint('1', `▸ ${group.title}`)} ${paint('2', counted)}`);
      shown.push(...group.annotations.map((line) => `  ${line}`));
    }
    group = undefined;
  };

  // Between ::stop-commands::<token> and ::<token>:: every line is plain text.
  let resumeToken: string | undefined;
  for (const raw of output.replace(/\n$/, '').split('\n')) {
    if (resumeToken !== undefined && raw.trim() === `::${resumeToken}::`) {
      resumeToken = undefined;
      continue;
    }
    const command = resumeToken === undefined ? parseCommand(raw) : undefined;
    if (command?.name === 'stop-commands') {
      resumeToken = command.message;
      continue;
    }
    if (command === undefined) {
      (group?.lines ?? shown).push(mask(raw));
      continue;
    }
    if (command.name === 'add-mask') {
      if (command.message !== '') masks.push(command.message);
    } else if (command.name === 'group') {
      closeGroup();
      group = { title: mask(command.message), lines: [], annotations: [] };
    } else if (command.name === 'endgroup') {
      closeGroup();
    } else if (command.name in ANNOTATION_LABELS) {
      const [label, color] = ANNOTATION_LABELS[command.name] as [string, string];
      const { file, line } = command.properties;
      const where = file ? ` (${file}${line ? `:${line}` : ''})` : '';
      const text = `${paint(color, `${label}:`)} ${mask(command.message)}${where}`;
      if (group) {
        group.lines.push(text);
        group.annotations.push(text);
      } else {
        shown.push(text);
      }
    }
    // ::debug:: and any other command are not shown.
  }
  closeGroup();
  return `${shown.join('\n')}\n`;
}

/** A job summary's Markdown as plain text: headings, two-column tables aligned, links spelled out. */
export function renderSummaryText(markdown: string): string {
  // A backslash before ASCII punctuation is Markdown's escape, but inside a code span.
  const unescape = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const prose = (text: string) =>
    unescape(
      text
        .replace(/\[([^\]]*)\]\(([^)]*)\)/g, (_, label: string, url: string) =>
          unescape(label) === url ? url : `${label} <${url}>`,
        )
        .replace(/\*\*([^*]*)\*\*/g, '$1'),
    );
  const inline = (text: string) =>
    text
      .split(/(`[^`]*`)/)
      .map((part, at) => (at % 2 === 1 ? part.slice(1, -1).replace(/\\\|/g, '|') : prose(part)))
      .join('');
  const lines = markdown.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (!line.startsWith('|')) {
      out.push(inline(line.replace(/^#{1,6} /, '')));
      continue;
    }
    const rows: string[][] = [];
    for (; i < lines.length && (lines[i] as string).startsWith('|'); i += 1) {
      const row = lines[i] as string;
      if (/^\|[-|: ]+\|$/.test(row)) continue;
      rows.push(
        row
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => inline(cell.trim())),
      );
    }
    i -= 1;
    const widths = rows[0]?.map((_, column) =>
      Math.max(...rows.map((row) => (row[column] ?? '').length)),
    );
    for (const row of rows) {
      out.push(
        `  ${row
          .map((cell, column) =>
            column === row.length - 1 ? cell : cell.padEnd(widths?.[column] ?? 0),
          )
          .join('  ')}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
