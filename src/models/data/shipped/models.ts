/**
 * The models defined by data that statefold ships, each named like any model (`--model temporal`):
 * the files beside this one, checked when first imported (docs/models/temporal.md, cadence.md,
 * stepfunctions.md).
 */
import { checkModel } from "../check.js";
import { dataModel } from "../model.js";
import cadenceFile from "./cadence.json" with { type: "json" };
import stepfunctionsFile from "./stepfunctions.json" with { type: "json" };
import temporalFile from "./temporal.json" with { type: "json" };

export const temporalModel = dataModel(
  "temporal",
  checkModel(temporalFile, "temporal.json"),
  "Temporal workflow histories as temporal workflow show exports them",
);

export const cadenceModel = dataModel(
  "cadence",
  checkModel(cadenceFile, "cadence.json"),
  "Cadence workflow histories, as its clients' replay tests keep them",
);

export const stepfunctionsModel = dataModel(
  "stepfunctions",
  checkModel(stepfunctionsFile, "stepfunctions.json"),
  "AWS Step Functions execution histories (GetExecutionHistory)",
);
