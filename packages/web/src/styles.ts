// The element's whole look. Every colour, the radius and the font come from a public
// --askseam-* custom property with a default, so a host page restyles it without reaching into the
// shadow root. Private --_* properties hold the resolved values; dark defaults apply under
// prefers-color-scheme: dark unless the page sets the public properties.
export const styles = `
:host {
  --_font: var(--askseam-font, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif);
  --_mono: var(--askseam-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  --_bg: var(--askseam-bg, #ffffff);
  --_fg: var(--askseam-fg, #1b1f24);
  --_muted: var(--askseam-muted, #5b6470);
  --_border: var(--askseam-border, #d9dee5);
  --_surface: var(--askseam-surface, #f5f7fa);
  --_accent: var(--askseam-accent, #3559e0);
  --_accent-fg: var(--askseam-accent-fg, #ffffff);
  --_accent-soft: var(--askseam-accent-soft, color-mix(in srgb, var(--_accent) 10%, transparent));
  --_danger: var(--askseam-danger, #c62828);
  --_warning: var(--askseam-warning, #8a5a00);
  --_warning-soft: color-mix(in srgb, var(--askseam-warning, #e0a100) 18%, transparent);
  --_radius: var(--askseam-radius, 12px);
  --_shadow: var(--askseam-shadow, 0 1px 2px rgb(16 24 40 / 6%), 0 4px 16px rgb(16 24 40 / 8%));
  --_focus: var(--askseam-focus-ring, 0 0 0 3px color-mix(in srgb, var(--_accent) 35%, transparent));
  display: block;
  font-family: var(--_font);
  font-size: var(--askseam-font-size, 15px);
  line-height: 1.5;
  color: var(--_fg);
}
@media (prefers-color-scheme: dark) {
  :host {
    --_bg: var(--askseam-bg, #1d2127);
    --_fg: var(--askseam-fg, #e7eaee);
    --_muted: var(--askseam-muted, #9aa4b1);
    --_border: var(--askseam-border, #353b45);
    --_surface: var(--askseam-surface, #252a32);
    --_accent: var(--askseam-accent, #7c9cff);
    --_accent-fg: var(--askseam-accent-fg, #0d1220);
    --_danger: var(--askseam-danger, #ff8a80);
    --_warning: var(--askseam-warning, #f5c451);
    --_shadow: var(--askseam-shadow, 0 1px 2px rgb(0 0 0 / 30%), 0 8px 24px rgb(0 0 0 / 30%));
  }
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
.card {
  background: var(--_bg);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  box-shadow: var(--_shadow);
  padding: 20px 22px 18px;
  max-width: var(--askseam-max-width, 640px);
}
form, fieldset.frame { margin: 0; padding: 0; border: 0; min-width: 0; }
.top { display: flex; align-items: center; gap: 10px; margin-bottom: 10px; flex-wrap: wrap; }
.chip {
  display: inline-block; padding: 2px 10px; border-radius: 999px;
  background: var(--_accent-soft); color: var(--_accent);
  font-size: 0.78em; font-weight: 600; letter-spacing: 0.02em;
}
.required-mark {
  font-size: 0.78em; font-weight: 600; color: var(--_danger);
}
.urgency {
  display: inline-block; padding: 2px 10px; border-radius: 999px;
  font-size: 0.78em; font-weight: 650; letter-spacing: 0.02em;
}
.urgency[data-urgency="high"] { background: var(--_danger); color: #ffffff; }
.urgency[data-urgency="medium"] {
  background: var(--_warning-soft); color: var(--_warning);
}
.pager-count { margin-left: auto; color: var(--_muted); font-size: 0.85em; font-variant-numeric: tabular-nums; }
.status { font-size: 0.82em; color: var(--_muted); display: flex; align-items: center; gap: 6px; }
/* Kept rendered while empty: a live region that appears from display:none is often not announced. */
.status:not(:empty) { margin: 0 2px 8px; }
.status:not(:empty)::before { content: ""; width: 7px; height: 7px; border-radius: 50%; background: #e0a100; }
.status[data-status="closed"]::before { background: var(--_danger); }
h2.question, h3.question {
  font-size: 1.15em; font-weight: 650; margin: 0 0 8px; line-height: 1.35;
  overflow-wrap: anywhere; white-space: pre-wrap;
}
h2.question:focus, h3.question:focus { outline: none; }
h2.question:focus-visible, h3.question:focus-visible { outline: none; box-shadow: var(--_focus); border-radius: 4px; }
.detail {
  color: var(--_fg); margin: 0 0 14px; overflow-wrap: anywhere;
}
.detail > :first-child { margin-top: 0; }
.detail > :last-child { margin-bottom: 0; }
.detail h1, .detail h2, .detail h3, .detail h4 { font-size: 1em; margin: 1em 0 0.4em; }
.detail h1 { font-size: 1.12em; }
.detail p, .detail ul, .detail ol, .detail pre, .detail blockquote, .detail table { margin: 0.5em 0; }
.detail ul, .detail ol { padding-left: 1.4em; }
.detail code { font-family: var(--_mono); font-size: 0.9em; background: var(--_surface); padding: 0.1em 0.35em; border-radius: 4px; }
.detail pre { background: var(--_surface); padding: 10px 12px; border-radius: 8px; overflow: auto; }
.detail pre code { background: none; padding: 0; }
.detail blockquote { border-left: 3px solid var(--_border); margin-left: 0; padding-left: 12px; color: var(--_muted); }
.detail table { border-collapse: collapse; }
.detail th, .detail td { border: 1px solid var(--_border); padding: 4px 8px; }
.detail a { color: var(--_accent); }
.detail a:not([href]) { color: inherit; text-decoration: underline dotted; }
.plan {
  background: var(--_surface); border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 4px);
  padding: 14px 16px; max-height: min(60vh, 520px); overflow: auto;
}
.plan code { background: var(--_bg); }
.detail th { background: var(--_surface); text-align: left; }
.plan:focus-visible { outline: none; box-shadow: var(--_focus); }
fieldset.options { border: 0; margin: 0 0 12px; padding: 0; min-width: 0; }
fieldset.options > legend { padding: 0; margin-bottom: 6px; font-size: 0.82em; color: var(--_muted); }
.option {
  display: grid; grid-template-columns: auto auto 1fr; align-items: start; column-gap: 10px;
  padding: 10px 12px; margin-bottom: 6px; cursor: pointer;
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 4px);
  background: var(--_bg);
  transition: border-color 120ms, background-color 120ms;
}
.option:hover { border-color: color-mix(in srgb, var(--_accent) 55%, var(--_border)); }
.option:has(input:checked) { border-color: var(--_accent); background: var(--_accent-soft); }
.option:has(input:focus-visible) { box-shadow: var(--_focus); }
.option input { margin: 0.2em 0 0; accent-color: var(--_accent); width: 1.05em; height: 1.05em; }
.option input:focus-visible { outline: none; }
.option .number {
  min-width: 1.5em; text-align: center; font-size: 0.78em; font-weight: 600; color: var(--_muted);
  border: 1px solid var(--_border); border-radius: 6px; padding: 0 4px; margin-top: 0.15em; font-variant-numeric: tabular-nums;
}
.option .text { min-width: 0; overflow-wrap: anywhere; }
.option .label { font-weight: 550; }
.option .description { display: block; color: var(--_muted); font-size: 0.9em; margin-top: 2px; }
.badge {
  display: inline-block; margin-left: 8px; padding: 0 7px; border-radius: 999px; vertical-align: 1px;
  font-size: 0.72em; font-weight: 600; color: var(--_accent-fg); background: var(--_accent);
}
.custom { display: block; margin: 4px 0 0; }
.custom > .custom-label { display: block; font-size: 0.88em; color: var(--_muted); margin-bottom: 4px; }
textarea, input[type="text"], input[type="password"], input[type="number"], input[type="date"] {
  display: block; width: 100%; min-height: 2.6em;
  font: inherit; color: var(--_fg); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 4px); padding: 8px 10px;
}
textarea { resize: vertical; }
input[type="number"], input[type="date"] { width: auto; min-width: 12em; max-width: 100%; font-variant-numeric: tabular-nums; }
input[type="date"] { color-scheme: light dark; }
textarea:focus-visible, input[type="text"]:focus-visible, input[type="password"]:focus-visible, input[type="number"]:focus-visible, input[type="date"]:focus-visible {
  outline: none; border-color: var(--_accent); box-shadow: var(--_focus);
}
textarea[aria-invalid="true"], input[aria-invalid="true"]:not([type="checkbox"]), fieldset.options[aria-invalid="true"] .option,
.option:has(input[aria-invalid="true"]) { border-color: var(--_danger); }
.value { margin: 4px 0 0; }
.form-page .field + .field { margin-top: 18px; padding-top: 14px; border-top: 1px dashed var(--_border); }
.form-page .field .top { margin-bottom: 6px; }
.option.checkbox-answer { grid-template-columns: auto 1fr; }
.hint { font-size: 0.78em; color: var(--_muted); margin-top: 4px; }
.note { font-size: 0.88em; color: var(--_muted); margin: 8px 0 0; }
.invalid, .error { color: var(--_danger); font-size: 0.9em; margin: 10px 0 0; }
.error { padding: 8px 12px; border-radius: 8px; background: color-mix(in srgb, var(--_danger) 10%, transparent); overflow-wrap: anywhere; }
.actions { display: flex; align-items: center; gap: 8px; margin-top: 16px; padding-top: 14px; border-top: 1px solid var(--_border); flex-wrap: wrap; }
.actions .spacer { flex: 1; }
button {
  font: inherit; font-size: 0.92em; font-weight: 550; cursor: pointer;
  padding: 7px 14px; border-radius: calc(var(--_radius) - 4px);
  border: 1px solid var(--_border); background: var(--_bg); color: var(--_fg);
}
button:hover:not(:disabled) { background: var(--_surface); }
button:focus-visible { outline: none; box-shadow: var(--_focus); }
button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-fg); }
button.primary:hover:not(:disabled) { background: color-mix(in srgb, var(--_accent) 88%, black); }
button.quiet { border-color: transparent; background: transparent; color: var(--_muted); }
button.quiet:hover:not(:disabled) { color: var(--_fg); background: var(--_surface); }
button:disabled, textarea:disabled, input:disabled, .option:has(input:disabled) { opacity: 0.6; cursor: not-allowed; }
.tool { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 12px; font-size: 0.92em; }
.tool dt { color: var(--_muted); }
.tool dd { margin: 0; min-width: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.tool-name { font-family: var(--_mono); font-weight: 600; unicode-bidi: isolate; }
/* The card's own frame (what will run) is solid and marked; the model's words sit apart, dashed. */
.call {
  margin: 0 0 12px; padding: 12px 14px; background: var(--_surface);
  border: 1px solid var(--_border); border-left: 4px solid var(--_accent); border-radius: calc(var(--_radius) - 4px);
}
.call .json { background: var(--_bg); }
.agent-words { margin: 0 0 4px; padding: 10px 14px; border: 1px dashed var(--_border); border-radius: calc(var(--_radius) - 4px); }
.agent-words .tool { margin-bottom: 8px; }
.agent-words .tool:last-child, .agent-words .detail { margin-bottom: 0; }
.frame-label { margin: 0 0 8px; font-size: 0.75em; font-weight: 650; letter-spacing: 0.04em; text-transform: uppercase; color: var(--_muted); }
.call > .frame-label { color: var(--_accent); }
.argument-keys code { font-family: var(--_mono); font-size: 0.95em; unicode-bidi: isolate; }
.arguments { margin: 0 0 4px; }
.arguments > summary { cursor: pointer; font-size: 0.88em; color: var(--_muted); margin-bottom: 6px; }
.arguments > summary:focus-visible { outline: none; box-shadow: var(--_focus); border-radius: 4px; }
.json {
  font-family: var(--_mono); font-size: 0.85em; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere;
  unicode-bidi: isolate; background: var(--_surface); border: 1px solid var(--_border);
  border-radius: calc(var(--_radius) - 4px); padding: 10px 12px; max-height: min(50vh, 420px); overflow: auto;
}
.json:focus-visible { outline: none; box-shadow: var(--_focus); }
.actions.decision { border-top: 0; padding-top: 0; margin-top: 14px; }
.feedback { margin-top: 16px; }
.sending { font-size: 0.85em; color: var(--_muted); }
.quorum { margin: 0.75em 0 0; font-weight: 600; }
.waiting { margin: 8px 2px 0; font-size: 0.85em; color: var(--_muted); }
.attention:not(:empty) { margin: 8px 2px 0; }
button.notify { font-size: 0.85em; }
@media (prefers-reduced-motion: reduce) { .option { transition: none; } }
`;
