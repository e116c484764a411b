// Writes the e2e workspace (example files, and one restricted setting in .vscode/settings.json)
// and code-server's user settings: a fresh profile with no evalsubmit.* setting at all (the
// extension must work as installed), only editor settings that keep the UI quiet and predictable
// for typing. Workspace Trust stays on (the workspace opens untrusted; a step trusts it).
//   node prepare.mjs <work-dir>
import fs from 'node:fs';
import path from 'node:path';

const [work] = process.argv.slice(2);
if (!work) {
  console.error('usage: node prepare.mjs <work-dir>');
  process.exit(2);
}
const ws = path.join(work, 'workspace');
fs.mkdirSync(ws, { recursive: true });

const e2eWorkspace = process.env.EVALSUBMIT_E2E_WORKSPACE || 'qa';
const header = (workspace) => `from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="${workspace}")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/agent.yaml",
        resources_server="mcqa",
    )
)
`;

function tasksetRef(env = process.env) {
  const t = env.EVALSUBMIT_E2E_TASKSET || 'smoke';
  return t.includes('/') ? t : `${env.EVALSUBMIT_E2E_WORKSPACE || 'qa'}/${t}`;
}
const taskset = tasksetRef();
const files = {
  // first install (squiggle), hover on the runner constructor
  'mixed_shape.py': `${header('qa')}m = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.output}}")
rows = [{"question": "2+2?", "answer": "4"}]

job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner, metric=m, dataset=rows)
`,
  // hover on a submit() call that sends a different target for each call of its helper
  'several_targets.py': `${header('qa')}

def launch(agent: str):
    other = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config="configs/agent.yaml", resources_server="mcqa")
    )
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=other)


launch("simple_agent")
launch("tool_agent")
`,
  // the ES102 quick fix
  'row_option.py': `${header('qa')}
job = client.evaluator.submit(
    tasks=TasksetRef("qa/smoke"),
    target=runner,
    config=RunConfig(parallelism=16),
)
`,
  // submissions to the real platform: the code names the workspace (no setting does)
  'submit_ok.py': `${header(e2eWorkspace)}
job = client.evaluator.submit(tasks=TasksetRef(${JSON.stringify(taskset)}), target=runner)
`,
  // completion inside TasksetRef(" (issue 30): the tasksets of the code's workspace
  'complete_taskset.py': `${header(e2eWorkspace)}
job = client.evaluator.submit(tasks=TasksetRef(""), target=runner)
`,
  // the typing step types below this
  'typing.py': `${header('qa')}m = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.output}}")
rows = [{"question": "2+2?", "answer": "4"}]

`,
};
// A notebook as people write one (no kernel needed): a %pip cell, markdown between code cells,
// a ! shell cell, the runner defined in one cell, an ES102 in another, a submit in a third.
const cell = (cellType, text, index) => ({
  cell_type: cellType,
  id: `cell-${index}`,
  metadata: {},
  source: text.split(/(?<=\n)/),
  ...(cellType === 'code' ? { execution_count: null, outputs: [] } : {}),
});
const notebookCells = [
  ['code', '%pip install -q nemo-evaluator-sdk nemo-platform'],
  ['markdown', '# Evaluate the agent\n\nThe runner is defined once; the cells below use it.'],
  ['code', header(e2eWorkspace).trimEnd()],
  ['code', 'nightly = client.evaluator.submit(\n    tasks=TasksetRef("qa/nightly"),\n    target=runner,\n    config=RunConfig(parallelism=16),\n)'],
  ['code', '!ls configs/'],
  ['code', `job = client.evaluator.submit(tasks=TasksetRef(${JSON.stringify(taskset)}), target=runner)`],
];
files['evaluate.ipynb'] = `${JSON.stringify(
  {
    cells: notebookCells.map(([t, text], i) => cell(t, text, i)),
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;
for (const [name, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(ws, name), text);
}
// A workspace value of a restricted setting (the default value, so it changes nothing once
// trusted): in Restricted Mode the extension must say it is ignored.
fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'evalsubmit.importStrategy': 'useBundled' }, null, 2));

const settings = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'editor.hover.delay': 150,
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
  // typing: no completion popup may swallow an Enter
  'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
  'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'editor.wordBasedSuggestions': 'off',
  'editor.parameterHints.enabled': false,
};
if (process.env.EVALSUBMIT_E2E_TRACE) {
  settings['evalsubmit.trace.server'] = 'messages'; // debugging only: the LSP traffic in the log
}
const userDir = path.join(work, 'user-data', 'User');
fs.mkdirSync(userDir, { recursive: true });
fs.writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify(settings, null, 2));
