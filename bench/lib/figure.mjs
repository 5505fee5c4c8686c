// One reported number: its value, the baseline measured beside it, their ratio, and the target.
import { meets } from './stats.mjs';

/**
 * @param {object} f
 * @param {string} f.section
 * @param {string} f.name
 * @param {number} f.value
 * @param {string} f.unit
 * @param {{ name: string, value: number, unit?: string }} [f.baseline]
 * @param {number} [f.ratio]         value / baseline.value unless given
 * @param {{ on: 'value' | 'ratio', op: '<=' | '>=', value: number, text: string }} [f.target]
 * @param {string} [f.note]
 */
export function figure({ section, name, value, unit, baseline, ratio, target, note }) {
  const computedRatio = ratio ?? (baseline && baseline.value !== 0 ? value / baseline.value : undefined);
  const judged = target ? (target.on === 'ratio' ? computedRatio : value) : undefined;
  return {
    section,
    name,
    value,
    unit,
    baseline: baseline ? { unit, ...baseline } : undefined,
    ratio: computedRatio,
    target,
    pass: target ? meets(judged, target) ?? false : undefined,
    note,
  };
}

/** A section that did not run (missing feature, crash, over budget): shown as a row, never fatal. */
export function skipped(section, name, reason) {
  return { section, name, skipped: reason };
}
