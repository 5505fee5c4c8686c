/** The tool's name as the model sees it. */
export const exitPlanModeToolName = 'exit_plan_mode';

/** What the model reads: when to call the tool, what the plan must look like, and what follows. */
export const exitPlanModeToolDescription = [
  'Submit your plan for the user to review, and leave plan mode if they approve it.',
  '',
  'Call this only while you are in plan mode and your plan is ready: you have read what you need and know the steps. Write the plan in Markdown, starting with a "# " title line, then the concrete steps and the files or parts you will change. Do not ask for plan approval any other way.',
  '',
  'If the user approves, plan mode ends and you implement the plan as written. Otherwise you stay in plan mode: revise the plan using any feedback the user gave, and call this tool again when it is ready.',
].join('\n');
