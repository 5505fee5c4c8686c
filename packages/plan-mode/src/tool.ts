import { defineTool, type StrictTool } from '@askseam/tool-ask-user';
import { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
import { executeExitPlanMode, type ExitPlanModeContext, type ExitPlanModeErrorCode } from './execute.js';
import { exitPlanModeArgsSchema } from './schema.js';

/** Everything a model loop needs to offer `exit_plan_mode`, in one object: the `Tool` shape. */
export type ExitPlanModeTool = StrictTool<typeof exitPlanModeArgsSchema, ExitPlanModeContext, ExitPlanModeErrorCode, typeof exitPlanModeToolName>;

export const exitPlanModeTool: ExitPlanModeTool = defineTool({
  name: exitPlanModeToolName,
  description: exitPlanModeToolDescription,
  parameters: exitPlanModeArgsSchema,
  // `{ plan }`: one required field, a closed object, so the plain schema is already strict-ready.
  strictParameters: exitPlanModeArgsSchema,
  execute: executeExitPlanMode,
});
