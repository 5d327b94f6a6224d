// The campaign runner of campaign-runner.mjs with one planted defect, of a kind real runtimes
// have: its dispatch journals the task as dispatched before it has checked that the task's
// dependencies are proven (a scheduler that trusts its queue). Every other transition is the
// honest runner's. `statefold explore --driver` must catch it.
import { CampaignRunner } from "./campaign-runner.mjs";

export class CampaignRunnerWithDefect extends CampaignRunner {
  dispatch(id) {
    const task = this.tasks.get(id);
    if (task.status !== "queued" && task.status !== "rework") return { refused: "wrong-status" };
    task.status = "dispatched"; // the defect: no dependency check
    return this.record({ kind: "dispatched", id });
  }
}
