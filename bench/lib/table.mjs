// Formats the figures as one Markdown table (pasteable into docs/performance.md as is).

function formatNumber(value, unit) {
  if (value === undefined || !Number.isFinite(value)) return '–';
  if (unit === 'ms') return value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

const withUnit = (value, unit) => `${formatNumber(value, unit)} ${unit}`;

function row(figure) {
  if (figure.skipped) return [figure.name, figure.skipped, '', '', '', 'skipped'];
  const baseline = figure.baseline ? `${withUnit(figure.baseline.value, figure.baseline.unit)} (${figure.baseline.name})` : '–';
  const ratio = figure.ratio === undefined ? '–' : `${figure.ratio.toFixed(2)}×`;
  const result = figure.pass === undefined ? 'info' : figure.pass ? 'pass' : 'MISS';
  return [figure.name, withUnit(figure.value, figure.unit), baseline, ratio, figure.target?.text ?? '–', result];
}

const escape = (cell) => String(cell).replaceAll('|', '\\|');

export function formatTable(sections) {
  const header = ['Figure', 'Value', 'Baseline (same run)', 'Ratio', 'Target', 'Result'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const section of sections) {
    lines.push(`| **${escape(section.title)}** | | | | | |`);
    for (const figure of section.figures) lines.push(`| ${row(figure).map(escape).join(' | ')} |`);
    const notes = section.figures.filter((figure) => figure.note);
    for (const figure of notes) lines.push(`| ↳ _${escape(figure.note)}_ | | | | | |`);
  }
  return lines.join('\n');
}
