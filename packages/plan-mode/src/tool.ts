import type { JsonSchema } from '@askseam/tool-ask-user';
import { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
import { executeExitPlanMode, type ExitPlanModeContext, type ExitPlanModeResult } from './execute.js';
import { exitPlanModeArgsSchema } from './schema.js';
import { exitPlanModeJsonSchema } from './tool-definitions.js';

/** Everything a model loop needs to offer `exit_plan_mode`, in one object. */
export interface ExitPlanModeTool {
  readonly name: typeof exitPlanModeToolName;
  readonly description: string;
  readonly parameters: typeof exitPlanModeArgsSchema;
  readonly jsonSchema: JsonSchema;
  execute(args: unknown, context: ExitPlanModeContext): Promise<ExitPlanModeResult>;
}

export const exitPlanModeTool: ExitPlanModeTool = Object.freeze({
  name: exitPlanModeToolName,
  description: exitPlanModeToolDescription,
  parameters: exitPlanModeArgsSchema,
  jsonSchema: exitPlanModeJsonSchema,
  execute: executeExitPlanMode,
});
