// The console's own styles, in its shadow root. Plain and dense: an operator scans tables.
export const consoleStyles = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #111827; background: #fff; padding: 12px 16px; }
header { display: flex; align-items: center; gap: 16px; }
h1 { font-size: 20px; margin: 0; }
h2 { font-size: 16px; margin: 20px 0 8px; border-bottom: 1px solid #e5e7eb; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 8px 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #f3f4f6; vertical-align: top; }
th { font-weight: 600; color: #374151; }
td.question { max-width: 28em; overflow-wrap: anywhere; white-space: pre-wrap; }
td[data-urgency="high"] { color: #b91c1c; font-weight: 600; }
td.actions { white-space: nowrap; }
td.actions input { width: 16em; }
button { font: inherit; margin-right: 4px; }
button.link { background: none; border: none; padding: 0; color: #1d4ed8; text-decoration: underline; cursor: pointer; }
.status:empty { display: none; }
.status { margin: 8px 0; padding: 6px 8px; border-radius: 4px; background: #ecfdf5; }
.status[data-kind="error"] { background: #fef2f2; color: #991b1b; }
.empty, .note, .count { color: #6b7280; margin: 4px 0; }
.filters { display: flex; gap: 6px; margin-bottom: 8px; flex-wrap: wrap; }
.timeline { padding-left: 20px; }
.timeline pre { margin: 2px 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; background: #f9fafb; padding: 4px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 12px; }
figure { margin: 0; }
figcaption { font-weight: 600; }
svg.chart { width: 100%; height: auto; }
svg .axis { stroke: #9ca3af; }
svg .tick { font-size: 10px; fill: #4b5563; }
.legend, .chart-text { margin: 2px 0; font-size: 12px; color: #4b5563; }
.advice { color: #374151; font-style: italic; }
`;
